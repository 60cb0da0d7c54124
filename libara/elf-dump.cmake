# Helpers for the build-time checks of libara.so (check-self-contained.cmake,
# check-simd-services.cmake), run with cmake -P: the disassembly split into
# functions, a section's bytes as hex, and little-endian words read from them.

# A SIMD/FP register (v0, q1, d2, s3, h4, b5, z6) or FPCR/FPSR named in one
# instruction of an ara_objdump_blocks block.
set(ARA_SIMD_OPERAND_RE "\t[a-z0-9.]+\t[^\n]*([ ,{(][vqdshbz][0-9]+([) ,.}]|\n|$)|fpcr|fpsr)")

# ara_objdump_blocks(LIB OBJDUMP TEXT_VAR BLOCKS_VAR): LIB's disassembly in
# TEXT_VAR, and one list element per function in BLOCKS_VAR (objdump
# separates them with a blank line). Semicolons become commas and square
# brackets parentheses in both: either would confuse CMake's lists.
function(ara_objdump_blocks lib objdump text_var blocks_var)
  execute_process(COMMAND ${objdump} -d --no-show-raw-insn ${lib} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "objdump failed on ${lib}")
  endif()
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\n\n" ";" blocks "${text}")
  set(${text_var} "${text}" PARENT_SCOPE)
  set(${blocks_var} "${blocks}" PARENT_SCOPE)
endfunction()

# ara_section_hex(LIB READELF SECTION ADDR_VAR SIZE_VAR HEX_VAR): SECTION's
# link address and size (numbers) and its bytes as one hex string, two
# digits a byte; ADDR_VAR is left empty if LIB has no such section.
function(ara_section_hex lib readelf section addr_var size_var hex_var)
  set(${addr_var} "" PARENT_SCOPE)
  execute_process(COMMAND ${readelf} -W --section-headers ${lib} OUTPUT_VARIABLE sh RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "readelf failed on ${lib}")
  endif()
  string(REPLACE "." "\\." quoted "${section}")
  if(NOT sh MATCHES " ${quoted} +[A-Z_]+ +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+)")
    return()
  endif()
  math(EXPR addr "0x${CMAKE_MATCH_1}")
  math(EXPR size "0x${CMAKE_MATCH_2}")
  execute_process(COMMAND ${readelf} -W -x ${section} ${lib} OUTPUT_VARIABLE dump)
  # Each line: address, four groups of four bytes, the bytes as text.
  string(REGEX MATCHALL "\n +0x[0-9a-f]+ [0-9a-f ]+" lines "${dump}")
  set(hex "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n +0x[0-9a-f]+ " "" words "${line}")
    string(SUBSTRING "${words}" 0 35 words)
    string(REPLACE " " "" words "${words}")
    string(APPEND hex "${words}")
  endforeach()
  set(${addr_var} ${addr} PARENT_SCOPE)
  set(${size_var} ${size} PARENT_SCOPE)
  set(${hex_var} "${hex}" PARENT_SCOPE)
endfunction()

# ara_hex_le(HEX OFFSET LEN VAR): the little-endian word of LEN bytes at
# byte OFFSET of HEX (as from ara_section_hex), in hex digits, most
# significant first, without leading zeros ("" for zero).
function(ara_hex_le hex offset len var)
  set(v "")
  foreach(b RANGE 1 ${len})
    math(EXPR o "(${offset} + ${len} - ${b}) * 2")
    string(SUBSTRING "${hex}" ${o} 2 byte)
    string(APPEND v "${byte}")
  endforeach()
  string(REGEX REPLACE "^0+" "" v "${v}")
  set(${var} "${v}" PARENT_SCOPE)
endfunction()
