# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 5: privilege to step outside the model. The guest runs the App as
# root; ARA drops every capability that reaches beyond the process
# (libara/src/dom0/privilege.c) and the filter denies the module, kexec,
# swap and reboot calls. The no-privilege-drop variant has neither: there
# the calls reach the kernel's own argument checks (harmless arguments
# only), and the rest gets through.
ara_test_app(attack_privilege attack_privilege.c)
target_link_libraries(attack_privilege PRIVATE ara_attack)
ara_variant_manifest(attack_privilege no-privilege-drop)
ara_variant_manifest(attack_privilege no-seccomp)
set(not_eperm "failed, but not with Operation not permitted")
# Debian's arm64 kernel has no kexec_file_load (CONFIG_KEXEC_FILE is not
# set): there the call answers ENOSYS, before any capability check.
foreach(pair "finit_module=Bad file descriptor" "init_module=Exec format error"
             "delete_module=No such file or directory" "kexec_load=Invalid argument"
             "kexec_file_load=(Invalid argument|Function not implemented)"
             "swapon=No such file or directory" "swapoff=No such file or directory"
             "reboot=Invalid argument")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 attack)
  list(GET pair 1 kernel_answer)
  ara_attack_pair(attack_privilege ${attack} no-privilege-drop "${not_eperm}: ${kernel_answer}")
  if(attack STREQUAL kexec_file_load)
    continue()
  endif()
  # The capability drop alone (the no-seccomp variant has no filter): the
  # kernel's capability check refuses the call before its arguments.
  add_test(NAME ara_attack_${attack}_dropped_only
    COMMAND ara-loader --manifest $<TARGET_FILE:attack_privilege>.no-seccomp.ara-manifest
            $<TARGET_FILE:attack_privilege> ${attack})
  set_tests_properties(ara_attack_${attack}_dropped_only PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1"
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused|failed, but not" TIMEOUT 300)
endforeach()
foreach(attack dac_override dac_read_search mknod_mem dev_mem rlimit_raise chown_give unshare_uts
               chroot setuid_other)
  ara_attack_pair(attack_privilege ${attack} no-privilege-drop "was not refused")
endforeach()
