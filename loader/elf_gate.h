/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What only ara-loader reads of ELF files, on the shared reader (ara/elf.h):
 * where the entry object's gate sections are, and whether an object has a
 * section (the test variants' marker).
 */
#ifndef ARA_LOADER_ELF_GATE_H
#define ARA_LOADER_ELF_GATE_H

#include <stdbool.h>
#include <stdint.h>

#include "ara/elf.h"

/* The entry object is linked for 4 KiB pages, and libara tags its gate
 * sections page by page. */
#define ARA_ELF_PAGE_SIZE 4096u

/* A gate section as linked: vaddr is relative to the load base. */
struct ara_elf_section {
	uint64_t vaddr;
	uint64_t size;
	uint64_t offset; /* of its bytes in the file; 0 if nobits */
	bool nobits;	 /* SHT_NOBITS: no bytes in the file */
};

struct ara_elf_gate {
	struct ara_elf_section text; /* ARA_GATE_TEXT_SECTION */
	struct ara_elf_section data; /* ARA_GATE_DATA_SECTION */
};

/*
 * The entry object: checks the header and finds the two gate sections by
 * name, once each. Gate text must be PROGBITS, alloc+exec, not writable;
 * gate data PROGBITS or NOBITS, alloc+write, not exec. Each must start on a
 * page, span whole pages (at least one), and lie inside a PT_LOAD whose
 * flags match (text: X and not W; data: W and not X) at the matching file
 * offset, so its file bytes are exactly what is mapped at its address.
 * On a fault about one section, *section names it (else it is NULL).
 */
enum ara_elf_err ara_elf_gate(const struct ara_elf_src *src,
			      struct ara_elf_gate *gate, const char **section);

/* *found: the file has a section called name (once or more). */
enum ara_elf_err ara_elf_has_section(const struct ara_elf_src *src, const char *name, bool *found);

#endif
