/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tagging libara.so's own pages DOM0, from its program headers.
 *
 * Every loadable page becomes DOM0 except two kinds, which ld.so reads on
 * every symbol lookup the App makes and which say nothing secret:
 *   - the segment holding the ELF header (with -z separate-code: headers,
 *     dynamic symbols and strings, hash table), checked to be neither
 *     writable nor executable;
 *   - the pages of the dynamic section, which dom0-layout.ld gives pages of
 *     their own, and which stay read-only (RELRO).
 * The rest of the RELRO range keeps the read-only protection ld.so gave it.
 * Read-only data (the segment that is neither writable nor executable, and
 * the RELRO range) is DOM1's key, not DOM0's: the service domains read it
 * (their constants, the module and service descriptors) and execute DOM0's
 * key without reading it; App code still cannot read it (its row only
 * executes DOM1's key, and only the gate's page is executable).
 */
#include <linux/elf.h>

#include "ara/gate.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"

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

static const Elf64_Phdr *find_phdr(const Elf64_Phdr *ph, unsigned int n, Elf64_Word type)
{
	for (unsigned int i = 0; i < n; i++)
		if (ph[i].p_type == type)
			return &ph[i];
	return NULL;
}

static void tag(uint64_t start, uint64_t end, int prot, int record)
{
	const enum ara_domain_id d = (prot & (PROT_WRITE | PROT_EXEC)) ? ARA_DOM0 : ARA_DOM1;

	if (record)
		ara_protect(start, end - start, prot, d);
	else
		ara_tag(start, end - start, prot, ara_domain_table[d].pkey);
}

/*
 * Tags [start, end) minus the hole [hole_start, hole_end) DOM0 with prot;
 * record: also add the pieces to the protected set.
 */
static void tag_around(uint64_t start, uint64_t end, uint64_t hole_start, uint64_t hole_end,
		       int prot, int record)
{
	uint64_t cut_start = hole_start > start ? hole_start : start;
	uint64_t cut_end = hole_end < end ? hole_end : end;

	if (cut_start >= cut_end) { /* the hole misses this range */
		tag(start, end, prot, record);
		return;
	}
	if (cut_start > start)
		tag(start, cut_start, prot, record);
	if (end > cut_end)
		tag(cut_end, end, prot, record);
}

void ara_tag_libara(void)
{
	const uint64_t base = (uint64_t)(uintptr_t)&__ehdr_start;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + __ehdr_start.e_phoff);
	const unsigned int n = __ehdr_start.e_phnum;
	const Elf64_Phdr *relro = find_phdr(ph, n, PT_GNU_RELRO);
	const Elf64_Phdr *dyn = find_phdr(ph, n, PT_DYNAMIC);
	uint64_t dyn_start, dyn_end;

	if (!dyn)
		ara_fatal("libara.so has no dynamic section", 0);
	dyn_start = page_down(base + dyn->p_vaddr);
	dyn_end = page_up(base + dyn->p_vaddr + dyn->p_memsz);

	for (unsigned int i = 0; i < n; i++) {
		uint64_t start = page_down(base + ph[i].p_vaddr);
		uint64_t end = page_up(base + ph[i].p_vaddr + ph[i].p_memsz);

		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_offset == 0) {
			if (ph[i].p_flags & (PF_W | PF_X))
				ara_fatal("libara.so's header segment is writable or executable", 0);
			/* Stays DOM2 (see above), but no App pointer or mapping call may touch it. */
			if (ara_regions_add(&ara_protected, start, end, ARA_DOM0))
				ara_fatal("too many protected regions", (long)ara_protected.n);
			continue;
		}
		tag_around(start, end, dyn_start, dyn_end, prot_of(ph[i].p_flags), 1);
	}
	if (relro) {
		uint64_t start = page_down(base + relro->p_vaddr);
		uint64_t end = page_down(base + relro->p_vaddr + relro->p_memsz);

		/* Back to read-only; the dynamic pages stay as ld.so left them. */
		if (end > start)
			tag_around(start, end, dyn_start, dyn_end, PROT_READ, 0);
	}
	/* Not DOM0-tagged, but App pointers must not reach them either. */
	if (ara_regions_add(&ara_protected, dyn_start, dyn_end, ARA_DOM0))
		ara_fatal("too many protected regions", (long)ara_protected.n);
}
