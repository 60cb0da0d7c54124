# Writes OUT, a C header with the address of every fx_* symbol of the
# fixture ELF (from `NM ELF`) as PREFIX_<name>, so that the tests' expected
# targets come from binutils, not from the verifier under test.
execute_process(COMMAND ${NM} ${ELF} OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${ELF} failed")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [A-Za-z] fx_[a-z_]+" symbols "${listing}")
set(text "/* Generated from ${NM} ${ELF}. */\n")
foreach(line IN LISTS symbols)
  string(REGEX REPLACE "([0-9a-f]+) [A-Za-z] (fx_[a-z_]+)" "#define ${PREFIX}_\\2 0x\\1ull\n" def "${line}")
  string(APPEND text "${def}")
endforeach()
list(LENGTH symbols count)
if(count LESS 13)
  message(FATAL_ERROR "${ELF}: only ${count} fx_ symbols in nm's output")
endif()
file(WRITE ${OUT} "${text}")
