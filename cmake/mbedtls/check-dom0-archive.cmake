# Fails the build when the DOM0 mbedtls archive refers to a symbol that
# neither one of its own members defines nor ALLOWED lists: DOM0 is linked
# without libc, so any such symbol is a libc (or libgcc) dependency.
# Run after each link of the archive (cmake/AraMbedtls.cmake):
#   cmake -DNM=<nm> -DARCHIVE=<lib.a> -DALLOWED=<sym;sym;...> -P check-dom0-archive.cmake
cmake_minimum_required(VERSION 3.25) # a script's policies (IN_LIST) are its own

# Any failure removes the archive, so that the next build repeats the check
# instead of taking a rejected archive as up to date.
function(fail msg)
  file(REMOVE "${ARCHIVE}")
  message(FATAL_ERROR "${msg}")
endfunction()

foreach(var NM ARCHIVE ALLOWED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check-dom0-archive.cmake: -D${var}= is missing")
  endif()
endforeach()

# -P: "archive[member]: name type ..." per global symbol, type U or w (weak)
# when undefined.
execute_process(COMMAND "${NM}" -P -A -g "${ARCHIVE}"
                OUTPUT_VARIABLE nm_out RESULT_VARIABLE nm_rc)
if(NOT nm_rc EQUAL 0)
  fail("${NM} failed on ${ARCHIVE}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${nm_out}")

set(defined "")
set(undefined "") # "name (member)"
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[^[]*\\[([^]]+)\\]: ([^ ]+) ([A-Za-z])")
    continue()
  endif()
  set(member "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(CMAKE_MATCH_3 MATCHES "^[Uwv]$")
    list(APPEND undefined "${name} (${member})")
  else()
    list(APPEND defined "${name}")
  endif()
endforeach()

# An archive with no symbols at all means nm did not read it (another
# architecture's nm, say): never let that pass as "nothing undefined".
if(NOT defined)
  fail("${NM} lists no symbols defined in ${ARCHIVE}")
endif()

set(bad "")
foreach(ref IN LISTS undefined)
  string(REGEX REPLACE " .*" "" name "${ref}")
  if(NOT name IN_LIST defined AND NOT name IN_LIST ALLOWED)
    list(APPEND bad "${ref}")
  endif()
endforeach()

if(bad)
  list(JOIN bad "\n  " bad_lines)
  list(JOIN ALLOWED " " allowed_words)
  fail("${ARCHIVE} refers to symbols DOM0 does not provide (allowed: ${allowed_words}):\n  ${bad_lines}")
endif()
