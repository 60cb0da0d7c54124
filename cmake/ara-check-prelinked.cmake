# cmake -DNM=<nm> -DOBJ=<object> -DAPI_FILE=<symbols, one a line>
#       -DENTRY=<libara-entry.so> -P ara-check-prelinked.cmake
# (ara_prelinked_library, AraPrelink.cmake): every API symbol is defined
# and global, nothing else is global, and nothing of ARA's or mbedtls's is
# left undefined but what libara-entry.so exports (the rest comes from libc).
cmake_minimum_required(VERSION 3.25) # policies: IN_LIST
execute_process(COMMAND "${NM}" "${OBJ}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${OBJ} failed")
endif()
string(REPLACE "\n" ";" lines "${out}")
file(STRINGS "${API_FILE}" API)
execute_process(COMMAND "${NM}" -D --defined-only "${ENTRY}" OUTPUT_VARIABLE entry RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D ${ENTRY} failed")
endif()
string(REGEX MATCHALL "[^ \n]+\n" entry "${entry}")
string(REPLACE "\n" "" entry "${entry}")
# The entry object's symbols carry their version (name@ARA_0.1).
string(REGEX REPLACE "@[^;]*" "" entry "${entry}")
set(globals "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-f]+ [A-TV-Z] (.+)$")
    list(APPEND globals "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^ +U ((mbedtls_|psa_|ara_).*)$" AND NOT CMAKE_MATCH_1 IN_LIST entry)
    message(FATAL_ERROR "${OBJ}: ${CMAKE_MATCH_1} is left undefined")
  endif()
endforeach()
foreach(sym IN LISTS API)
  if(NOT sym IN_LIST globals)
    message(FATAL_ERROR "${OBJ}: the API symbol ${sym} is not defined")
  endif()
  list(REMOVE_ITEM globals "${sym}")
endforeach()
if(globals)
  message(FATAL_ERROR "${OBJ}: global beyond the API: ${globals}")
endif()
