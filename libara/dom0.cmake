# libara.so, the DOM0 runtime (arm64 only).
#
# DOM0 trusts nothing the App can write, so libara.so links no libc at all
# (-nostdlib; no DT_NEEDED, no PLT, no GOT entry to another object), brings
# its own memcpy/memset, makes system calls with svc from its own text, and is
# compiled so that:
#   -mgeneral-regs-only     DOM0 never touches SIMD/FP registers: nothing of
#                           DOM0 can be left in them for the App;
#   -ffixed-x18             x18 is never used: the gate need not clear it, and
#                           Apps that use it (shadow call stacks) keep it;
#   -ffixed-x16             x16 only in ARA's own assembly (system calls through
#                           its page): check-simd-services.cmake relies on it;
#   -fno-stack-protector    the canary lives in libc's TLS, which the App owns;
#   -mno-outline-atomics    atomics inline, not libgcc helpers that ask libc
#                           (getauxval) whether LSE exists;
#   -fno-tree-loop-distribute-patterns  memcpy's loop must not become a call
#                           to memcpy;
#   -fbuiltin               after -ffreestanding (which turns builtins off):
#                           small fixed-size copies stay inline;
#   -include hidden.h       extern declarations are hidden too: no GOT.
# -z initfirst makes ld.so run libara's constructor before any other.
set(ARA_DOM0_COMPILE_OPTIONS
  -include ${CMAKE_CURRENT_SOURCE_DIR}/src/dom0/hidden.h
  -ffreestanding -fbuiltin -fvisibility=hidden -mgeneral-regs-only -ffixed-x18
  -ffixed-x16 -fno-stack-protector -mno-outline-atomics -fno-tree-loop-distribute-patterns
  -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-plt -fno-common -O2
  CACHE INTERNAL "")

# Cache (internal) so that ara_dom0_library() also works when called from
# another directory (tests/variants).
set(ARA_DOM0_DIR ${CMAKE_CURRENT_SOURCE_DIR} CACHE INTERNAL "")
set(ARA_DOM0_SOURCES
  src/boot_comm.c
  src/domains.c
  src/elf/elf_app.c
  src/elf/elf_early.c
  src/elf/elf_file.c
  src/elf/elf_libs.c
  src/file_class.c
  src/maps.c
  src/procpath.c
  src/regions.c
  src/scan.c
  src/seccomp_prefix.c
  src/seccomp_ranges.c
  src/sigframe.c
  src/heap.c
  src/hex.c
  src/interrupt.c
  src/dom0/alloc.c
  src/dom0/app_access.S
  src/dom0/boot.c
  src/dom0/clone.S
  src/dom0/clone.c
  src/dom0/code_copy.c
  src/dom0/copy.c
  src/dom0/ctor.S
  src/dom0/dispatch.c
  src/dom0/entropy.c
  src/dom0/exec.c
  src/dom0/exec_args.c
  src/dom0/exec_files.c
  src/dom0/execve.c
  src/dom0/icache.c
  src/dom0/init.c
  src/dom0/interrupted.c
  src/dom0/live.c
  src/dom0/log.c
  src/dom0/maps_walk.c
  src/dom0/open.c
  src/dom0/privilege.c
  src/dom0/private_files.S
  src/dom0/private_files.c
  src/dom0/scan_apply.c
  src/dom0/seal.c
  src/dom0/seccomp.c
  src/dom0/seccomp_policy.S
  src/dom0/self.c
  src/dom0/signal.c
  src/dom0/simd_scrub.S
  src/dom0/hwcap.c
  src/dom0/svc_page.S
  src/dom0/svc_page.c
  src/dom0/sigreturn.S
  src/dom0/string.c
  src/dom0/svc_core.c
  src/dom0/svc_syscall.c
  src/dom0/thread.c
  src/dom0/unblock.S)
