/* SPDX-License-Identifier: Apache-2.0 */
/* The steps of ARA's initialisation (init.c), one file each. */
#ifndef ARA_DOM0_INIT_H
#define ARA_DOM0_INIT_H

#include <stdint.h>

#include "ara/domains.h"

/* init.c: called by ctor.S, from ldso_pc; returns the gate's way out. */
uint64_t ara_init(char **envp, uint64_t ldso_pc);

/* protect.c: pkey_mprotect, fatal on error; ara_protect also records the range. */
void ara_tag(uint64_t start, uint64_t len, int prot, unsigned int pkey);
void ara_protect(uint64_t start, uint64_t len, int prot, enum ara_domain_id domain);

/* self.c: tags libara.so's own segments (all but the ELF header's) DOM0, read-only data DOM1. */
void ara_tag_libara(void);

/* maps_walk.c: load base of the entry object (its memfd at offset 0). */
uint64_t ara_entry_base(void);

/* seccomp.c: installs the filter; the system-call page (svc_page.h) passes it. */
void ara_seccomp_install(void);

/*
 * exec_files.c: keeps what execve passes on (libara, the entry object and
 * the dynamic linker mapped at ldso_pc, copied into read-only DOM0 memory).
 * Before the filter, and before the scan replaces ld.so's mapping.
 */
void ara_execve_init(uint64_t ldso_pc);

/*
 * seal.c: mseal(2)s every range of ara_protected but the one starting at
 * unsealed_start. After the last change DOM0 makes to them.
 */
void ara_seal_ranges(uint64_t unsealed_start);

/* privilege.c: drops the capabilities that reach beyond the process. */
void ara_drop_privilege(void);

/* scan_apply.c: neutralises POR_EL0 writes in every DOM2 executable page. */
void ara_scan_dom2(void);

#endif
