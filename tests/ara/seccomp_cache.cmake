# Included by tests/ara/CMakeLists.txt: what the kernel caches of ARA's
# filter (/proc/<pid>/seccomp_cache, CONFIG_SECCOMP_CACHE_DEBUG: the TPM
# guest's kernel only, hence the label) against the generated head.
ara_test_app(cache_app cache_app.c)
add_executable(seccomp_cache seccomp_cache.c check.c ${PROJECT_SOURCE_DIR}/tests/unit/bpf_interp.c)
target_include_directories(seccomp_cache PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit)
add_dependencies(seccomp_cache ara_seccomp_policy)
add_test(NAME ara_seccomp_cache COMMAND seccomp_cache $<TARGET_FILE:ara-loader>
  $<TARGET_FILE:cache_app> "${ARA_SECCOMP_HEAD_FILE}")
set_tests_properties(ara_seccomp_cache PROPERTIES LABELS tpm TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "FAIL|BREACH|ARA-DOM0-CANARY")
