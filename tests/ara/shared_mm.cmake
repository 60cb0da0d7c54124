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
#
# The parent dying first (dom0/vfork.h): a vfork child is tied to its parent
# thread with the parent-death signal SIGKILL, kept from App code (prctl
# trapped, no credential change), and given back to the App at its execve.
# Unprotected, the child outlives its parent (killed, or ended by another
# thread's execve) and calls ARA alone:
# without the tie (no-clone-guard), with App code's prctl made at once
# (no-pdeath-lock), with CAP_SETUID kept (no-privilege-drop).
ara_test_app(attack_shared_mm attack_shared_mm.c raw_clone.S)
target_link_libraries(attack_shared_mm PRIVATE ara_attack Threads::Threads)
ara_variant_manifest(attack_shared_mm no-clone-guard)
ara_attack_pair(attack_shared_mm clone_vm_task no-clone-guard "LEAK: DOM0 stacks lost")
ara_attack_pair(attack_shared_mm vfork_killed_inside no-clone-guard "LEAK: DOM0 stacks lost")
ara_attack_pair(attack_shared_mm vfork_child_thread no-clone-guard "was not refused")
ara_attack_pair(attack_shared_mm vfork_rlimit_staging no-clone-guard
  "LEAK: a step ARA documents as unable to fail failed")
ara_test_app(attack_vfork_orphan attack_vfork_orphan.c)
target_link_libraries(attack_vfork_orphan PRIVATE ara_attack Threads::Threads)
# No RUNPATH: ARA's execve runs no program whose libraries could come from
# elsewhere than the system's places (vfork_parent_exec executes this one;
# ara-loader and ARA's execve both give it libara-entry.so).
set_target_properties(attack_vfork_orphan PROPERTIES SKIP_BUILD_RPATH TRUE)
foreach(variant no-clone-guard no-pdeath-lock no-privilege-drop)
  ara_variant_manifest(attack_vfork_orphan ${variant})
endforeach()
set(ara_orphan_leak "LEAK: .* outlived its parent .thread. and called ARA")
ara_attack_pair(attack_vfork_orphan vfork_parent_killed no-clone-guard "${ara_orphan_leak}")
ara_attack_pair(attack_vfork_orphan vfork_parent_exec no-clone-guard "${ara_orphan_leak}")
ara_attack_pair(attack_vfork_orphan vfork_pdeath_cleared no-pdeath-lock "${ara_orphan_leak}")
ara_attack_pair(attack_vfork_orphan vfork_setuid_pdeath no-privilege-drop "${ara_orphan_leak}")
# A program started from a thread outlives it, with the parent-death signal
# its vfork child asked for (ARA's execve gives it back).
ara_test_app(spawn_thread_app spawn_thread_app.c)
target_link_libraries(spawn_thread_app PRIVATE Threads::Threads)
add_dependencies(spawn_thread_app spawn_child)
ara_loader_test(ara_spawn_thread_exits spawn_thread_app $<TARGET_FILE:spawn_child>)
set_tests_properties(ara_spawn_thread_exits PROPERTIES PASS_REGULAR_EXPRESSION
  "reached its program")
