# The RTM's instrumentation for App authors (docs/rtm.md, "Instrumentation").
#
#   include(AraRtm)            (ARA's tree; find_package(ara) includes it)
#   ara_rtm_app(my_app main.c util.c)
#
# makes the executable my_app an ARA App (ara_add_app, AraApp.cmake) whose
# sources are compiled by clang with the RTM's pass plugin, so that every
# indirect call, indirect jump and return is logged to ARA before it
# happens, and links it with the runtime (ara::rtm_runtime). The arm64
# C compiler is gcc: the sources are compiled by custom commands,
# with the target's INCLUDE_DIRECTORIES, COMPILE_DEFINITIONS and
# COMPILE_OPTIONS (target_include_directories() etc. work as usual), then
# linked by the normal toolchain. ara_rtm_sources(<target> <sources...>)
# adds instrumented sources to a target of one's own.
#
# Builds with their own Makefiles use the wrapper ARA_RTM_CC (a script in
# the build tree: clang for arm64 with the plugin and the frame pointers the
# instrumentation needs), or the installed ara-rtm-cc: make CC=${ARA_RTM_CC};
# they link libara-rtm-runtime.a (pkg-config ara-rtm-runtime, docs/sdk.md).
#
# The plugin runs on the build machine. ARA_RTM_PLUGIN names it; unset, it
# is the one that comes with ARA_MANIFEST_TOOL (the host tree's, or the
# host tools' install: <prefix>/lib*/ara/ara_rtm_pass.so), or, in a native
# host tree, the tree's own.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/AraApp.cmake)

set(ARA_RTM_PLUGIN "" CACHE FILEPATH
  "the RTM's pass plugin built for the build machine \
(<host tree>/services/rtm/instrument/ara_rtm_pass.so, or <host tools>/lib/ara/ara_rtm_pass.so)")
find_program(ARA_RTM_CLANG NAMES clang-14 DOC "clang 14, which loads the RTM's pass plugin")
find_program(ARA_RTM_CLANGXX NAMES clang++-14 DOC "clang++ 14, for instrumented C++ sources")

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
  set(tool "${ARA_MANIFEST_TOOL}")
  if(NOT tool)
    set(tool "${ARA_MANIFEST_TOOL_FOUND}") # AraApp.cmake found it (installed SDK)
  endif()
  if(NOT plugin AND tool)
    get_filename_component(top "${tool}" DIRECTORY)
    get_filename_component(top "${top}" DIRECTORY)
    # A host tree's, or an installed one's (any libdir).
    file(GLOB plugin "${top}/services/rtm/instrument/ara_rtm_pass.so"
      "${top}/lib*/ara/ara_rtm_pass.so" "${top}/lib/*/ara/ara_rtm_pass.so")
    if(plugin)
      list(GET plugin 0 plugin)
    endif()
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
      "the host tools' lib/ara/ara_rtm_pass.so (docs/sdk.md), or, in ARA's tree, to "
      "<host tree>/services/rtm/instrument/ara_rtm_pass.so, and build the host tree first")
  endif()
endmacro()

