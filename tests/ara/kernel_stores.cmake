# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 1: stores the kernel makes at an address the App registered, later,
# with the row of whatever task it is then (docs/kernel-access.md). The
# filter refuses set_tid_address on ARA's ranges, and DOM0 forgets the
# thread's clear_child_tid before it ends a task or executes an image;
# against the no-tid-guard variant (neither) a vfork child's exec zeroes
# the count of ARA's protected ranges, and ARA then copies DOM0's canary
# in. (A vfork child ARA ends takes its parent with it: class 6,
# shared_mm.cmake; so no task that shares the memory outlives such a store.)
ara_test_app(attack_stores attack_stores.c)
target_link_libraries(attack_stores PRIVATE ara_attack)
add_dependencies(attack_stores spawn_child) # the program its vfork child executes
ara_variant_manifest(attack_stores no-tid-guard)
ara_attack_pair(attack_stores tid_address_dom0 no-tid-guard "was not refused" WITH_LIBARA)
ara_variant_manifest(attack_stores no-clone-tid-check)
ara_attack_pair(attack_stores clone_cleartid_dom0 no-clone-tid-check "was not refused" WITH_LIBARA)
ara_attack_pair(attack_stores vfork_exec_tid no-tid-guard "${ara_leak}" WITH_LIBARA)
# GUP pins: vmsplice checks the caller's row as it pins DOM0's canary (the
# pipe's reader copies later, unchecked); without DOM0's key it leaks.
ara_variant_manifest(attack_stores no-dom0-key)
ara_attack_pair(attack_stores vmsplice_dom0 no-dom0-key "${ara_leak}" WITH_LIBARA)
