# The user's named dependencies from Debian's packages: libseccomp, capstone,
# cmocka (mbedtls is built from source: AraMbedtls.cmake). For a cross build
# the toolchain file points pkg-config at the arm64 multiarch packages
# (libfoo-dev:arm64).
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
# EAT Attestation Results' JSON (services/ear): jansson.
ara_require_pkg(JANSSON jansson "libjansson-dev${_ara_arch}")