# _ara_rtm_compile(<target> <plugin or ""> <sources...>): adds <sources>,
# compiled by clang (clang++ for C++ sources) with ARA_RTM_FLAGS and the
# target's include directories, definitions and options, to <target>: with
# the pass plugin when one is given, without for a study's plain baseline.
function(_ara_rtm_compile target plugin)
  if(plugin)
    set(pass "-fpass-plugin=${plugin}")
    set(what "with the RTM instrumentation")
    # A rebuilt plugin recompiles every instrumented source.
    set(plugin_dep "${plugin}")
    if(TARGET ara_rtm_pass)
      set(plugin_dep ara_rtm_pass)
    endif()
  else()
    set(pass "")
    set(what "without instrumentation")
    set(plugin_dep "")
  endif()

  set(prop "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(includes "$<$<BOOL:${prop}>:-I$<JOIN:${prop},$<SEMICOLON>-I>>")
  set(prop "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(defines "$<$<BOOL:${prop}>:-D$<JOIN:${prop},$<SEMICOLON>-D>>")
  set(options "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")
  # Ninja makes an output's folder, Makefiles do not.
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${target}.rtm")

  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    # Sources from outside the tree (a third party's) are named by their path's tail.
    string(REGEX REPLACE "^(\\.\\./)+" "" id "${rel}")
    string(MAKE_C_IDENTIFIER "${id}" id)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/${target}.rtm/${id}.o")
    # C++ by its extension; the target's COMPILE_OPTIONS come after the
    # standard, so a -std there wins.
    if(abs MATCHES "\\.(cc|cpp|cxx|C|c\\+\\+)$")
      if(NOT ARA_RTM_CLANGXX)
        message(FATAL_ERROR "${target}: clang++-14 not found; it compiles the C++ source ${rel}")
      endif()
      set(compiler "${ARA_RTM_CLANGXX}")
      set(std -std=gnu++17)
    else()
      set(compiler "${ARA_RTM_CLANG}")
      set(std -std=gnu11)
    endif()
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${compiler}" ${ARA_RTM_FLAGS} ${pass}
              ${std} -O2 -g ${includes} ${defines} ${options}
              -MD -MF "${obj}.d" -c "${abs}" -o "${obj}"
      DEPFILE "${obj}.d"
      DEPENDS "${abs}" ${plugin_dep}
      COMMENT "Compiling ${rel} for ${target} ${what}"
      COMMAND_EXPAND_LISTS VERBATIM)
    target_sources(${target} PRIVATE "${obj}")
  endforeach()
  get_target_property(lang ${target} LINKER_LANGUAGE)
  if(NOT lang)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  endif()
endfunction()

# ara_rtm_sources(<target> <sources...>): adds <sources>, instrumented, to
# <target> (which may have uninstrumented sources of its own). C++ sources
# (.cc, .cpp, .cxx) are compiled by clang++-14 as gnu++17 unless the
# target's options say otherwise.
function(ara_rtm_sources target)
  _ara_rtm_require("ara_rtm_sources(${target})")
  _ara_rtm_compile(${target} "${ARA_RTM_PLUGIN_PATH}" ${ARGN})
  # Full RELRO: the runtime reaches ara_rtm_append and secure_call through
  # the GOT, which must be read-only before the App runs, or a data-only write could silence
  # the log (ara-verify --app refuses an App linked otherwise).
  target_link_options(${target} PRIVATE -Wl,-z,relro,-z,now)
endfunction()

# ara_rtm_app(<target> <sources...>)
function(ara_rtm_app target)
  if(NOT TARGET ara::rtm_runtime)
    message(FATAL_ERROR "ara_rtm_app(${target}): there is no target ara::rtm_runtime: "
      "find_package(ara) first (in ARA's tree: the arm64 tree has it)")
  endif()
  add_executable(${target})
  ara_rtm_sources(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE ara::rtm_runtime)
  ara_add_app(${target})
endfunction()

# ara_rtm_cc_script(<file> <clang> <plugin>): writes the wrapper
# ara-rtm-cc (cmake/ara-rtm-cc.in) that runs <clang> with ARA_RTM_FLAGS and
# <plugin> (a generator expression, or a path from the script's folder
# $here), at generate time.
function(ara_rtm_cc_script file clang plugin)
  list(JOIN ARA_RTM_FLAGS " " ARA_RTM_CC_FLAGS)
  set(ARA_RTM_CC_CLANG "${clang}")
  set(ARA_RTM_CC_PLUGIN "${plugin}")
  # PROJECT_VERSION in ARA's tree, ara_VERSION in an installed package.
  if(ara_VERSION)
    set(ARA_RTM_CC_VERSION "${ara_VERSION}")
  else()
    set(ARA_RTM_CC_VERSION "${PROJECT_VERSION}")
  endif()
  configure_file("${_ARA_RTM_DIR}/ara-rtm-cc.in" "${file}.in" @ONLY)
  file(GENERATE OUTPUT "${file}" INPUT "${file}.in"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                     WORLD_READ WORLD_EXECUTE)
endfunction()
set(_ARA_RTM_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "") # the include guard is global

# ARA_RTM_CC: the wrapper in this build tree, in trees that have a plugin
# (the host tree's path is a generator expression).
ara_rtm_plugin(_ara_rtm_plugin)
if(_ara_rtm_plugin AND ARA_RTM_CLANG)
  set(ARA_RTM_CC "${CMAKE_BINARY_DIR}/ara-rtm-cc" CACHE INTERNAL "")
  ara_rtm_cc_script("${ARA_RTM_CC}" "${ARA_RTM_CLANG}" "${_ara_rtm_plugin}")
else()
  unset(ARA_RTM_CC CACHE)
endif()
