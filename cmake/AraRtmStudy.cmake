# The RTM case study's programs (tests/rtm): ARA's own tests, not installed.
include_guard(GLOBAL)
include(AraRtm)

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
