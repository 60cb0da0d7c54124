# mbedtls 3.6 LTS, compiled from the pinned Debian source that
# qemu/fetch-mbedtls.sh unpacks, into two static libraries, each with a
# complete configuration of its own (cmake/mbedtls/):
#   ara_mbedcrypto       normal Linux programs: the loader, the tools, the
#                        tests (host and arm64); ara_tools_config.h;
#   ara_dom0_mbedcrypto  DOM0 (arm64 only), without libc; ara_dom0_config.h.
# Linking either gives its users the mbedtls headers and MBEDTLS_CONFIG_FILE.
# The two define the same mbedtls_* symbols: a program links one, never both.
set(ARA_MBEDTLS_SRC "" CACHE PATH "Unpacked mbedtls source tree (qemu/fetch-mbedtls.sh prints it)")
if(NOT ARA_MBEDTLS_SRC)
  message(FATAL_ERROR "ARA_MBEDTLS_SRC is not set: run qemu/fetch-mbedtls.sh "
          "and pass -DARA_MBEDTLS_SRC=<the directory it prints> (qemu/ara.sh does both)")
endif()
# The configurations are written for 3.6's options.
set(_ara_mbedtls_version "")
if(EXISTS "${ARA_MBEDTLS_SRC}/include/mbedtls/build_info.h")
  file(STRINGS "${ARA_MBEDTLS_SRC}/include/mbedtls/build_info.h" _ara_mbedtls_version
       REGEX "^#define MBEDTLS_VERSION_STRING ")
endif()
if(NOT _ara_mbedtls_version MATCHES "\"3\\.6\\.[0-9]+\"")
  message(FATAL_ERROR "ARA_MBEDTLS_SRC=${ARA_MBEDTLS_SRC} is not an mbedtls 3.6 source tree; "
          "run qemu/fetch-mbedtls.sh and pass the directory it prints")
endif()

set(ARA_MBEDTLS_CONFIG_DIR "${CMAKE_CURRENT_LIST_DIR}/mbedtls")

# ara_mbedtls_library(TARGET CONFIG_HEADER FILE...): FILEs are library/*.c
# of mbedtls or paths of our own.
function(ara_mbedtls_library target config)
  set(sources "")
  foreach(f IN LISTS ARGN)
    if(IS_ABSOLUTE "${f}" OR f MATCHES "^\\$<")
      list(APPEND sources "${f}")
    else()
      list(APPEND sources "${ARA_MBEDTLS_SRC}/library/${f}")
    endif()
  endforeach()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC "${ARA_MBEDTLS_SRC}/include" "${ARA_MBEDTLS_CONFIG_DIR}")
  target_include_directories(${target} PRIVATE "${ARA_MBEDTLS_SRC}/library")
  target_compile_definitions(${target} PUBLIC "MBEDTLS_CONFIG_FILE=\"${config}\"")
  # Our warning set, but warnings in mbedtls's own sources do not fail the
  # build: -Werror is for the code we write, and a newer compiler's opinion
  # of the pinned third-party code must not stop ARA from building. Implicit
  # function declarations stay errors: that is how a libc call would slip
  # into the DOM0 build unseen. -Wno-undef: library/pk_internal.h compares
  # PSA key sizes that a configuration without PSA leaves undefined (0), and
  # then takes the legacy sizes, as intended. -O2: crypto also runs in the
  # emulated guest, where unoptimised code is needlessly slow.
  target_compile_options(${target} PRIVATE -Wno-error -Werror=implicit-function-declaration
                         -Wno-undef -O2)
endfunction()

# What both configurations compile (ara_mbedtls_algorithms.h).
set(_ara_mbedtls_common
  aes.c asn1parse.c asn1write.c bignum.c bignum_core.c block_cipher.c
  constant_time.c ctr_drbg.c ecdh.c ecdsa.c ecp.c ecp_curves.c entropy.c
  gcm.c hkdf.c hmac_drbg.c md.c oid.c pk.c pk_ecc.c pk_wrap.c pkparse.c
  pkwrite.c platform_util.c sha256.c)

