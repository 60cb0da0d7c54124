# Included by tests/ara/CMakeLists.txt: the RTM's gate append
# (ara_rtm_append, entry/gate.S) refuses forged entries (attack_rtm_append.c),
# and its _unprotected twin, against the entry object without the landing's
# entry check (tests/variants: no-rtm-entry-check), finds them in the log.
ara_test_app(attack_rtm_append attack_rtm_append.c)
if(ARA_MANIFEST_TOOL)
  set(tool "${ARA_MANIFEST_TOOL}")
else()
  set(tool "$<TARGET_FILE:ara-manifest>")
endif()
add_custom_target(attack_rtm_append_no_rtm_entry_check_manifest ALL
  COMMAND "${tool}" --libara "$<TARGET_FILE:ara>"
          --entry "$<TARGET_FILE:ara_entry_variant_no_rtm_entry_check>"
          --app "$<TARGET_FILE:attack_rtm_append>"
          -o "$<TARGET_FILE:attack_rtm_append>.no-rtm-entry-check.ara-manifest"
  COMMENT "Writing the no-rtm-entry-check variant's manifest of attack_rtm_append"
  VERBATIM)
add_dependencies(attack_rtm_append_no_rtm_entry_check_manifest attack_rtm_append ara
  ara_entry_variant_no_rtm_entry_check)
ara_loader_test(ara_attack_rtm_append_forged attack_rtm_append)
set_tests_properties(ara_attack_rtm_append_forged PROPERTIES
  FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|FAIL|was not refused")
add_test(NAME ara_attack_rtm_append_forged_unprotected
  COMMAND ara-loader --manifest $<TARGET_FILE:attack_rtm_append>.no-rtm-entry-check.ara-manifest
          $<TARGET_FILE:attack_rtm_append>)
set_tests_properties(ara_attack_rtm_append_forged_unprotected PROPERTIES
  ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1"
  PASS_REGULAR_EXPRESSION "BREACH: the log holds a forged entry" TIMEOUT 300)
