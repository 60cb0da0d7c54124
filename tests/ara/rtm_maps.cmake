# Included by tests/ara/CMakeLists.txt: an attack of the kernel-interface
# audit's class 4 (docs/security.md) on the RTM, with its _unprotected twin.
#
# The RTM's module check (services/rtm/modules.c) reads /proc/self/maps in
# several read() calls on one descriptor: another App thread swaps it, by
# number, for a memfd holding the text of /proc/self/maps from before the
# App mapped new code over its own (attack_rtm_maps.c). Under ARA, which
# reads the file in a task with a private descriptor table, every signed
# report says the modules changed; the twin, against the variant that
# reads it in the process's shared table, gets a correctly signed report
# saying they did not. The App needs the instance key (ARA_EVIDENCE) for
# its reports, so the attack is not in the unprivileged rerun's list,
# whose runs have no evidence backend.
ara_test_app(attack_rtm_maps attack_rtm_maps.c)
target_link_libraries(attack_rtm_maps PRIVATE Threads::Threads ara_provision_common)
target_include_directories(attack_rtm_maps PRIVATE ${PROJECT_SOURCE_DIR}/services/rtm) # rtm_format.h
ara_variant_manifest(attack_rtm_maps shared-fd-table)
ara_loader_test(ara_attack_rtm_maps_swap attack_rtm_maps)
set_tests_properties(ara_attack_rtm_maps_swap PROPERTIES
  ENVIRONMENT "ARA_VERBOSE=1;ARA_EVIDENCE=dev-insecure"
  FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused")
add_test(NAME ara_attack_rtm_maps_swap_unprotected
  COMMAND ara-loader --manifest $<TARGET_FILE:attack_rtm_maps>.shared-fd-table.ara-manifest
          $<TARGET_FILE:attack_rtm_maps>)
set_tests_properties(ara_attack_rtm_maps_swap_unprotected PROPERTIES
  ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1;ARA_EVIDENCE=dev-insecure"
  PASS_REGULAR_EXPRESSION "BREACH: signed report says modules unchanged after new code was mapped"
  TIMEOUT 300)
