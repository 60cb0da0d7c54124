cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
# Checks that every service whose handler can reach code that uses the
# SIMD&FP registers carries ARA_SVC_SIMD (ara/service.h): the gate clears
# the vector registers only after those (libara/src/dom0/dispatch.c), so a
# missing flag would let DOM0 values (AES round keys) leave in them.
#
# Over libara.so's code: a function "reaches SIMD" if it names a SIMD/FP
# register (check-self-contained.cmake allows only the AES objects and
# ara_simd_scrub to), if it makes an indirect call or branch whose target
# is not known here (through a function pointer: it counts), or if it
# calls or branches to a function that reaches SIMD, directly or through
# the GOT, or through the core's calls to modules' functions
# (ara_service_call to the internal functions, ara_module_state to the
# forked hooks, read from their sections). Each descriptor in the
# ara_services section that the App can call is read back from the
# section's bytes (the handler's address as linked) and checked.
#
# Known limit: `blr x16` counts as ARA's system-call page by register name
# (-ffixed-x16 keeps compiled code off x16); ARA's own assembly is trusted
# to use x16 so (private_files.S also calls its task's job through x16, a
# path no service handler reaches).
#
# Inputs: LIB, OBJDUMP, READELF.
include(${CMAKE_CURRENT_LIST_DIR}/elf-dump.cmake)
ara_objdump_blocks(${LIB} ${OBJDUMP} text blocks)
# The GOT as linked: calls through it (adrp/ldr/blr) go to known functions.
ara_section_hex(${LIB} ${READELF} .got got_at got_size got_hex)
if(NOT got_at STREQUAL "")
  math(EXPR slots "${got_size} / 8 - 1")
  foreach(i RANGE ${slots})
    math(EXPR o "${i} * 8")
    ara_hex_le("${got_hex}" ${o} 8 v)
    math(EXPR slot "${got_at} + ${o}" OUTPUT_FORMAT HEXADECIMAL)
    string(REGEX REPLACE "^0x0*" "" slot "${slot}")
    set("got_${slot}" "${v}")
  endforeach()
endif()

# The descriptors, read back from their sections' bytes (addresses as
# linked). struct ara_service is 40 bytes (fid, flags, arg_size, pad, name,
# module, handler), struct ara_module 72 (name, state_size, start, ready,
# forked, takes, callers, boot_size, domain); ara/service.h static-asserts both.
ara_section_hex(${LIB} ${READELF} ara_services sec_addr sec_size hex)
if(sec_addr STREQUAL "")
  message(FATAL_ERROR "${LIB} has no ara_services section")
endif()
math(EXPR count "${sec_size} / 40")
math(EXPR whole "${count} * 40")
if(count EQUAL 0 OR NOT sec_size EQUAL whole)
  message(FATAL_ERROR "${LIB}: ara_services holds ${sec_size} bytes, not whole descriptors")
endif()
math(EXPR last "${count} - 1")
set(internal_handlers "")
foreach(i RANGE ${last})
  math(EXPR at "${i} * 40 + 4")
  ara_hex_le("${hex}" ${at} 4 flags)
  math(EXPR flags "0x0${flags}")
  math(EXPR internal "${flags} & 16")
  if(NOT internal EQUAL 0)
    math(EXPR at "${i} * 40 + 32")
    ara_hex_le("${hex}" ${at} 8 h)
    list(APPEND internal_handlers "${h}")
  endif()
endforeach()
set(forked_hooks "")
ara_section_hex(${LIB} ${READELF} ara_modules mod_addr mod_size mod_hex)
if(NOT mod_addr STREQUAL "")
  math(EXPR mods "${mod_size} / 72 - 1")
  foreach(i RANGE ${mods})
    math(EXPR at "${i} * 72 + 32")
    ara_hex_le("${mod_hex}" ${at} 8 h)
    if(NOT h STREQUAL "")
      list(APPEND forked_hooks "${h}")
    endif()
  endforeach()
endif()
# The core's two calls through a module's function pointer have known
# targets: ara_service_call calls the internal functions
# (ARA_SVC_INTERNAL), ara_module_state the forked hooks (and their
# compiler-made parts, .part.N and the like).
set(dispatcher_re "^(ara_service_call|ara_module_state)(\\..*)?$")

