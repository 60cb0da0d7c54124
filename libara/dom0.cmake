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
  src/dom0/app_signals.c
  src/dom0/app_access.S
  src/dom0/boot.c
  src/dom0/clone.S
  src/dom0/clone.c
  src/dom0/code_copy.c
  src/dom0/code_map.c
  src/dom0/copy.c
  src/dom0/ctor.S
  # Right after ctor.S: ara_protected (state.c) lies just above ctor.S's
  # ara_init_stack, where tests/ara/attack_kernel.c's signal_frame_dom0 has
  # the kernel write a frame when ARA's signal stacks are missing.
  src/dom0/state.c
  src/dom0/deliver.c
  src/dom0/dispatch.c
  src/dom0/domain.c
  src/dom0/domain.S
  src/dom0/entropy.c
  src/dom0/exec_args.c
  src/dom0/exec_files.c
  src/dom0/handover.c
  src/dom0/execve.c
  src/dom0/icache.c
  src/dom0/init.c
  src/dom0/interrupted.c
  src/dom0/live.c
  src/dom0/log.c
  src/dom0/maps_walk.c
  src/dom0/modules.c
  src/dom0/open.c
  src/dom0/privilege.c
  src/dom0/protect.c
  src/dom0/private_files.S
  src/dom0/private_files.c
  src/dom0/scan_apply.c
  src/dom0/seal.c
  src/dom0/seccomp.c
  src/dom0/seccomp_policy.S
  src/dom0/self.c
  src/dom0/simd_scrub.S
  src/dom0/hwcap.c
  src/dom0/svc_page.S
  src/dom0/svc_page.c
  src/dom0/sigreturn.S
  src/dom0/string.c
  src/dom0/svc_core.c
  src/dom0/svc_syscall.c
  src/dom0/thread.c
  src/dom0/trap.c
  src/dom0/unblock.S)
list(TRANSFORM ARA_DOM0_SOURCES PREPEND ${ARA_DOM0_DIR}/)
set(ARA_DOM0_SOURCES ${ARA_DOM0_SOURCES} CACHE INTERNAL "")

# The service modules libara.so holds: services/dom0.cmake's one list
# (ARA_DOM0_SERVICES), each folder's own dom0.cmake naming its sources.
include(${ARA_DOM0_DIR}/../services/dom0.cmake)

