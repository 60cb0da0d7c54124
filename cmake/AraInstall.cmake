# What `cmake --install` puts where (docs/sdk.md, which has the layout).
#   arm64 tree: the device side: libara.so, libara-entry.so, the App-side
#               libraries, the public headers (include/ara), the CMake
#               package (find_package(ara)), the pkg-config files, and the
#               tools built for arm64 (ara-loader among them);
#   host tree:  the tools for the build machine (not the device's
#               ara-loader and ara-tpm-quote), ara-rtm-cc and the RTM's
#               pass plugin.
# Both: the man pages (docs/man) and bash completions (docs/completion).
# tests/sdk/installed-*.txt list what each installs; tests/sdk/check-install.sh
# checks it.
include(CMakePackageConfigHelpers)

# The tools of both machines (the provisioner and the packager run on servers).
install(TARGETS ara-manifest ara-policy ara-verify ara-provision ara-seal-chunks
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The provisioning service under systemd (docs/provisioning.md, "Running the
# service"): its units (which name /usr/bin/ara-provision, a package's
# path), its user, and the configuration they expect, as an example.
set(_ara_units ${PROJECT_SOURCE_DIR}/services/provision/server/systemd)
install(FILES ${_ara_units}/ara-provision.service ${_ara_units}/ara-provision.socket
  DESTINATION lib/systemd/system)
install(FILES ${_ara_units}/ara-provision.sysusers DESTINATION lib/sysusers.d
  RENAME ara-provision.conf)
install(FILES ${_ara_units}/ara-provision.conf DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ara/examples)

if(ARA_TARGET_ARM64)
  # The device's own tools: the loader, and the TPM's quote for the tpm backend.
  install(TARGETS ara-tpm-quote RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(ARA_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ara)
  install(TARGETS ara ara_entry ara_client ara_rtm_runtime ara-loader EXPORT ara_targets
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ara DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ara_targets NAMESPACE ara:: FILE araTargets.cmake
    DESTINATION ${ARA_CMAKE_INSTALL_DIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sdk/araConfig.cmake.in
    ${PROJECT_BINARY_DIR}/sdk/araConfig.cmake INSTALL_DESTINATION ${ARA_CMAKE_INSTALL_DIR}
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
  # 0.x: a new minor version may break the API.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/sdk/araConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/sdk/araConfig.cmake
    ${PROJECT_BINARY_DIR}/sdk/araConfigVersion.cmake
    ${PROJECT_SOURCE_DIR}/cmake/AraApp.cmake ${PROJECT_SOURCE_DIR}/cmake/AraRtm.cmake
    ${PROJECT_SOURCE_DIR}/cmake/ara-rtm-cc.in
    ${PROJECT_SOURCE_DIR}/cmake/aarch64-linux-gnu.cmake
    DESTINATION ${ARA_CMAKE_INSTALL_DIR})

  # pkg-config files, relocatable: the prefix is found from the file's place.
  file(RELATIVE_PATH ARA_PC_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" ARA_PC_PREFIX "${ARA_PC_PREFIX}")
  foreach(pc ara ara-client ara-rtm-runtime)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/sdk/${pc}.pc.in ${PROJECT_BINARY_DIR}/sdk/${pc}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/sdk/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endforeach()
endif()

if(TARGET ara_rtm_pass)
  include(AraRtm) # ara_rtm_cc_script()
  install(TARGETS ara_rtm_pass LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/ara)
  # The installed wrapper finds the plugin from its own place, and clang-14 on PATH.
  file(RELATIVE_PATH plugin_dir "/prefix/${CMAKE_INSTALL_BINDIR}"
    "/prefix/${CMAKE_INSTALL_LIBDIR}/ara")
  ara_rtm_cc_script(${PROJECT_BINARY_DIR}/sdk/ara-rtm-cc clang-14
    "$here/${plugin_dir}/ara_rtm_pass.so")
  install(PROGRAMS ${PROJECT_BINARY_DIR}/sdk/ara-rtm-cc DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# Whatever man pages and completions docs/ holds: man pages by their section.
file(GLOB _ara_man_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/*.[1-8])
foreach(page IN LISTS _ara_man_pages)
  string(REGEX MATCH "[1-8]$" section "${page}")
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
file(GLOB _ara_completions CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/completion/*)
install(FILES ${_ara_completions} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
