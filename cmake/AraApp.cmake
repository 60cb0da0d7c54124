# ara_add_app(<target>): makes the executable <target> an ARA App.
#
#   - links it to the entry object (target ara_entry): the App gets
#     secure_call and a DT_NEEDED on its SONAME, libara-entry.so.0;
#   - after every build, writes <target file>.ara-manifest naming libara.so,
#     libara-entry.so and the App with their SHA-256 (ara-loader's default
#     manifest for that App). Hashing three files is cheap, and a manifest
#     rewritten every time is never stale, whichever of the three changed.
#
# <target> must use the keyword form of target_link_libraries().
#
# ara-manifest runs on the build machine. The host tree builds it; a cross
# tree (arm64, where libara.so exists) needs the host tree's copy in
# ARA_MANIFEST_TOOL.
include_guard(GLOBAL)

set(ARA_MANIFEST_TOOL "" CACHE FILEPATH
  "ara-manifest built for the build machine (<host tree>/loader/ara-manifest); required when cross-compiling")

function(ara_add_app target)
  foreach(dep ara ara_entry)
    if(NOT TARGET ${dep})
      message(FATAL_ERROR "ara_add_app(${target}): there is no target ${dep} "
        "(libara.so and the entry object exist only in the arm64 tree)")
    endif()
  endforeach()

  set(tool_target "")
  if(ARA_MANIFEST_TOOL)
    if(NOT EXISTS "${ARA_MANIFEST_TOOL}")
      message(FATAL_ERROR "ARA_MANIFEST_TOOL=${ARA_MANIFEST_TOOL} does not exist: build the host tree first")
    endif()
    set(tool "${ARA_MANIFEST_TOOL}")
  elseif(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "ara_add_app(${target}): cross-compiling, so ara-manifest must come from "
      "a host build: set ARA_MANIFEST_TOOL to <host tree>/loader/ara-manifest")
  else()
    set(tool "$<TARGET_FILE:ara-manifest>")
    set(tool_target ara-manifest)
  endif()

  # --no-as-needed: the DT_NEEDED stays even if the App calls nothing in
  # the entry object yet (Debian's gcc links --as-needed).
  target_link_libraries(${target} PRIVATE
    -Wl,--push-state,--no-as-needed ara_entry -Wl,--pop-state)
  add_custom_target(${target}_ara_manifest ALL
    COMMAND "${tool}"
            --libara "$<TARGET_FILE:ara>"
            --entry "$<TARGET_FILE:ara_entry>"
            --app "$<TARGET_FILE:${target}>"
            -o "$<TARGET_FILE:${target}>.ara-manifest"
    COMMENT "Writing the ARA manifest of ${target}"
    VERBATIM)
  add_dependencies(${target}_ara_manifest ${target} ara ara_entry ${tool_target})
endfunction()
