# Warnings are errors everywhere; host builds also run under ASan/UBSan.
add_compile_options(-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
                    -Wmissing-prototypes -Wformat=2 -Wvla -Wundef)

if(NOT CMAKE_CROSSCOMPILING)
  option(ARA_SANITIZE "Build host code with AddressSanitizer and UBSan" ON)
else()
  option(ARA_SANITIZE "Build host code with AddressSanitizer and UBSan" OFF)
endif()
if(ARA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# ARA_LIBFUZZER (clang, host): every fuzz target is also a libFuzzer binary
# (tests/fuzz/CMakeLists.txt). All C code is compiled with libFuzzer's
# coverage instrumentation, so that it sees the code under test in the
# libraries its targets link.
option(ARA_LIBFUZZER "Also build libFuzzer binaries of the fuzz targets (needs clang)" OFF)
if(ARA_LIBFUZZER)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang" OR CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "ARA_LIBFUZZER needs clang as the host tree's C compiler (CC=clang-14)")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link>)
endif()
