# ara_add_app(<target>): makes the executable <target> an ARA App.
#
#   - links it to the entry object (ara::entry): the App gets secure_call
#     and a DT_NEEDED on libara-entry.so;
#   - after every build, writes <target file>.ara-manifest naming libara.so
#     (ara::libara), libara-entry.so and the App with their SHA-256
#     (ara-loader's default manifest for that App). Hashing three files is
#     cheap, and a manifest rewritten every time is never stale, whichever
#     of the three changed.
#
# <target> must use the keyword form of target_link_libraries().
#
# The same file serves ARA's arm64 tree and, installed, any project that
# finds the SDK (find_package(ara), docs/sdk.md): both have the targets
# ara::libara and ara::entry.
#
# ara-manifest runs on the build machine: ARA_MANIFEST_TOOL names it;
# unset, a native build of ARA's tree uses its own, and any other build
# looks for ara-manifest on PATH (the host tools' install), checking that
# it runs here (a cross SDK's bin/ holds the arm64 one).
include_guard(GLOBAL)

set(ARA_MANIFEST_TOOL "" CACHE FILEPATH
  "ara-manifest for the build machine (the host tools' bin/ara-manifest, or <host tree>/loader/ara-manifest)")

# Installed (ARA_SDK is the prefix, araConfig.cmake): look on PATH and in
# the system's folders, not in the SDK's prefix.
if(ARA_SDK AND NOT ARA_MANIFEST_TOOL)
  find_program(ARA_MANIFEST_TOOL_FOUND ara-manifest NO_PACKAGE_ROOT_PATH NO_CMAKE_PATH
    NO_CMAKE_ENVIRONMENT_PATH NO_CMAKE_INSTALL_PREFIX
    DOC "ara-manifest found on PATH (ARA_MANIFEST_TOOL overrides it)")
endif()

# _ara_manifest_tool(<who>): the tool's path (maybe a generator
# expression) in _ara_tool and the target to build first in _ara_tool_target.
macro(_ara_manifest_tool who)
  set(_ara_tool_target "")
  if(ARA_MANIFEST_TOOL)
    if(NOT EXISTS "${ARA_MANIFEST_TOOL}")
      message(FATAL_ERROR "ARA_MANIFEST_TOOL=${ARA_MANIFEST_TOOL} does not exist "
        "(in ARA's tree: build the host tree first)")
    endif()
    set(_ara_tool "${ARA_MANIFEST_TOOL}")
  elseif(TARGET ara-manifest AND NOT CMAKE_CROSSCOMPILING)
    set(_ara_tool "$<TARGET_FILE:ara-manifest>")
    set(_ara_tool_target ara-manifest)
  else()
    if(NOT ARA_MANIFEST_TOOL_FOUND)
      message(FATAL_ERROR "${who}: no ara-manifest for the build machine: set ARA_MANIFEST_TOOL "
        "to the host tools' bin/ara-manifest (docs/sdk.md), or put it on PATH")
    endif()
    set(_ara_tool "${ARA_MANIFEST_TOOL_FOUND}")
  endif()
  # Runs here? Checked once for each path.
  if(NOT _ara_tool_target AND NOT _ARA_MANIFEST_TOOL_RUNS STREQUAL _ara_tool)
    execute_process(COMMAND "${_ara_tool}" --version RESULT_VARIABLE _ara_rc
      OUTPUT_QUIET ERROR_VARIABLE _ara_err)
    if(NOT _ara_rc EQUAL 0)
      message(FATAL_ERROR "${who}: ${_ara_tool} does not run on this machine (${_ara_rc}: "
        "${_ara_err}): set ARA_MANIFEST_TOOL to the build machine's ara-manifest (docs/sdk.md)")
    endif()
    set(_ARA_MANIFEST_TOOL_RUNS "${_ara_tool}" CACHE INTERNAL "")
  endif()
endmacro()

function(ara_add_app target)
  foreach(dep ara::libara ara::entry)
    if(NOT TARGET ${dep})
      message(FATAL_ERROR "ara_add_app(${target}): there is no target ${dep}: "
        "find_package(ara) first (in ARA's tree: the arm64 tree has it)")
    endif()
  endforeach()
  _ara_manifest_tool("ara_add_app(${target})")

  # --no-as-needed: the DT_NEEDED stays even if the App calls nothing in
  # the entry object yet (Debian's gcc links --as-needed).
  target_link_libraries(${target} PRIVATE
    -Wl,--push-state,--no-as-needed ara::entry -Wl,--pop-state)
  add_custom_target(${target}_ara_manifest ALL
    COMMAND "${_ara_tool}"
            --libara "$<TARGET_FILE:ara::libara>"
            --entry "$<TARGET_FILE:ara::entry>"
            --app "$<TARGET_FILE:${target}>"
            -o "$<TARGET_FILE:${target}>.ara-manifest"
    COMMENT "Writing the ARA manifest of ${target}"
    VERBATIM)
  add_dependencies(${target}_ara_manifest ${target} ${_ara_tool_target})
  # In ARA's tree the two libraries are built too (ALIAS targets).
  foreach(dep ara::libara ara::entry)
    get_target_property(built ${dep} ALIASED_TARGET)
    if(built)
      add_dependencies(${target}_ara_manifest ${built})
    endif()
  endforeach()
endfunction()
