# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 3, IV1 on load-time code: ARA replaces the code mapped before the
# App runs with sealed, scanned copies that no file is behind
# (libara/src/dom0/code_copy.c). attack_code is linked against a library of
# its own (code_victim.c), so that ld.so maps it before ARA initialises, and
# holds a POR_EL0 write in its own text (attack_code_gadget.S). Each attack
# brings back, extends or rewrites load-time code past the scan; against the
# no-code-copy variant (load-time code patched in place, still views of
# their files) each must print DOM0's canary.
add_library(ara_code_victim SHARED code_victim.c)
ara_test_app(attack_code attack_code.c attack_code_gadget.S)
# -z now: code_mremap_grow moves the library's code, symbol tables included,
# so nothing may be bound lazily after it.
target_link_libraries(attack_code PRIVATE ara_attack ara_code_victim -Wl,-z,now)
ara_variant_manifest(attack_code no-code-copy)
foreach(attack code_dontneed code_dontneed_locked code_mremap_grow code_file_write)
  ara_attack_pair(attack_code ${attack} no-code-copy "${ara_leak}")
endforeach()
# code_file_write rewrites the library's file and puts it back: one at a time.
set_tests_properties(ara_attack_code_file_write ara_attack_code_file_write_services
  ara_attack_code_file_write_unprotected PROPERTIES RESOURCE_LOCK ara_code_victim_file)

# The dynamic linker across execve (attack_ldso.c): an image ARA's execve
# started rewrites, in place, the dynamic linker the App names and executes
# the App again, whose new image must run the copy of it ARA kept at
# initialisation (libara/src/dom0/exec_files.c). The App names a private
# copy of ld.so that ldso_fixture.sh makes before each run and removes
# after it (the guest's own is never touched), one run at a time. Against
# ldso-from-file (the new image runs the file) the payload written into it
# opens /proc/self/mem before ARA exists, and the App prints DOM0's canary.
set(ara_ldso_copy ${CMAKE_CURRENT_BINARY_DIR}/attack_ldso-ldso/ld-linux-aarch64.so.1)
ara_test_app(attack_ldso attack_ldso.c attack_ldso_payload.S)
target_link_libraries(attack_ldso PRIVATE ara_attack)
target_link_options(attack_ldso PRIVATE -Wl,--dynamic-linker=${ara_ldso_copy})
# No RUNPATH: ARA's execve starts only programs whose libraries come from
# the system's places (libara-entry.so is preloaded and satisfies the need).
set_target_properties(attack_ldso PROPERTIES SKIP_BUILD_RPATH TRUE)
ara_variant_manifest(attack_ldso ldso-from-file)
set(ldso_fixture /bin/sh ${CMAKE_CURRENT_SOURCE_DIR}/ldso_fixture.sh ${ara_ldso_copy}
  $<TARGET_FILE:ara-loader>)
add_test(NAME ara_attack_exec_ldso_rewritten
  COMMAND ${ldso_fixture} $<TARGET_FILE:attack_ldso> exec_ldso_rewritten)
add_test(NAME ara_attack_exec_ldso_rewritten_services
  COMMAND ${ldso_fixture} $<TARGET_FILE:attack_ldso> exec_ldso_rewritten)
set_tests_properties(ara_attack_exec_ldso_rewritten ara_attack_exec_ldso_rewritten_services
  PROPERTIES FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused" TIMEOUT 900)
set_tests_properties(ara_attack_exec_ldso_rewritten PROPERTIES ENVIRONMENT "ARA_VERBOSE=1")
set_tests_properties(ara_attack_exec_ldso_rewritten_services PROPERTIES
  ENVIRONMENT "ARA_VERBOSE=1;ARA_EVIDENCE=dev-insecure;ARA_ATTACK_SERVICES=1")
add_test(NAME ara_attack_exec_ldso_rewritten_unprotected
  COMMAND ${ldso_fixture} --manifest $<TARGET_FILE:attack_ldso>.ldso-from-file.ara-manifest
          $<TARGET_FILE:attack_ldso> exec_ldso_rewritten)
set_tests_properties(ara_attack_exec_ldso_rewritten_unprotected PROPERTIES
  ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1" PASS_REGULAR_EXPRESSION "${ara_leak}" TIMEOUT 300)
set_tests_properties(ara_attack_exec_ldso_rewritten ara_attack_exec_ldso_rewritten_services
  ara_attack_exec_ldso_rewritten_unprotected PROPERTIES RESOURCE_LOCK ara_ldso_copy)
