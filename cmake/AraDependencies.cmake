# The user's named dependencies: mbedtls, libseccomp, capstone, cmocka. For a
# cross build the toolchain file points pkg-config and find_library at the
# arm64 multiarch packages (libfoo-dev:arm64).
find_package(PkgConfig REQUIRED)

# pkg_check_modules(... REQUIRED) fails without naming the Debian package, so
# wrap it: the message says what to install.
function(ara_require_pkg var module debian_pkg)
  pkg_check_modules(${var} IMPORTED_TARGET ${module})
  if(NOT ${var}_FOUND)
    message(FATAL_ERROR "${module} not found: install ${debian_pkg} (qemu/host-deps.sh does)")
  endif()
endfunction()

if(CMAKE_CROSSCOMPILING)
  set(_ara_arch ":arm64")
else()
  set(_ara_arch "")
endif()
ara_require_pkg(SECCOMP libseccomp "libseccomp-dev${_ara_arch}")
ara_require_pkg(CAPSTONE capstone "libcapstone-dev${_ara_arch}")
ara_require_pkg(CMOCKA cmocka "libcmocka-dev${_ara_arch}")

# Debian's mbedtls 2.28 ships no pkg-config file.
find_path(MBEDTLS_INCLUDE_DIR mbedtls/sha256.h)
find_library(MBEDCRYPTO_LIBRARY mbedcrypto)
if(NOT MBEDTLS_INCLUDE_DIR OR NOT MBEDCRYPTO_LIBRARY)
  message(FATAL_ERROR "mbedtls not found: install libmbedtls-dev${_ara_arch} (qemu/host-deps.sh does)")
endif()
add_library(ara::mbedcrypto UNKNOWN IMPORTED)
set_target_properties(ara::mbedcrypto PROPERTIES
  IMPORTED_LOCATION "${MBEDCRYPTO_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${MBEDTLS_INCLUDE_DIR}")