# Functions are keyed by address: static functions may share a name.
set(reach "")
foreach(block IN LISTS blocks)
  if(NOT block MATCHES "^([0-9a-f]+) <([^>]+)>:")
    continue()
  endif()
  set(name "${CMAKE_MATCH_2}")
  string(REGEX REPLACE "^0+" "" addr "${CMAKE_MATCH_1}")
  set("fn_at_${addr}" "${name}")
  set(callees "")
  # Loads from the GOT: the register then holds a known function.
  string(REGEX MATCHALL "\tadrp\tx[0-9]+, [0-9a-f]+ <\\.got>" pages "${block}")
  set(got_regs "")
  foreach(p IN LISTS pages)
    string(REGEX MATCH "(x[0-9]+), ([0-9a-f]+)" _ "${p}")
    set(reg "${CMAKE_MATCH_1}")
    math(EXPR page "0x${CMAKE_MATCH_2}")
    string(REGEX MATCHALL "\tldr\tx[0-9]+, \\(${reg}, #[0-9]+\\)" loads "${block}")
    foreach(l IN LISTS loads)
      string(REGEX MATCH "ldr\t(x[0-9]+), \\(x[0-9]+, #([0-9]+)\\)" _ "${l}")
      list(APPEND got_regs "${CMAKE_MATCH_1}")
      math(EXPR slot "${page} + ${CMAKE_MATCH_2}" OUTPUT_FORMAT HEXADECIMAL)
      string(REGEX REPLACE "^0x0*" "" slot "${slot}")
      if(NOT DEFINED "got_${slot}")
        message(FATAL_ERROR "${LIB}: ${name} loads a GOT slot 0x${slot} that is not in .got")
      endif()
      list(APPEND callees "${got_${slot}}")
    endforeach()
  endforeach()
  string(REGEX MATCH "${ARA_SIMD_OPERAND_RE}" simd "${block}")
  if(simd)
    list(APPEND reach "${addr}")
    set("why_${addr}" "${name} uses SIMD/FP registers")
  endif()
  # Indirect branches: through x16 (reserved, -ffixed-x16: ARA's system-call
  # page or the gate's way out) or a GOT load are known, and the core's
  # calls to modules' functions (above); any other is not.
  string(REGEX MATCHALL "\tb(l)?r\tx[0-9]+" indirect "${block}")
  if(name MATCHES "${dispatcher_re}")
    if(name MATCHES "^ara_service_call")
      list(APPEND callees ${internal_handlers})
    else()
      list(APPEND callees ${forked_hooks})
    endif()
    set(indirect "")
  endif()
  foreach(i IN LISTS indirect)
    string(REGEX MATCH "x[0-9]+" reg "${i}")
    if(NOT reg STREQUAL "x16" AND NOT reg IN_LIST got_regs AND NOT DEFINED "why_${addr}")
      list(APPEND reach "${addr}")
      set("why_${addr}" "${name} makes an indirect call (${i})")
    endif()
  endforeach()
  string(REGEX MATCHALL "\t(bl?|b\\.[a-z]+|cbn?z|tbn?z)\t[^<\n]*<[^>+]+>" calls "${block}")
  foreach(c IN LISTS calls)
    string(REGEX REPLACE ".*[ \t]0*([0-9a-f]+) <[^>]+>$" "\\1" callee "${c}")
    list(APPEND callees "${callee}")
  endforeach()
  foreach(callee IN LISTS callees)
    if(NOT callee STREQUAL addr)
      list(APPEND "callers_${callee}" "${addr}")
    endif()
  endforeach()
endforeach()

# Everything that calls into what reaches SIMD reaches it too.
set(work ${reach})
while(work)
  list(POP_FRONT work f)
  foreach(caller IN LISTS "callers_${f}")
    if(NOT DEFINED "why_${caller}")
      set("why_${caller}" "${fn_at_${caller}} calls ${why_${f}}")
      list(APPEND work "${caller}")
    endif()
  endforeach()
endwhile()

# Every service the App can call: flagged if its handler can reach SIMD.
foreach(i RANGE ${last})
  # Little-endian: fid and flags (32 bits), the handler (64 bits, as linked).
  math(EXPR at "${i} * 40")
  ara_hex_le("${hex}" ${at} 4 fid)
  math(EXPR at "${i} * 40 + 4")
  ara_hex_le("${hex}" ${at} 4 flags)
  math(EXPR at "${i} * 40 + 32")
  ara_hex_le("${hex}" ${at} 8 handler_at)
  math(EXPR fid "0x0${fid}")
  math(EXPR flags "0x0${flags}")
  set(handler "${fn_at_${handler_at}}")
  if(handler STREQUAL "")
    message(FATAL_ERROR "${LIB}: service ${fid}: its handler 0x${handler_at} starts no function")
  endif()
  math(EXPR simd_flag "${flags} & 8")
  math(EXPR internal "${flags} & 16")
  if(NOT internal EQUAL 0)
    continue() # its callers answer for it (the edges of ara_service_call)
  endif()
  if(DEFINED "why_${handler_at}" AND simd_flag EQUAL 0)
    message(FATAL_ERROR "${LIB}: the service with function ID ${fid} lacks ARA_SVC_SIMD, "
      "but its handler can leave DOM0 values in the vector registers: ${why_${handler_at}}")
  endif()
endforeach()
