/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tagging libara.so's own pages DOM0, from its program headers.
 *
 * Every loadable segment becomes DOM0 except the one holding the ELF header:
 * with -z separate-code that segment holds only headers and the dynamic
 * symbol tables, which ld.so reads on every symbol lookup in the App and
 * which say nothing secret. It is checked to be neither writable nor
 * executable. The RELRO range keeps the read-only protection ld.so gave it.
 */
#include <linux/elf.h>
#include <linux/mman.h>

#include "ara/gate.h"
#include "dom0.h"
#include "init.h"

/* Linker-defined: the ELF header of this object, as mapped. */
extern const Elf64_Ehdr __ehdr_start __attribute__((visibility("hidden")));

static uint64_t page_down(uint64_t a)
{
	return a & ~(uint64_t)(ARA_PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return page_down(a + ARA_PAGE_SIZE - 1);
}

static int prot_of(Elf64_Word flags)
{
	return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
	       ((flags & PF_X) ? PROT_EXEC : 0);
}

void ara_tag_libara(void)
{
	const uint64_t base = (uint64_t)(uintptr_t)&__ehdr_start;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + __ehdr_start.e_phoff);
	const Elf64_Phdr *relro = NULL;

	for (unsigned int i = 0; i < __ehdr_start.e_phnum; i++) {
		uint64_t start = page_down(base + ph[i].p_vaddr);
		uint64_t end = page_up(base + ph[i].p_vaddr + ph[i].p_memsz);

		if (ph[i].p_type == PT_GNU_RELRO)
			relro = &ph[i];
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_offset == 0) {
			if (ph[i].p_flags & (PF_W | PF_X))
				ara_fatal("libara.so's header segment is writable or executable", 0);
			continue; /* stays DOM2: see above */
		}
		ara_protect(start, end - start, prot_of(ph[i].p_flags), ARA_DOM0);
	}
	if (relro) {
		uint64_t start = page_down(base + relro->p_vaddr);
		uint64_t end = page_down(base + relro->p_vaddr + relro->p_memsz);

		if (end > start)
			ara_tag(start, end - start, PROT_READ, ARA_PKEY_DOM0);
	}
}
