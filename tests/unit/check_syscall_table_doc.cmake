# Fails if the checked-in docs/syscall-table.md (DOC) is not what
# ara-seccomp-gen (GEN) prints from the syscall table now (into OUT).
# Regenerate with: <host tree>/libara/ara-seccomp-gen -t docs/syscall-table.md
execute_process(COMMAND "${GEN}" -t "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ara-seccomp-gen -t failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DOC}" "${OUT}" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "${DOC} differs from the syscall table; regenerate it: ${GEN} -t ${DOC}")
endif()
