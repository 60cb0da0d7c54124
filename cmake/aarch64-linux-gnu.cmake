# Toolchain file: Debian's cross gcc (gcc-aarch64-linux-gnu) with the arm64
# multiarch libraries (libfoo-dev:arm64) installed in /usr/lib/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(ARA_CROSS_TRIPLE aarch64-linux-gnu)
find_program(CMAKE_C_COMPILER ${ARA_CROSS_TRIPLE}-gcc REQUIRED)
find_program(CMAKE_ASM_COMPILER ${ARA_CROSS_TRIPLE}-gcc REQUIRED)
# For C++ Apps (g++-aarch64-linux-gnu); ARA itself is C.
find_program(CMAKE_CXX_COMPILER ${ARA_CROSS_TRIPLE}-g++)

# Search headers and libraries only in the arm64 multiarch locations, and
# programs only on the host.
set(CMAKE_LIBRARY_ARCHITECTURE ${ARA_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_FIND_ROOT_PATH /usr/${ARA_CROSS_TRIPLE} /)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${ARA_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
