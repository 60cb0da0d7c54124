# ara_core: pure functions shared by the host tools, the loader and DOM0
# (which compiles the same sources with its own flags, see dom0.cmake),
# libc-free but for memset (heap.c) and memcpy, memcmp and strlen (the ELF
# reader, src/elf/), which DOM0 brings itself (string.c).
add_library(ara_core STATIC
  src/boot_comm.c
  src/domains.c
  src/elf/elf_app.c
  src/elf/elf_early.c
  src/elf/elf_file.c
  src/elf/elf_libs.c
  src/file_class.c
  src/heap.c
  src/hex.c
  src/interrupt.c
  src/maps.c
  src/por.c
  src/procpath.c
  src/regions.c
  src/scan.c
  src/seccomp_prefix.c
  src/seccomp_ranges.c
  src/sigframe.c
  seccomp/cache_head.c
  seccomp/policy.c)
target_include_directories(ara_core PUBLIC include)
