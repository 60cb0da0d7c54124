# Not used: a service build file that puts the core on its include path.
target_include_directories(${objects} PRIVATE ${ARA_DOM0_DIR}/../libara/src)
