# The ABI check of one shared library (docs/abi.md), run with cmake -P:
#   -DLIB=<file> -DNM=<nm> -DREADELF=<readelf> -DABIDW=<abidw>
#   -DABIDIFF=<abidiff> -DBASELINE_DIR=<dir> -DTYPES=ON|OFF
#   -DLIB_NAME=<name for files in WORK_DIR> -DWORK_DIR=<dir>
#   -DMODE=check   fail if LIB differs from the baseline of its SONAME:
#                  <SONAME>.symbols, the exported symbols as nm -D lists
#                  them (type, name@version), sorted, compared exactly;
#                  and, with TYPES=ON, <SONAME>.abi (abidw), compared by
#                  abidiff, which also sees prototypes and type layouts
#   -DMODE=update  rewrite that baseline from LIB (an intended change)
#   -DMODE=twin    LIB is a twin with one exported symbol added or removed:
#                  fail unless both comparisons refuse it
execute_process(COMMAND ${READELF} -W --dynamic ${LIB} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(rc OR NOT dyn MATCHES "\\(SONAME\\)[^[]*\\[([^]]+)\\]")
  message(FATAL_ERROR "${LIB}: no SONAME (readelf: ${rc})")
endif()
set(soname ${CMAKE_MATCH_1})
set(symbols_file ${BASELINE_DIR}/${soname}.symbols)
set(abi_file ${BASELINE_DIR}/${soname}.abi)
if(MODE STREQUAL "twin" AND (NOT EXISTS ${symbols_file} OR (TYPES AND NOT EXISTS ${abi_file})))
  # Refused for want of a baseline, a twin would show nothing.
  message(FATAL_ERROR "ABI twin ${LIB}: its SONAME ${soname} has no baseline in ${BASELINE_DIR}")
endif()

# "T secure_call@@ARA_0.1": nm -D's lines without the address.
execute_process(COMMAND ${NM} -D --defined-only ${LIB} OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${nm_out}")
set(exported "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-f]+ (.+)$")
    message(FATAL_ERROR "${LIB}: unexpected line from nm: ${line}")
  endif()
  list(APPEND exported "${CMAKE_MATCH_1}")
endforeach()
list(SORT exported)
string(REPLACE ";" "\n" exported_text "${exported}")
if(exported)
  string(APPEND exported_text "\n")
endif()

# abidw(OUT): LIB's ABI as abixml in OUT, every type of its debug
# information included, without paths or source locations (a moved line is
# no change to the ABI).
function(abidw out)
  execute_process(COMMAND ${ABIDW} --no-corpus-path --no-comp-dir-path --no-show-locs
    --load-all-types --out-file ${out} ${LIB} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${ABIDW} failed on ${LIB} (status ${rc})")
  endif()
endfunction()

if(MODE STREQUAL "update")
  file(WRITE ${symbols_file} "${exported_text}")
  message(STATUS "wrote ${symbols_file}")
  if(TYPES)
    abidw(${abi_file})
    message(STATUS "wrote ${abi_file}")
  endif()
  return()
endif()

# Each comparison appends to problems what it found.
set(problems "")
if(NOT EXISTS ${symbols_file})
  list(APPEND problems "no baseline ${symbols_file}: a new SONAME needs its own (docs/abi.md)")
else()
  file(STRINGS ${symbols_file} expected)
  set(added ${exported})
  set(removed ${expected})
  if(expected)
    list(REMOVE_ITEM added ${expected})
  endif()
  if(exported)
    list(REMOVE_ITEM removed ${exported})
  endif()
  foreach(s IN LISTS added)
    list(APPEND problems "exported but not in ${symbols_file}: ${s}")
  endforeach()
  foreach(s IN LISTS removed)
    list(APPEND problems "in ${symbols_file} but not exported: ${s}")
  endforeach()
endif()
set(symbol_problems ${problems})

set(abidiff_failed OFF)
if(TYPES)
  if(NOT EXISTS ${abi_file})
    list(APPEND problems "no baseline ${abi_file}: a new SONAME needs its own (docs/abi.md)")
    set(abidiff_failed ON)
  else()
    # Written as the baseline was and compared abixml to abixml: abidiff
    # reading the ELF file itself sees a few types that abidw does not
    # write. Any difference, compatible or not, is a change to the ABI:
    # abidiff's status is a bit mask (4: a change, 8: an incompatible one).
    set(built ${WORK_DIR}/${LIB_NAME}.abi)
    abidw(${built})
    execute_process(COMMAND ${ABIDIFF} --non-reachable-types ${abi_file} ${built}
      OUTPUT_VARIABLE report ERROR_VARIABLE report RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      list(APPEND problems "abidiff ${abi_file} ${built}: status ${rc}\n${report}")
      set(abidiff_failed ON)
    endif()
  endif()
endif()

string(REPLACE ";" "\n  " listed "${problems}")
if(MODE STREQUAL "twin")
  if(NOT symbol_problems OR (TYPES AND NOT abidiff_failed))
    message(FATAL_ERROR "${LIB} is an ABI twin with one exported symbol added or removed, "
      "but the check did not refuse it (symbol list: ${symbol_problems}; abidiff failed: ${abidiff_failed})")
  endif()
  message(STATUS "ABI twin ${LIB} refused, as it must be:\n  ${listed}")
elseif(MODE STREQUAL "check")
  if(problems)
    message(FATAL_ERROR "${LIB}: the ABI differs from the baseline in ${BASELINE_DIR}:\n  ${listed}\n"
      "If the change is intended, follow docs/abi.md and update the baseline: "
      "cmake --build <arm64 tree> --target ara_abi_update")
  endif()
else()
  message(FATAL_ERROR "MODE must be check, update or twin (got '${MODE}')")
endif()