ara_mbedtls_library(ara_mbedcrypto ara_tools_config.h ${_ara_mbedtls_common}
  aesce.c aesni.c base64.c entropy_poll.c error.c pem.c)

if(ARA_TARGET_ARM64)
  # DOM0's code generation (below), but for AES and GCM, which use the ARMv8
  # AES and polynomial-multiply instructions (aesce.c, and nothing else:
  # MBEDTLS_AES_USE_HARDWARE_ONLY) and so the vector registers: aes.c and
  # gcm.c must see __ARM_NEON to call aesce.c at all. Their own object
  # library, without -mgeneral-regs-only, whose objects go into the same
  # archive. libara clears the vector registers before DOM0 returns
  # (libara/src/dom0/simd_scrub.S), refuses a CPU without the instructions
  # (libara/src/dom0/hwcap.c), and its link check allows vector registers
  # in these objects' functions only (libara/check-self-contained.cmake).
  set(_ara_dom0_codegen -ffreestanding -fbuiltin -fPIC -fvisibility=hidden
    -ffixed-x18 -ffixed-x16 -mno-outline-atomics
    -fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables)
  list(REMOVE_ITEM _ara_mbedtls_common aes.c gcm.c)
  set(_ara_dom0_simd aes.c gcm.c aesce.c)
  list(TRANSFORM _ara_dom0_simd PREPEND "${ARA_MBEDTLS_SRC}/library/")
  add_library(ara_dom0_simd OBJECT ${_ara_dom0_simd})
  target_include_directories(ara_dom0_simd PRIVATE "${ARA_MBEDTLS_SRC}/include"
    "${ARA_MBEDTLS_CONFIG_DIR}" "${ARA_MBEDTLS_SRC}/library")
  target_compile_definitions(ara_dom0_simd PRIVATE
    "MBEDTLS_CONFIG_FILE=\"ara_dom0_config.h\"")
  target_compile_options(ara_dom0_simd PRIVATE -Wno-error
    -Werror=implicit-function-declaration -Wno-undef -O2 ${_ara_dom0_codegen})
  ara_mbedtls_library(ara_dom0_mbedcrypto ara_dom0_config.h ${_ara_mbedtls_common}
    "${ARA_MBEDTLS_CONFIG_DIR}/ara_dom0_zeroize.c" $<TARGET_OBJECTS:ara_dom0_simd>)
  # DOM0's code generation: no libc and no builtin-to-libc assumptions
  # (-ffreestanding, which implies -fno-builtin; -fbuiltin then lets GCC
  # inline memcpy/memset again: mbedtls's unaligned loads are memcpy calls),
  # position independent and not exported from libara.so, never the SIMD/FP
  # registers, never x18 and no libgcc atomics helpers (libara/dom0.cmake
  # says why), no stack protector (its canary lives in libc's TLS), no unwind
  # tables. Sanitizers are never added here: ARA_SANITIZE is for host code.
  target_compile_options(ara_dom0_mbedcrypto PRIVATE -mgeneral-regs-only ${_ara_dom0_codegen})

  # What DOM0 (libara) provides; any other undefined symbol fails the build.
  set(ARA_DOM0_MBEDTLS_ALLOWED
    memcpy memset memmove memcmp strlen strcmp
    ara_dom0_calloc ara_dom0_free mbedtls_hardware_poll)
  add_custom_command(TARGET ara_dom0_mbedcrypto POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -DNM=${CMAKE_NM} -DARCHIVE=$<TARGET_FILE:ara_dom0_mbedcrypto>
            "-DALLOWED=${ARA_DOM0_MBEDTLS_ALLOWED}"
            -P "${ARA_MBEDTLS_CONFIG_DIR}/check-dom0-archive.cmake"
    COMMENT "Checking that ara_dom0_mbedcrypto needs nothing from libc"
    VERBATIM)
endif()
