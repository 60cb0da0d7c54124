# Included by tests/ara/CMakeLists.txt: attacks on the RTS's plain copies of
# App memory (attack_rts.c). Two protections stop them: the copies' range
# check, and the RTS's own domain, whose row neither reads nor writes the
# core's memory. The _unprotected twins run against the variant with
# neither (no-copy-range-check-one-domain) and get through; the
# _domain_only runs, against the variant without the range check alone,
# show the domain holding by itself: the RTS faults (exit 13) before
# anything of DOM0 is read or written. The App needs the instance
# (ARA_EVIDENCE) for its CENC session, so the attacks are not in the
# unprivileged rerun's list, whose runs have no evidence backend.
ara_test_app(attack_rts attack_rts.c)
target_link_libraries(attack_rts PRIVATE ara_attack ara_rts_cenc ara_test_self_provision)
ara_variant_manifest(attack_rts no-copy-range-check)
ara_variant_manifest(attack_rts no-copy-range-check-one-domain)
set(reveals_rts_sample_from_dom0 "ARA-DOM0-CANARY")
set(reveals_rts_clear_into_dom0 "was not refused")
foreach(attack rts_sample_from_dom0 rts_clear_into_dom0)
  ara_loader_test(ara_attack_${attack} attack_rts ${attack} $<TARGET_FILE:ara>)
  set_tests_properties(ara_attack_${attack} PROPERTIES
    ENVIRONMENT "ARA_VERBOSE=1;ARA_EVIDENCE=dev-insecure"
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused|FAIL")
  add_test(NAME ara_attack_${attack}_unprotected
    COMMAND ara-loader --manifest
            $<TARGET_FILE:attack_rts>.no-copy-range-check-one-domain.ara-manifest
            $<TARGET_FILE:attack_rts> ${attack}
            $<TARGET_FILE:ara_variant_no-copy-range-check-one-domain>)
  set_tests_properties(ara_attack_${attack}_unprotected PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1;ARA_EVIDENCE=dev-insecure"
    PASS_REGULAR_EXPRESSION "${reveals_${attack}}" TIMEOUT 300)
  add_test(NAME ara_attack_${attack}_domain_only
    COMMAND ara-loader --manifest $<TARGET_FILE:attack_rts>.no-copy-range-check.ara-manifest
            $<TARGET_FILE:attack_rts> ${attack} $<TARGET_FILE:ara_variant_no-copy-range-check>)
  set_tests_properties(ara_attack_${attack}_domain_only PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1;ARA_EVIDENCE=dev-insecure"
    PASS_REGULAR_EXPRESSION "ara: service rts \\(domain rts\\) faulted: signal 11 \\(SEGV_PKUERR"
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused" TIMEOUT 300)
endforeach()
ara_loader_test(ara_rts_copy_faults attack_rts rts_copy_faults)
set_tests_properties(ara_rts_copy_faults PROPERTIES
  ENVIRONMENT "ARA_VERBOSE=1;ARA_EVIDENCE=dev-insecure"
  PASS_REGULAR_EXPRESSION "ara-evidence: RTS_CENC_DECRYPT from a sample"
  FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|FAIL")
