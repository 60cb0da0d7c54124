# Writes ara/gate_offsets.h from the gate's assembled object and checks the
# checked-in copy against it (ara/gate.h says why both).
#
# entry/gate.S names each offset C needs with for_c: an absolute symbol
# ara_gate_offset_<name> whose value the assembler computed from the code
# as laid out. Each becomes #define ARA_GATE_<NAME> <value>.
#
# Inputs: NM, OBJECTS (the entry object's; the one from gate.S is read),
# OUT (the header written), CHECKED_IN (libara/include/ara/gate_offsets.h).
foreach(o IN LISTS OBJECTS)
  if(o MATCHES "/gate\\.S\\.o(bj)?$")
    set(obj "${o}")
  endif()
endforeach()
if(NOT obj)
  message(FATAL_ERROR "no object of gate.S among ${OBJECTS}")
endif()
execute_process(COMMAND ${NM} ${obj} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "nm failed on ${obj}")
endif()
string(REGEX MATCHALL "[0-9a-f]+ a ara_gate_offset_[a-z0-9_]+" rows "${syms}")
if(NOT rows)
  message(FATAL_ERROR "${obj} names no ara_gate_offset_ symbol: entry/gate.S's for_c lines are gone")
endif()
list(SORT rows COMPARE STRING) # by value: nm's hex is zero-padded
set(defines "")
foreach(row IN LISTS rows)
  string(REGEX MATCH "([0-9a-f]+) a ara_gate_offset_([a-z0-9_]+)" _ "${row}")
  math(EXPR value "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT HEXADECIMAL)
  string(TOUPPER "${CMAKE_MATCH_2}" name)
  string(APPEND defines "#define ARA_GATE_${name} ${value}\n")
endforeach()
file(WRITE ${OUT}.tmp "/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generated from entry/gate.S's object by entry/gate-offsets.cmake: do not
 * edit. Offsets in their page (page 0, or page 1 for secure_call, the DOM1
 * windows and the RTM append's) of the labels entry/gate.S names with
 * for_c; what each is, is said there. Every arm64 build checks this file
 * against the object (ara/gate.h).
 */
#ifndef ARA_GATE_OFFSETS_H
#define ARA_GATE_OFFSETS_H

${defines}
#endif
")
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}.tmp ${CHECKED_IN} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "entry/gate.S's window offsets changed: ${CHECKED_IN} no longer "
    "matches the assembled gate. Review the windows in libara/src/interrupt.c, then\n"
    "  cp ${OUT}.tmp ${CHECKED_IN}\nand build again.")
endif()
file(RENAME ${OUT}.tmp ${OUT})
