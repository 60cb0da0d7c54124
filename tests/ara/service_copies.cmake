# A service's copies of App memory through the kernel (process_vm_readv,
# which POR_EL0 does not govern): provisioning's SECRET_HMAC, made an
# oracle of any byte it is let read, names DOM0 and every service domain's
# memory as its message (attack_copies.c). The copies' range check refuses
# them all (ARA_E_FAULT); the twin, against the variant without it
# (no-copy-range-check, every domain still on its own key), reads DOM0's
# canary: the domains do not stop the kernel's copies. The App provisions
# its own secret, so it needs the instance (ARA_EVIDENCE).
ara_test_app(attack_copies attack_copies.c)
target_link_libraries(attack_copies PRIVATE ara_attack ara_test_self_provision)
ara_variant_manifest(attack_copies no-copy-range-check)
ara_loader_test(ara_attack_copies_hmac_of_dom0 attack_copies copies_hmac_of_dom0 $<TARGET_FILE:ara>)
set_tests_properties(ara_attack_copies_hmac_of_dom0 PROPERTIES
  ENVIRONMENT "ARA_EVIDENCE=dev-insecure"
  PASS_REGULAR_EXPRESSION "ara-evidence: SECRET_HMAC with its message"
  FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused|FAIL")
add_test(NAME ara_attack_copies_hmac_of_dom0_unprotected
  COMMAND ara-loader --manifest $<TARGET_FILE:attack_copies>.no-copy-range-check.ara-manifest
          $<TARGET_FILE:attack_copies> copies_hmac_of_dom0
          $<TARGET_FILE:ara_variant_no-copy-range-check>)
set_tests_properties(ara_attack_copies_hmac_of_dom0_unprotected PROPERTIES
  ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1;ARA_EVIDENCE=dev-insecure"
  PASS_REGULAR_EXPRESSION "BREACH: SECRET_HMAC read [0-9]+ bytes of libara's DOM0 data: ARA-DOM0-CANARY"
  TIMEOUT 300)
