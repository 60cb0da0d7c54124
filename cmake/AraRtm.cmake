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
  if(NOT TARGET ara_rtm_runtime)
    message(FATAL_ERROR "ara_rtm_app(${target}): there is no target ara_rtm_runtime "
      "(the RTM runtime exists only in the arm64 tree)")
  endif()
  add_executable(${target})
  ara_rtm_sources(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE ara_rtm_runtime)
  ara_add_app(${target})
endfunction()

# The RTM case study (docs/rtm.md, "The case study"): one program in three
# configurations from one source list,
#
#   ara_rtm_study_program(<prog> LANG C|CXX SOURCES <sources...>
#     [DEFINITIONS <defs...>] [OPTIONS <opts...>] [INCLUDES <dirs...>]
#     [LIBS <libs...>] RUN <args...> [QUICK_RUN <args...>]
#     [STDIN <file>] [CHECK <file>] [QUICK_CHECK <file>])
#
#   <prog>_plain  the same clang, flags and sources without the pass plugin
#   <prog>_rtm    instrumented, with the ARA log (ara_rtm_runtime)
#   <prog>_ipc    instrumented, each transfer handed to a logger process
#                 over a Unix socket (ara_rtm_ipc_runtime, tests/rtm/study)
#
# all three ARA Apps (the study runs each under ara-loader). The program is
# registered in ${PROJECT_BINARY_DIR}/tests/rtm/study/programs.tsv, which
# tests/rtm/study/rtm_study.sh runs: RUN is the workload's arguments (no
# argument may hold a space or a tab), STDIN a file for its standard input,
# CHECK a file its standard output must equal; QUICK_RUN and QUICK_CHECK
# the smaller workload of --quick (default: RUN and CHECK).
function(ara_rtm_study_program prog)
  cmake_parse_arguments(PARSE_ARGV 1 S "" "LANG;STDIN;CHECK;QUICK_CHECK"
    "SOURCES;DEFINITIONS;OPTIONS;INCLUDES;LIBS;RUN;QUICK_RUN")
  set(who "ara_rtm_study_program(${prog})")
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${who}: unknown arguments ${S_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT S_SOURCES)
    message(FATAL_ERROR "${who}: no SOURCES")
  endif()
  if(NOT "RUN" IN_LIST S_KEYWORDS_MISSING_VALUES AND NOT DEFINED S_RUN)
    message(FATAL_ERROR "${who}: no RUN (the workload's arguments; RUN alone for none)")
  endif()
  foreach(dep ara_rtm_runtime ara_rtm_ipc_runtime)
    if(NOT TARGET ${dep})
      message(FATAL_ERROR "${who}: there is no target ${dep} (the arm64 tree has it; "
        "tests/rtm/study must be added before the programs)")
    endif()
  endforeach()
  if(S_LANG STREQUAL "C")
    set(libs "")
  elseif(S_LANG STREQUAL "CXX")
    # Linked by the tree's gcc (as C): libstdc++ by name, the static one
    # (the guest has no libstdc++.so.6).
    set(libs -l:libstdc++.a)
  else()
    message(FATAL_ERROR "${who}: LANG must be C or CXX, not \"${S_LANG}\"")
  endif()
  _ara_rtm_require("${who}")

  foreach(config plain rtm ipc)
    set(t ${prog}_${config})
    add_executable(${t})
    target_include_directories(${t} PRIVATE ${S_INCLUDES})
    target_compile_definitions(${t} PRIVATE ${S_DEFINITIONS})
    target_compile_options(${t} PRIVATE ${S_OPTIONS})
    if(config STREQUAL "plain")
      _ara_rtm_compile(${t} "" ${S_SOURCES})
    elseif(config STREQUAL "rtm")
      ara_rtm_sources(${t} ${S_SOURCES})
    else()
      # <prog>_rtm's instrumented objects (the same compilation): compiled once.
      get_target_property(objects ${prog}_rtm SOURCES)
      target_sources(${t} PRIVATE ${objects})
      set_target_properties(${t} PROPERTIES LINKER_LANGUAGE C)
      target_link_options(${t} PRIVATE -Wl,-z,relro,-z,now)
    endif()
    if(config STREQUAL "rtm")
      target_link_libraries(${t} PRIVATE ara_rtm_runtime)
    elseif(config STREQUAL "ipc")
      target_link_libraries(${t} PRIVATE ara_rtm_ipc_runtime)
    endif()
    target_link_libraries(${t} PRIVATE ${libs} ${S_LIBS})
    ara_add_app(${t})
  endforeach()

  foreach(v STDIN CHECK QUICK_CHECK)
    if(S_${v})
      get_filename_component(S_${v} "${S_${v}}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
  endforeach()
  if(NOT DEFINED S_QUICK_RUN AND NOT "QUICK_RUN" IN_LIST S_KEYWORDS_MISSING_VALUES)
    set(S_QUICK_RUN "${S_RUN}")
    if(NOT S_QUICK_CHECK)
      set(S_QUICK_CHECK "${S_CHECK}")
    endif()
  endif()
  set(line "${prog}")
  foreach(config plain rtm ipc)
    string(APPEND line "\t$<TARGET_FILE:${prog}_${config}>")
  endforeach()
  foreach(field RUN STDIN CHECK QUICK_RUN QUICK_CHECK)
    set(value "${S_${field}}")
    if(field MATCHES "RUN$")
      string(FIND "${value}" " " space)
      string(FIND "${value}" "\t" tab)
      if(NOT space EQUAL -1 OR NOT tab EQUAL -1)
        message(FATAL_ERROR "${who}: an argument of ${field} holds a space or a tab")
      endif()
      list(JOIN value " " value)
    elseif(NOT value)
      set(value "-")
    endif()
    string(APPEND line "\t${value}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY ARA_RTM_STUDY_PROGRAMS "${line}")
  # programs.tsv is written once every directory has registered its programs.
  get_property(deferred GLOBAL PROPERTY ARA_RTM_STUDY_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY ARA_RTM_STUDY_DEFERRED TRUE)
    cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL _ara_rtm_study_write)
  endif()
endfunction()

# The study's list (ara_rtm_study_program): one line a program, tab-separated:
# name, plain, rtm, ipc, run arguments, stdin file, expected output, quick
# run arguments, quick expected output ("-" for no file).
function(_ara_rtm_study_write)
  get_property(lines GLOBAL PROPERTY ARA_RTM_STUDY_PROGRAMS)
  list(JOIN lines "\n" content)
  file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/tests/rtm/study/programs.tsv"
    CONTENT "${content}\n")
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
# Written by cmake/AraRtm.cmake: clang with the RTM's pass plugin (docs/rtm.md,
# docs/man/ara-rtm-cc.1). Every argument is clang's, but for --help or
# --version alone; clang's version follows ours, for builds that identify
# the compiler by it.
if [ $# -eq 1 ] && [ \"$1\" = --help ]; then
	echo 'usage: ara-rtm-cc [CLANG-ARGUMENTS...]'
	echo 'Run clang for arm64 with the RTM pass plugin and the flags its'
	echo 'instrumentation needs; every argument goes to clang (clang --help).'
	echo
	echo '  --help     alone: print this help and exit 0'
	echo '  --version  alone: print the version, then clang'\\''s'
	echo
	echo 'Exit status: that of clang.'
	exit 0
fi
if [ $# -eq 1 ] && [ \"$1\" = --version ]; then
	echo 'ara-rtm-cc (ara) ${PROJECT_VERSION}'
	exec '${ARA_RTM_CLANG}' --version
fi
exec '${ARA_RTM_CLANG}' ${_ara_rtm_flags} '-fpass-plugin=${_ara_rtm_plugin}' \"$@\"
"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                     WORLD_READ WORLD_EXECUTE)
else()
  unset(ARA_RTM_CC CACHE)
endif()