list(TRANSFORM ARA_DOM0_SOURCES PREPEND ${ARA_DOM0_DIR}/)
# Service modules (services/README.md): provisioning, with the crypto it
# shares with the provisioner.
foreach(f hpke wire p256 binding dev_evidence instance session secret_services tpm_evidence)
  list(APPEND ARA_DOM0_SOURCES ${ARA_DOM0_DIR}/../services/provision/${f}.c)
endforeach()
list(APPEND ARA_DOM0_SOURCES ${ARA_DOM0_DIR}/../services/rts/chunk_format.c
  ${ARA_DOM0_DIR}/../services/rts/streams.c ${ARA_DOM0_DIR}/../services/rts/slots.c)
list(APPEND ARA_DOM0_SOURCES ${ARA_DOM0_DIR}/../services/rts/cenc_sample.c ${ARA_DOM0_DIR}/../services/rts/cenc.c)
# The RTM (docs/rtm.md): the log, its documents, the report service, the
# code modules at initialisation.
foreach(f log doc report modules)
  list(APPEND ARA_DOM0_SOURCES ${ARA_DOM0_DIR}/../services/rtm/${f}.c)
endforeach()
set(ARA_DOM0_SOURCES ${ARA_DOM0_SOURCES} CACHE INTERNAL "")

# The RTM's chain step (services/rtm/sha256_ce.c) uses the ARMv8 SHA-256
# instructions: its own object, DOM0's code generation without
# -mgeneral-regs-only. check-self-contained.cmake allows vector registers
# in its functions; the gate scrubs them after the services that seal.
set(_ara_rtm_simd_options ${ARA_DOM0_COMPILE_OPTIONS})
list(REMOVE_ITEM _ara_rtm_simd_options -mgeneral-regs-only)
add_library(ara_rtm_simd OBJECT ${ARA_DOM0_DIR}/../services/rtm/sha256_ce.c)
target_compile_options(ara_rtm_simd PRIVATE ${_ara_rtm_simd_options} -march=armv8-a+crypto -fPIC)
target_include_directories(ara_rtm_simd PRIVATE ${ARA_DOM0_DIR}/include ${ARA_DOM0_DIR}/src
  ${ARA_DOM0_DIR}/../services/rtm)
target_link_libraries(ara_rtm_simd PRIVATE ara_dom0_mbedcrypto) # its headers and configuration

# ARA's system-call page (src/dom0/svc_page.h): head.S and boot.c linked as
# one blob with nothing to relocate (region.ld), which svc_page.S embeds.
# Linked twice, at 0 and at ARA_REGION_BASE: the same bytes at both
# addresses prove the blob position-independent.
set(ARA_REGION_LINK_OPTIONS
  -nostdlib -static -Wl,-T,${CMAKE_CURRENT_SOURCE_DIR}/src/region/region.ld
  -Wl,--orphan-handling=error -Wl,--build-id=none -Wl,-z,noexecstack)
foreach(elf ara_region_elf ara_region_elf_moved)
  add_executable(${elf} src/region/head.S src/region/boot.c)
  target_include_directories(${elf} PRIVATE include src src/dom0)
  target_compile_options(${elf} PRIVATE ${ARA_DOM0_COMPILE_OPTIONS} -fPIE)
  target_link_options(${elf} PRIVATE ${ARA_REGION_LINK_OPTIONS})
  set_property(TARGET ${elf} APPEND PROPERTY LINK_DEPENDS
    ${CMAKE_CURRENT_SOURCE_DIR}/src/region/region.ld)
endforeach()
target_link_options(ara_region_elf_moved PRIVATE -Wl,--defsym=ARA_REGION_BASE=0x7f0000)
set(ARA_REGION_BIN ${CMAKE_CURRENT_BINARY_DIR}/ara_region.bin CACHE INTERNAL "")
add_custom_command(OUTPUT ${ARA_REGION_BIN}
  COMMAND ${CMAKE_OBJCOPY} -O binary -j .text $<TARGET_FILE:ara_region_elf> ${ARA_REGION_BIN}
  COMMAND ${CMAKE_OBJCOPY} -O binary -j .text $<TARGET_FILE:ara_region_elf_moved> ${ARA_REGION_BIN}.moved
  COMMAND ${CMAKE_COMMAND} -E compare_files ${ARA_REGION_BIN} ${ARA_REGION_BIN}.moved
  DEPENDS ara_region_elf ara_region_elf_moved VERBATIM)
