# The RTM's instrumentation for App authors (docs/rtm.md, "Instrumentation").
#
#   include(AraRtm)
#   ara_rtm_app(my_app main.c util.c)
#
# makes the executable my_app an ARA App (ara_add_app, cmake/AraApp.cmake)
# whose sources are compiled by clang with the RTM's pass plugin, so that
# every indirect call, indirect jump and return is logged to ARA before it
# happens, and links it with the runtime (ara_rtm_runtime). The arm64
# tree's C compiler is gcc: the sources are compiled by custom commands,
# with the target's INCLUDE_DIRECTORIES, COMPILE_DEFINITIONS and
# COMPILE_OPTIONS (target_include_directories() etc. work as usual), then
# linked by the normal toolchain. ara_rtm_sources(<target> <sources...>)
# adds instrumented sources to a target of one's own.
#
# Builds with their own Makefiles use the wrapper ARA_RTM_CC (a script in
# the build tree: clang for arm64 with the plugin and the frame pointers the
# instrumentation needs): make CC=${ARA_RTM_CC}; they link
# $<TARGET_FILE:ara_rtm_runtime>, -lpthread and libara-entry.so.
#
# The plugin runs on the build machine. The host tree builds it; a cross
# tree needs the host tree's copy in ARA_RTM_PLUGIN (by default, the one
# next to ARA_MANIFEST_TOOL's host tree).
include_guard(GLOBAL)
include(AraApp)

set(ARA_RTM_PLUGIN "" CACHE FILEPATH
  "the RTM's pass plugin built for the build machine \
(<host tree>/services/rtm/instrument/ara_rtm_pass.so); required when cross-compiling")
find_program(ARA_RTM_CLANG NAMES clang-14 DOC "clang 14, which loads the RTM's pass plugin")

# What instrumented code is compiled with: position-independent (Apps are
# PIE), and with a frame record in every function (the pass forces it too;
# leaf functions become non-leaf through their ret hook). Cached, as
# ARA_RTM_CC below, so that every directory sees them: the include guard
# is global.
set(ARA_RTM_FLAGS --target=aarch64-linux-gnu -fPIE -fno-omit-frame-pointer
  -mno-omit-leaf-frame-pointer CACHE INTERNAL "")

# ara_rtm_plugin(<out_var>): the plugin's path (a generator expression in
# the host tree), or "" when this tree has none.
function(ara_rtm_plugin out_var)
  set(plugin "${ARA_RTM_PLUGIN}")
  if(NOT plugin AND ARA_MANIFEST_TOOL)
    get_filename_component(host_tree "${ARA_MANIFEST_TOOL}" DIRECTORY)
    get_filename_component(host_tree "${host_tree}" DIRECTORY)
    set(plugin "${host_tree}/services/rtm/instrument/ara_rtm_pass.so")
  endif()
  if(plugin AND EXISTS "${plugin}")
    set(${out_var} "${plugin}" PARENT_SCOPE)
  elseif(NOT plugin AND TARGET ara_rtm_pass)
    set(${out_var} "$<TARGET_FILE:ara_rtm_pass>" PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# _ara_rtm_require(<who>): the plugin's path in ARA_RTM_PLUGIN_PATH, or a
# configure error that says what is missing.
macro(_ara_rtm_require who)
  if(NOT ARA_RTM_CLANG)
    message(FATAL_ERROR "${who}: clang-14 not found; it compiles RTM-instrumented code "
      "(Debian: clang-14, installed by qemu/host-deps.sh)")
  endif()
  ara_rtm_plugin(ARA_RTM_PLUGIN_PATH)
  if(NOT ARA_RTM_PLUGIN_PATH)
    message(FATAL_ERROR "${who}: no RTM pass plugin: set ARA_RTM_PLUGIN to "
      "<host tree>/services/rtm/instrument/ara_rtm_pass.so, and build the host tree first")
  endif()
endmacro()

# ara_rtm_sources(<target> <sources...>): adds <sources>, instrumented, to
# <target> (which may have uninstrumented sources of its own).
function(ara_rtm_sources target)
  _ara_rtm_require("ara_rtm_sources(${target})")
  # A rebuilt plugin recompiles every instrumented source.
  set(plugin_dep "${ARA_RTM_PLUGIN_PATH}")
  if(TARGET ara_rtm_pass)
    set(plugin_dep ara_rtm_pass)
  endif()

  set(prop "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(includes "$<$<BOOL:${prop}>:-I$<JOIN:${prop},$<SEMICOLON>-I>>")
  set(prop "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(defines "$<$<BOOL:${prop}>:-D$<JOIN:${prop},$<SEMICOLON>-D>>")
  set(options "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")

  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    # Sources from outside the tree (a third party's) are named by their path's tail.
    string(REGEX REPLACE "^(\\.\\./)+" "" id "${rel}")
    string(MAKE_C_IDENTIFIER "${id}" id)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/${target}.rtm/${id}.o")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${ARA_RTM_CLANG}" ${ARA_RTM_FLAGS} "-fpass-plugin=${ARA_RTM_PLUGIN_PATH}"
              -std=gnu11 -O2 -g ${includes} ${defines} ${options}
              -MD -MF "${obj}.d" -c "${abs}" -o "${obj}"
      DEPFILE "${obj}.d"
      DEPENDS "${abs}" ${plugin_dep}
      COMMENT "Compiling ${rel} for ${target} with the RTM instrumentation"
      COMMAND_EXPAND_LISTS VERBATIM)
    target_sources(${target} PRIVATE "${obj}")
  endforeach()
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  # Full RELRO: the runtime reaches ara_rtm_append and secure_call through
  # the GOT, which must be read-only before the App runs, or a data-only write could silence
  # the log (ara-verify --app refuses an App linked otherwise).
  target_link_options(${target} PRIVATE -Wl,-z,relro,-z,now)
endfunction()

# ara_rtm_app(<target> <sources...>)
function(ara_rtm_app target)
  if(NOT TARGET ara_rtm_runtime)
    message(FATAL_ERROR "ara_rtm_app(${target}): there is no target ara_rtm_runtime "
      "(the RTM runtime exists only in the arm64 tree)")
  endif()
  add_executable(${target})
  ara_rtm_sources(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE ara_rtm_runtime)
  ara_add_app(${target})
endfunction()

# ARA_RTM_CC: the compiler wrapper for third-party builds, in trees that
# have a plugin (written at generate time: the host tree's path is a
# generator expression).
ara_rtm_plugin(_ara_rtm_plugin)
if(_ara_rtm_plugin AND ARA_RTM_CLANG)
  set(ARA_RTM_CC "${CMAKE_BINARY_DIR}/ara-rtm-cc" CACHE INTERNAL "")
  list(JOIN ARA_RTM_FLAGS " " _ara_rtm_flags)
  file(GENERATE OUTPUT "${ARA_RTM_CC}"
    CONTENT "#!/bin/sh
# Written by cmake/AraRtm.cmake: clang with the RTM's pass plugin (docs/rtm.md).
exec '${ARA_RTM_CLANG}' ${_ara_rtm_flags} '-fpass-plugin=${_ara_rtm_plugin}' \"$@\"
"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                     WORLD_READ WORLD_EXECUTE)
else()
  unset(ARA_RTM_CC CACHE)
endif()
