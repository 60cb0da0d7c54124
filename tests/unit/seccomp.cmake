# ARA's seccomp filter and the syscall table it is made from
# (libara/seccomp/): the checks that fail CI when the table, the kernel
# headers, the filter and docs/syscall-table.md disagree.
set(_ara_syscall_table ${PROJECT_SOURCE_DIR}/libara/seccomp/syscall_table.c)

# The filter as DOM0 installs it, run on a BPF interpreter against arm64
# numbers: every row of the table gets its verdict.
ara_unit_test(test_seccomp test_seccomp.c bpf_interp.c seccomp_fixture.c ${_ara_syscall_table})
target_link_libraries(test_seccomp PRIVATE PkgConfig::SECCOMP)
# The head (libara/seccomp/cache_head.h): the filter with and without it
# agree, and the kernel's cache emulation marks what the table allows always.
ara_unit_test(test_seccomp_cache test_seccomp_cache.c bpf_interp.c seccomp_fixture.c
  ${_ara_syscall_table})
foreach(t test_seccomp test_seccomp_cache)
  target_compile_definitions(${t} PRIVATE
    "ARA_TEST_SECCOMP_POLICY=\"${ARA_SECCOMP_POLICY_FILE}\""
    "ARA_TEST_SECCOMP_HEAD=\"${ARA_SECCOMP_HEAD_FILE}\"")
  add_dependencies(${t} ara_seccomp_policy)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/libara/src)
endforeach()

# The table against the arm64 kernel headers the build uses: the compiler's
# own <asm/unistd.h> (the cross compiler's, or the host's arm64 cross gcc
# in the host tree), preprocessed to its #defines.
if(CMAKE_CROSSCOMPILING OR CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(ARA_ARM64_CC "${CMAKE_C_COMPILER}")
else()
  find_program(ARA_ARM64_CC aarch64-linux-gnu-gcc)
endif()
if(ARA_ARM64_CC)
  set(_ara_unistd "${CMAKE_CURRENT_BINARY_DIR}/arm64-unistd.defines")
  add_custom_command(OUTPUT "${_ara_unistd}"
    COMMAND "${ARA_ARM64_CC}" -E -dM -include asm/unistd.h -x c /dev/null -o "${_ara_unistd}"
    COMMENT "The arm64 system call numbers of ${ARA_ARM64_CC}'s <asm/unistd.h>"
    VERBATIM)
  add_custom_target(ara_arm64_unistd DEPENDS "${_ara_unistd}")
  ara_unit_test(test_syscall_table test_syscall_table.c ${_ara_syscall_table})
  target_link_libraries(test_syscall_table PRIVATE PkgConfig::SECCOMP)
  target_compile_definitions(test_syscall_table PRIVATE "ARA_TEST_ARM64_UNISTD=\"${_ara_unistd}\"")
  add_dependencies(test_syscall_table ara_arm64_unistd)
else()
  # Without the headers the table cannot be checked: fail, do not skip.
  add_test(NAME unit_test_syscall_table COMMAND ${CMAKE_COMMAND} -E echo
    "no arm64 compiler (aarch64-linux-gnu-gcc) to read <asm/unistd.h> from")
  set_tests_properties(unit_test_syscall_table PROPERTIES WILL_FAIL TRUE)
endif()

# docs/syscall-table.md is what the generator prints (it runs on the build machine).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME unit_syscall_table_doc COMMAND ${CMAKE_COMMAND}
    -DGEN=$<TARGET_FILE:ara-seccomp-gen>
    -DDOC=${PROJECT_SOURCE_DIR}/docs/syscall-table.md
    -DOUT=${CMAKE_CURRENT_BINARY_DIR}/syscall-table.md
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_syscall_table_doc.cmake)
endif()
