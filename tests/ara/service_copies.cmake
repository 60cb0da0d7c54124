# The services' copies of App memory through the kernel (process_vm_readv
# and _writev, which POR_EL0 does not govern), attack_copies.c:
# provisioning's SECRET_HMAC made an oracle of any byte it is let read, and
# RTM_REPORT's document aimed at ARA's memory. The copies' range check
# refuses them all (ARA_E_FAULT); the twins, against the variant without it
# (no-copy-range-check, every domain still on its own key), read memory on
# every key provisioning's row cannot load from, and write into the extra
# domain's heap from the RTM's: the domains do not stop the kernel's
# copies. The App provisions its own secret, so it needs the instance
# (ARA_EVIDENCE).
ara_test_app(attack_copies attack_copies.c)
target_link_libraries(attack_copies PRIVATE ara_attack ara_test_self_provision)
ara_variant_manifest(attack_copies no-copy-range-check)
set(reveals_copies_hmac_of_dom0
  "copies: SECRET_HMAC read memory on each of the 4 keys provisioning's row cannot load from")
set(reveals_copies_report_into_ara
  "BREACH: RTM_REPORT .* wrote into the extra domain's memory at 0x[0-9a-f]+, which now reads ARARTM01")
foreach(attack copies_hmac_of_dom0 copies_report_into_ara)
  ara_loader_test(ara_attack_${attack} attack_copies ${attack} $<TARGET_FILE:ara>)
  set_tests_properties(ara_attack_${attack} PROPERTIES
    ENVIRONMENT "ARA_EVIDENCE=dev-insecure"
    PASS_REGULAR_EXPRESSION "ara-evidence: "
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused|FAIL")
  add_test(NAME ara_attack_${attack}_unprotected
    COMMAND ara-loader --manifest $<TARGET_FILE:attack_copies>.no-copy-range-check.ara-manifest
            $<TARGET_FILE:attack_copies> ${attack}
            $<TARGET_FILE:ara_variant_no-copy-range-check>)
  set_tests_properties(ara_attack_${attack}_unprotected PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1;ARA_EVIDENCE=dev-insecure"
    PASS_REGULAR_EXPRESSION "${reveals_${attack}}"
    FAIL_REGULAR_EXPRESSION "FAIL" TIMEOUT 300)
endforeach()
