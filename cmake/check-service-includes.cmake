# A service includes nothing of the core's internals (ara/service.h is its
# interface): fails if any file under DIR includes a header of ROOT/libara/src.
#
#   cmake -DROOT=<source tree> -DDIR=<tree to check> -P check-service-includes.cmake
#
# Every #include of every source and header file under DIR is resolved the
# ways a compiler could: relative to the including file's folder (a quoted
# one), and against the include roots a service may have (ROOT/libara/include,
# ROOT/include, ROOT/services/*). It is refused if its text names
# libara/src or climbs with ".." (nothing a service needs), if it resolves relative to the file into ROOT/libara/src
# (however the path climbs there), or if it resolves nowhere but under
# ROOT/libara/src or one of its folders (the form "dom0/dom0.h" needs
# libara/src on the include path). Headers of the system and of mbedtls
# resolve under none of these and pass. No allowlist.
if(NOT ROOT OR NOT DIR)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -DDIR=<tree> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
get_filename_component(ROOT "${ROOT}" REALPATH)
get_filename_component(DIR "${DIR}" REALPATH)
set(core "${ROOT}/libara/src")
if(NOT IS_DIRECTORY "${core}" OR NOT IS_DIRECTORY "${DIR}")
  message(FATAL_ERROR "no ${core}, or no ${DIR}")
endif()

# The include roots of the core's headers: libara/src and each folder in it.
set(core_roots "${core}")
file(GLOB_RECURSE core_headers LIST_DIRECTORIES true "${core}/*")
foreach(d IN LISTS core_headers)
  if(IS_DIRECTORY "${d}")
    list(APPEND core_roots "${d}")
  endif()
endforeach()
set(public_roots "${ROOT}/libara/include" "${ROOT}/include")
file(GLOB service_dirs LIST_DIRECTORIES true "${ROOT}/services/*")
foreach(d IN LISTS service_dirs)
  if(IS_DIRECTORY "${d}")
    list(APPEND public_roots "${d}")
  endif()
endforeach()

# True (in out) if path is inside the core's sources.
function(in_core path out)
  get_filename_component(p "${path}" ABSOLUTE)
  file(REAL_PATH "${p}" p)
  string(FIND "${p}/" "${core}/" at)
  if(at EQUAL 0)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Every file, whatever its name ends with: an include can sit in any file a
# source includes. A build file of a service that names libara/src (an
# include path, a forced include, a source) is refused as such.
file(GLOB_RECURSE files "${DIR}/*")
set(refused 0)
foreach(f IN LISTS files)
  if(f MATCHES "\\.cmake$|/CMakeLists\\.txt$")
    file(STRINGS "${f}" hits REGEX "libara/src")
    if(hits)
      file(RELATIVE_PATH shown "${DIR}" "${f}")
      math(EXPR refused "${refused} + 1")
      message("${shown}: names libara/src")
    endif()
    continue()
  endif()
  get_filename_component(here "${f}" DIRECTORY)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  file(RELATIVE_PATH shown "${DIR}" "${f}")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "include[ \t]*([<\"])([^>\"]+)[>\"]" _ "${line}")
    set(quote "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    set(why "")
    if(name MATCHES "libara/src(/|$)")
      set(why "names libara/src")
    elseif(name MATCHES "(^|/)\\.\\.(/|$)")
      # ara/../../src/dom0/x.h climbs out of a public root: a service
      # names its headers without climbing.
      set(why "climbs with ..")
    endif()
    # A quoted include is looked up next to the file first.
    set(found_public FALSE)
    if(NOT why AND quote STREQUAL "\"" AND EXISTS "${here}/${name}")
      in_core("${here}/${name}" core_hit)
      if(core_hit)
        set(why "resolves into libara/src from ${shown}")
      else()
        set(found_public TRUE)
      endif()
    endif()
    if(NOT why AND NOT found_public)
      foreach(r IN LISTS public_roots)
        if(EXISTS "${r}/${name}")
          set(found_public TRUE)
          break()
        endif()
      endforeach()
    endif()
    if(NOT why AND NOT found_public)
      foreach(r IN LISTS core_roots)
        if(EXISTS "${r}/${name}" AND NOT IS_DIRECTORY "${r}/${name}")
          file(RELATIVE_PATH at "${ROOT}" "${r}/${name}")
          set(why "is ${at}, found only with libara/src on the include path")
          break()
        endif()
      endforeach()
    endif()
    if(why)
      math(EXPR refused "${refused} + 1")
      if(quote STREQUAL "<")
        message("${shown}: #include <${name}>: ${why}")
      else()
        message("${shown}: #include \"${name}\": ${why}")
      endif()
    endif()
  endforeach()
endforeach()
if(refused GREATER 0)
  # Unwrapped, unlike FATAL_ERROR's text: the twin test looks for it.
  message("${refused} include(s) of libara/src under ${DIR}")
  message(FATAL_ERROR "a service includes ara/service.h and ARA's other public headers "
    "only (libara/include, include)")
endif()
list(LENGTH files n)
message("${n} files under ${DIR}: no include of libara/src")
