/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Is a file the kind of ELF object its manifest role needs? ara-manifest
 * checks before it records a file, and again with --check. These are the
 * loader's checks of what each object is; its checks of what an App may
 * do (ara_elf_app_runs_after_ara: no IFUNC resolver, no DF_1_INITFIRST)
 * stay with the loader, whose tests need manifests of such Apps.
 */
#ifndef ARA_LOADER_ELF_ROLE_H
#define ARA_LOADER_ELF_ROLE_H

#include "elf_gate.h"
#include "manifest.h"

/*
 * libara: an arm64 ELF64 shared object (ET_DYN, no PT_INTERP: a library,
 * not a program). entry: the same header and its gate sections
 * (ara_elf_gate). app: a dynamically linked arm64 position-independent
 * executable (ET_DYN with one absolute PT_INTERP: the loader execs that
 * dynamic linker with the App, and maps the App where the dynamic linker
 * chooses, so a static or ET_EXEC program is refused). On a fault about a
 * gate section, *section names it (else NULL).
 */
enum ara_elf_err ara_elf_role_check(const struct ara_elf_src *src,
				    enum ara_role role, const char **section);

#endif
