# ara_prelinked_library(<target> OUTPUT_NAME <name> WHOLE <static library target>
#                       [ARCHIVES <static library targets...>] API <symbols...>)
#
# An App-side library that needs nothing else of ARA: one object, linked
# (ld -r) from every object of WHOLE and what they use of ARCHIVES (in any
# order: a group), in which every symbol but API is then made local
# (objcopy). An App links one archive, in any position, with no link order
# to know; ARA's copy of mbedtls (in ARCHIVES) stays invisible to an App
# that links an mbedtls of its own; and any symbol the App takes brings the
# whole object, constructors included. The build fails if an API symbol is
# not defined, or if something of ARA's is left undefined that
# libara-entry.so (ara_entry) does not export.
include_guard(GLOBAL)

function(ara_prelinked_library target)
  cmake_parse_arguments(PARSE_ARGV 1 P "" "OUTPUT_NAME;WHOLE" "ARCHIVES;API")
  if(P_UNPARSED_ARGUMENTS OR NOT P_OUTPUT_NAME OR NOT P_WHOLE OR NOT P_API)
    message(FATAL_ERROR "ara_prelinked_library(${target}): needs OUTPUT_NAME, WHOLE and API")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.prelink")
  set(all "${dir}/all.o")
  set(obj "${dir}/${P_OUTPUT_NAME}.o")
  set(api "${dir}/api.txt")
  list(JOIN P_API "\n" api_lines)
  file(GENERATE OUTPUT "${api}" CONTENT "${api_lines}\n")
  set(archives "")
  foreach(a IN LISTS P_ARCHIVES)
    list(APPEND archives "$<TARGET_FILE:${a}>")
  endforeach()
  add_custom_command(OUTPUT "${obj}"
    COMMAND "${CMAKE_LINKER}" -r -o "${all}" --whole-archive "$<TARGET_FILE:${P_WHOLE}>" --no-whole-archive
            --start-group ${archives} --end-group
    COMMAND "${CMAKE_OBJCOPY}" "--keep-global-symbols=${api}" "${all}" "${obj}"
    COMMAND "${CMAKE_COMMAND}" -DNM=${CMAKE_NM} -DOBJ=${obj} "-DAPI_FILE=${api}"
            "-DENTRY=$<TARGET_FILE:ara_entry>" -P "${ARA_PRELINK_CHECK}"
    DEPENDS ${P_WHOLE} ${P_ARCHIVES} ara_entry "${api}" "${ARA_PRELINK_CHECK}"
    COMMENT "Linking ${P_OUTPUT_NAME}'s parts into one object"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_library(${target} STATIC "${obj}")
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${P_OUTPUT_NAME} LINKER_LANGUAGE C)
endfunction()

set(ARA_PRELINK_CHECK "${CMAKE_CURRENT_LIST_DIR}/ara-check-prelinked.cmake")
