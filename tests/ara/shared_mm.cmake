# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 6, tasks that share the memory and die inside ARA (dom0/clone.c):
# clone(CLONE_VM) without CLONE_THREAD or CLONE_VFORK refused (EPERM), and
# the whole process ended when a vfork child leaves the memory other than by
# ARA's execve or an exit of its own. Against no-clone-guard, killed tasks
# leave DOM0's call stacks taken (ARA_E_BUSY), and a step ARA documents as
# unable to fail, made to fail by a vfork child's own limits, leaves the
# parent running.
ara_test_app(attack_shared_mm attack_shared_mm.c raw_clone.S)
target_link_libraries(attack_shared_mm PRIVATE ara_attack Threads::Threads)
ara_variant_manifest(attack_shared_mm no-clone-guard)
ara_attack_pair(attack_shared_mm clone_vm_task no-clone-guard "LEAK: DOM0 stacks lost")
ara_attack_pair(attack_shared_mm vfork_killed_inside no-clone-guard "LEAK: DOM0 stacks lost")
ara_attack_pair(attack_shared_mm vfork_child_thread no-clone-guard "was not refused")
ara_attack_pair(attack_shared_mm vfork_rlimit_staging no-clone-guard
  "LEAK: a step ARA documents as unable to fail failed")
