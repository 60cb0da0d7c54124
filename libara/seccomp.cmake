# ARA's seccomp policy (libara/seccomp/): ara-seccomp-gen writes it as BPF
# for arm64 with libseccomp, at build time, on the build machine, with the
# head that decides the numbers the kernel can cache (seccomp/cache_head.h);
# libara.so embeds both files and DOM0 puts its own test
# (src/seccomp_prefix.c) between them.
if(NOT CMAKE_CROSSCOMPILING)
  add_executable(ara-seccomp-gen seccomp/ara_seccomp_gen.c seccomp/cache_head.c seccomp/policy.c
    seccomp/syscall_table.c)
  target_link_libraries(ara-seccomp-gen PRIVATE PkgConfig::SECCOMP)
endif()

set(ARA_SECCOMP_GEN_TOOL "" CACHE FILEPATH
  "ara-seccomp-gen built for the build machine (<host tree>/libara/ara-seccomp-gen); required when cross-compiling")
if(ARA_SECCOMP_GEN_TOOL)
  set(_ara_seccomp_gen "${ARA_SECCOMP_GEN_TOOL}")
  set(_ara_seccomp_gen_dep "${ARA_SECCOMP_GEN_TOOL}")
elseif(NOT CMAKE_CROSSCOMPILING)
  set(_ara_seccomp_gen "$<TARGET_FILE:ara-seccomp-gen>")
  set(_ara_seccomp_gen_dep ara-seccomp-gen)
else()
  message(FATAL_ERROR "cross-compiling: ARA_SECCOMP_GEN_TOOL must name the host tree's "
    "ara-seccomp-gen (<host tree>/libara/ara-seccomp-gen); build the host tree first")
endif()

# The policy and head files, for libara.so and for the tests that run them.
set(ARA_SECCOMP_POLICY_FILE "${CMAKE_CURRENT_BINARY_DIR}/seccomp-policy.bpf" CACHE INTERNAL
  "the generated policy (also read by tests/unit/test_seccomp.c)")
set(ARA_SECCOMP_HEAD_FILE "${CMAKE_CURRENT_BINARY_DIR}/seccomp-head.bpf" CACHE INTERNAL
  "the generated head (also read by tests/unit/test_seccomp.c, tests/ara/seccomp_cache.c)")
add_custom_command(OUTPUT "${ARA_SECCOMP_POLICY_FILE}" "${ARA_SECCOMP_HEAD_FILE}"
  COMMAND "${_ara_seccomp_gen}" -o "${ARA_SECCOMP_POLICY_FILE}"
  COMMAND "${_ara_seccomp_gen}" -c "${ARA_SECCOMP_HEAD_FILE}"
  DEPENDS ${_ara_seccomp_gen_dep}
  COMMENT "Generating ARA's seccomp policy and head (BPF for arm64)"
  VERBATIM)
add_custom_target(ara_seccomp_policy DEPENDS "${ARA_SECCOMP_POLICY_FILE}" "${ARA_SECCOMP_HEAD_FILE}")