# ara_dom0_service(NAME DOMAIN domain [USES service...] SOURCES file... [SIMD file...]),
# called by services/NAME/dom0.cmake within ara_dom0_library (target: the
# DOM0 runtime being built): the module's DOM0 sources as objects of
# target, compiled as DOM0 (the same options, and target's definitions, so
# a test variant's reach its services too), seeing only ARA's public
# headers (libara/include, include), its own folder, the folders of the
# services it USES, and mbedtls; never libara/src
# (cmake/check-service-includes.cmake checks the sources). SIMD sources
# (functions that use the vector registers) are compiled once, without
# -mgeneral-regs-only; check-self-contained.cmake allows vector registers
# only in them, and check-simd-services.cmake makes their callers scrub.
# DOMAIN is the protection domain the module runs in (ara/domains.h):
# core (the core's own, DOM0), provision, rts, rtm, or extra (shared by
# further modules); its sources get ARA_MODULE_DOMAIN, which ARA_MODULE
# puts in the module's descriptor.
function(ara_dom0_service name)
  cmake_parse_arguments(PARSE_ARGV 1 svc "" "DOMAIN" "USES;SOURCES;SIMD")
  set(domains core ARA_DOM0 provision ARA_DOM_PROVISION rts ARA_DOM_RTS rtm ARA_DOM_RTM
    extra ARA_DOM_EXTRA)
  list(FIND domains "${svc_DOMAIN}" at)
  math(EXPR odd "${at} % 2")
  if(at LESS 0 OR odd)
    message(FATAL_ERROR "service ${name}: DOMAIN must be one of core, provision, rts, rtm, extra")
  endif()
  math(EXPR at "${at} + 1")
  list(GET domains ${at} domain)
  set(dir ${ARA_DOM0_DIR}/../services/${name})
  set(includes ${ARA_DOM0_DIR}/include ${ARA_DOM0_DIR}/../include ${dir})
  foreach(u IN LISTS svc_USES)
    list(APPEND includes ${ARA_DOM0_DIR}/../services/${u})
  endforeach()
  list(TRANSFORM svc_SOURCES PREPEND ${dir}/)
  set(objects ${target}_svc_${name})
  add_library(${objects} OBJECT ${svc_SOURCES})
  set_target_properties(${objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${objects} PRIVATE ${includes})
  target_compile_options(${objects} PRIVATE ${ARA_DOM0_COMPILE_OPTIONS})
  target_compile_definitions(${objects} PRIVATE $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>
    ARA_MODULE_DOMAIN=${domain})
  target_link_libraries(${objects} PRIVATE ara_dom0_mbedcrypto) # its headers and configuration
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:${objects}>)
  if(NOT domain STREQUAL "ARA_DOM0")
    set_property(TARGET ${target} APPEND PROPERTY ARA_DOMAIN_OBJECTS $<TARGET_OBJECTS:${objects}>)
  endif()
  if(svc_SIMD)
    set(simd ara_dom0_svc_${name}_simd)
    if(NOT TARGET ${simd})
      list(TRANSFORM svc_SIMD PREPEND ${dir}/)
      set(options ${ARA_DOM0_COMPILE_OPTIONS})
      list(REMOVE_ITEM options -mgeneral-regs-only)
      add_library(${simd} OBJECT ${svc_SIMD})
      set_target_properties(${simd} PROPERTIES POSITION_INDEPENDENT_CODE ON)
      target_compile_options(${simd} PRIVATE ${options} -march=armv8-a+crypto)
      target_include_directories(${simd} PRIVATE ${includes})
      target_link_libraries(${simd} PRIVATE ara_dom0_mbedcrypto)
    endif()
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${simd}>)
    set_property(TARGET ${target} APPEND PROPERTY ARA_DOM0_SIMD_OBJECTS $<TARGET_OBJECTS:${simd}>)
    if(NOT domain STREQUAL "ARA_DOM0")
      set_property(TARGET ${target} APPEND PROPERTY ARA_DOMAIN_OBJECTS $<TARGET_OBJECTS:${simd}>)
    endif()
  endif()
endfunction()

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
  add_library(${target} SHARED ${ARA_DOM0_SOURCES})
  foreach(service IN LISTS ARA_DOM0_SERVICES)
    include(${ARA_DOM0_DIR}/../services/${service}/dom0.cmake)
  endforeach()
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output_name})
  add_dependencies(${target} ara_seccomp_policy ara_region_bin)
  target_include_directories(${target} PRIVATE ${ARA_DOM0_DIR}/include ${ARA_DOM0_DIR}/src)
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
get_target_property(_ara_services_simd ara ARA_DOM0_SIMD_OBJECTS)
get_target_property(_ara_domain_objects ara ARA_DOMAIN_OBJECTS)
add_custom_command(TARGET ara POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF} -DOBJDUMP=${CMAKE_OBJDUMP} -DNM=${CMAKE_NM}
          -DLIB=$<TARGET_FILE:ara> "-DSIMD_OBJECTS=$<TARGET_OBJECTS:ara_dom0_simd>;${_ara_services_simd}"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/check-self-contained.cmake
  COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF} -DOBJDUMP=${CMAKE_OBJDUMP}
          -DLIB=$<TARGET_FILE:ara> -P ${CMAKE_CURRENT_SOURCE_DIR}/check-simd-services.cmake
  COMMAND ${CMAKE_COMMAND} -DREADELF=${CMAKE_READELF} "-DOBJECTS=${_ara_domain_objects}"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/check-domain-data.cmake
  VERBATIM)
