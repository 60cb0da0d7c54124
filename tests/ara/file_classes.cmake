# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 4: files that give what a denied call would, or expose DOM0's state
# (docs/files.md). Each attack opens a file of one class from App code,
# which ARA must refuse with EACCES; its twin runs against libara whose
# open check knows only what it knew before the file classes
# (no-file-policy), or, for files the kernel itself reserves to
# CAP_SYS_RAWIO or CAP_SYS_ADMIN, against that variant keeping every
# capability as well (no-file-policy-privileged), and must get through.
# Every run is wrapped in file_fixture.sh, which makes what an App under
# ARA cannot (device nodes, a loop device, tracefs, debugfs and cgroup2
# mounts, a noexec tmpfs) and removes it.
ara_test_app(attack_files attack_files.c)
target_link_libraries(attack_files PRIVATE ara_attack Threads::Threads)
ara_variant_manifest(attack_files no-file-policy)
ara_variant_manifest(attack_files no-file-policy-privileged)
ara_variant_manifest(attack_files shared-fd-table)

# ara_file_attack(ATTACK VARIANT DISCLOSED): ara_attack_ATTACK and its
# _services rerun, and ara_attack_ATTACK_unprotected against VARIANT, whose
# output must match DISCLOSED (as ara_attack_pair, under the fixture).
function(ara_file_attack attack variant disclosed)
  set(fixture /bin/sh ${CMAKE_CURRENT_SOURCE_DIR}/file_fixture.sh $<TARGET_FILE:ara-loader>)
  add_test(NAME ara_attack_${attack} COMMAND ${fixture} $<TARGET_FILE:attack_files> ${attack})
  add_test(NAME ara_attack_${attack}_services COMMAND ${fixture} $<TARGET_FILE:attack_files> ${attack})
  set_tests_properties(ara_attack_${attack} ara_attack_${attack}_services PROPERTIES
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|FAIL" TIMEOUT 900)
  set_tests_properties(ara_attack_${attack} PROPERTIES ENVIRONMENT "ARA_VERBOSE=1")
  set_tests_properties(ara_attack_${attack}_services PROPERTIES
    ENVIRONMENT "ARA_VERBOSE=1;ARA_EVIDENCE=dev-insecure;ARA_ATTACK_SERVICES=1")
  add_test(NAME ara_attack_${attack}_unprotected
    COMMAND ${fixture} --manifest $<TARGET_FILE:attack_files>.${variant}.ara-manifest
            $<TARGET_FILE:attack_files> ${attack})
  set_tests_properties(ara_attack_${attack}_unprotected PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1" PASS_REGULAR_EXPRESSION "${disclosed}" TIMEOUT 300)
endfunction()

# A thread blocked in a system call DOM0 performs (a trapped open of a FIFO
# without a writer): its registers, pc on ARA's system-call page and sp on
# a DOM0 stack ...
ara_file_attack(file_task_syscall no-file-policy
  "registers of a thread inside ARA .*: pc 0x[0-9a-f]+ and sp 0x[0-9a-f]+ lie in DOM0")
# ... and its kernel stack (CAP_SYS_ADMIN).
ara_file_attack(file_task_stack no-file-policy-privileged
  "kernel stack of a thread inside ARA: .*kernel_clone")
# Which of DOM0's pages are present, and with CAP_SYS_ADMIN where: through
# those frame numbers, /proc/kcore (CAP_SYS_RAWIO) reads DOM0's canary.
ara_file_attack(file_pagemap no-file-policy "pagemap shows [1-9][0-9]* of [0-9]+ DOM0 pages present")
ara_file_attack(file_kcore no-file-policy-privileged "${ara_leak}")
# A device node is its numbers: /dev/mem's, made outside /dev.
ara_file_attack(file_dev_mem_node no-file-policy-privileged
  "opened a node with /dev/mem's numbers \\(1:1\\)")
# What the denied userfaultfd call makes, from a device.
ara_file_attack(file_dev_userfaultfd no-file-policy "made a userfaultfd through /dev/userfaultfd")
# The raw disk under every file system's permissions (a loop device in RAM).
# The test guest has no block device at all (its drivers are modules it
# lacks): there the twin shows that the open passes ARA and the kernel
# answers it.
ara_file_attack(file_block_device no-file-policy
  "read the raw disk's first sector: ARA-FILES-RAW-SECTOR|the kernel, not ARA, answered the open of a block device")
# Programs the kernel starts as root outside ARA, and the machine itself:
# each opened for writing (root's uid keeps procfs's write permission
# without a capability); what is written is the value read.
ara_file_attack(file_modprobe no-file-policy "wrote /proc/sys/kernel/modprobe \\(back to its value")
ara_file_attack(file_sysrq_trigger no-file-policy "opened /proc/sysrq-trigger for writing")
ara_file_attack(file_tracefs_uprobe no-file-policy "opened tracefs uprobe_events for writing")
# An O_PATH descriptor of a file that may only be read, reopened for
# writing through /proc/self/fd: the reopen is checked as an open.
ara_file_attack(file_sysfs_reopen_write no-file-policy "for writing through /proc/self/fd and wrote back")
# The probe's descriptor swapped by another App thread between ARA's check
# and its reopen: against the variant that probes and reopens in the
# process's own descriptor table.
ara_file_attack(file_open_race shared-fd-table "won the open race: wrote /proc/sys/kernel/modprobe")
# The same race for an executable mapping: a file of a noexec mount behind
# the descriptor once ARA has checked it.
ara_file_attack(file_mmap_noexec_race shared-fd-table
  "won the mmap race: mapped a page of a noexec mount executable")
# A cgroup file written (this process's ID into the cgroup it is in), and
# debugfs listed: the first read only, the second refused whole.
ara_file_attack(file_cgroup_write no-file-policy "wrote cgroup.procs")
ara_file_attack(file_debugfs no-file-policy "listed debugfs: [1-9][0-9]* bytes of entries")

# The same race for an execve: ARA's sealed copy of the program swapped, by
# number, for a memfd of the App's holding a program ARA accepts, rewritten
# with one ARA refuses once checked (attack_exec_swap.c). exec_swap_target
# is what runs; like spawn_child it is never given to ara-loader.
add_executable(exec_swap_target exec_swap_target.c)
target_link_libraries(exec_swap_target PRIVATE ara_entry)
target_include_directories(exec_swap_target PRIVATE ${PROJECT_SOURCE_DIR}/tests/platform)
set_target_properties(exec_swap_target PROPERTIES SKIP_BUILD_RPATH TRUE)
ara_test_app(attack_exec_swap attack_exec_swap.c)
target_link_libraries(attack_exec_swap PRIVATE Threads::Threads)
# ara_exec_race(MODE VARIANT): ara_attack_exec_MODE, and its twin against VARIANT.
function(ara_exec_race mode variant)
  ara_variant_manifest(attack_exec_swap ${variant})
  ara_loader_test(ara_attack_exec_${mode} attack_exec_swap ${mode} $<TARGET_FILE:exec_swap_target>)
  set_property(GLOBAL APPEND PROPERTY ara_attack_list
    "$<TARGET_FILE:attack_exec_swap> ${mode} $<TARGET_FILE:exec_swap_target>")
  set_tests_properties(ara_attack_exec_${mode} PROPERTIES
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|FAIL"
    PASS_REGULAR_EXPRESSION "ara-evidence: [0-9]+ execs, .*: all refused")
  add_test(NAME ara_attack_exec_${mode}_unprotected
    COMMAND ara-loader --manifest $<TARGET_FILE:attack_exec_swap>.${variant}.ara-manifest
            $<TARGET_FILE:attack_exec_swap> ${mode} $<TARGET_FILE:exec_swap_target>)
  set_tests_properties(ara_attack_exec_${mode}_unprotected PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1"
    PASS_REGULAR_EXPRESSION "BREACH: running the program ARA refused" TIMEOUT 300)
endfunction()
ara_exec_race(swap shared-fd-table)
# The same forgery through the socket pair that hands ARA's copy back: the
# twin's libara takes the identity of whatever it received.
ara_exec_race(inject exec-identity-by-number)
