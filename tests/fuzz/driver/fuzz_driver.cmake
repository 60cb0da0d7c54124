# ara_fuzz_smoke(<name> CORPUS <dir> ITERATIONS <n> SOURCES <src...> [LIBS <lib...>])
# Builds the libFuzzer target <name> (SOURCES define LLVMFuzzerTestOneInput)
# with fuzz_driver.c, and registers the ctest <name>_smoke: every seed in
# CORPUS, then ITERATIONS deterministic mutations, under the host build's
# ASan/UBSan. It passes only if the driver's closing line is printed.
include_guard(GLOBAL)

function(ara_fuzz_smoke name)
  cmake_parse_arguments(PARSE_ARGV 1 F "" "CORPUS;ITERATIONS" "SOURCES;LIBS")
  add_executable(${name} ${F_SOURCES} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/fuzz_driver.c)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  add_test(NAME ${name}_smoke COMMAND ${name} ${F_CORPUS} ${F_ITERATIONS})
  set_tests_properties(${name}_smoke PROPERTIES PASS_REGULAR_EXPRESSION
    "fuzz-driver: [1-9][0-9]* seeds, ${F_ITERATIONS} mutated inputs, no crash")
endfunction()
