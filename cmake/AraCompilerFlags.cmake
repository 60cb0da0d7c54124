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