add_custom_target(ara_region_bin DEPENDS ${ARA_REGION_BIN})

# ara_dom0_library(TARGET OUTPUT_NAME): a DOM0 runtime built from these
# sources with these flags. libara.so is one; tests/variants/ builds
# test-only variants with one protection removed each.
function(ara_dom0_library target output_name)
  # Source properties belong to the calling directory: set them here.
  set_source_files_properties(${ARA_DOM0_DIR}/src/dom0/seccomp_policy.S PROPERTIES
    COMPILE_DEFINITIONS "ARA_SECCOMP_POLICY_FILE=\"${ARA_SECCOMP_POLICY_FILE}\";ARA_SECCOMP_HEAD_FILE=\"${ARA_SECCOMP_HEAD_FILE}\""
    OBJECT_DEPENDS "${ARA_SECCOMP_POLICY_FILE};${ARA_SECCOMP_HEAD_FILE}")
  set_source_files_properties(${ARA_DOM0_DIR}/src/dom0/svc_page.S PROPERTIES
    COMPILE_DEFINITIONS "ARA_REGION_BIN=\"${ARA_REGION_BIN}\""
    OBJECT_DEPENDS "${ARA_REGION_BIN}")
  add_library(${target} SHARED ${ARA_DOM0_SOURCES} $<TARGET_OBJECTS:ara_rtm_simd>)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output_name})
  add_dependencies(${target} ara_seccomp_policy ara_region_bin)
  target_include_directories(${target} PRIVATE ${ARA_DOM0_DIR}/include ${ARA_DOM0_DIR}/src
    ${ARA_DOM0_DIR}/../services/provision
    ${ARA_DOM0_DIR}/../services/rts ${ARA_DOM0_DIR}/../services/rtm)
  target_compile_options(${target} PRIVATE ${ARA_DOM0_COMPILE_OPTIONS})
  target_link_libraries(${target} PRIVATE ara_dom0_mbedcrypto)
  target_link_options(${target} PRIVATE
    -nostdlib -Wl,--version-script=${ARA_DOM0_DIR}/libara.map -Wl,-z,initfirst -Wl,-z,now -Wl,-z,relro
    -Wl,-z,separate-code -Wl,-z,noexecstack -Wl,--no-undefined -Wl,--hash-style=gnu
    -Wl,-T,${ARA_DOM0_DIR}/dom0-layout.ld)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${ARA_DOM0_DIR}/dom0-layout.ld
    ${ARA_DOM0_DIR}/libara.map)
  # libgcc.a (compiler runtime helpers, e.g. 128-bit division) is pure code.
  target_link_libraries(${target} PRIVATE gcc)
endfunction()

ara_dom0_library(ara ara)
set_target_properties(ara PROPERTIES EXPORT_NAME libara)
add_library(ara::libara ALIAS ara)
# libara.so.<version> with the SONAME libara.so.N (N = ARA_SOVERSION) and
# the links libara.so.N and libara.so; manifests name the real file.
set_target_properties(ara PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${ARA_SOVERSION})

# Fail the build, not a test, if libara.so needs anything from outside.
add_custom_command(TARGET ara POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF} -DOBJDUMP=${CMAKE_OBJDUMP} -DNM=${CMAKE_NM}
          -DLIB=$<TARGET_FILE:ara> "-DSIMD_OBJECTS=$<TARGET_OBJECTS:ara_dom0_simd>;$<TARGET_OBJECTS:ara_rtm_simd>"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/check-self-contained.cmake
  COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF} -DOBJDUMP=${CMAKE_OBJDUMP}
          -DLIB=$<TARGET_FILE:ara> -P ${CMAKE_CURRENT_SOURCE_DIR}/check-simd-services.cmake
  VERBATIM)
