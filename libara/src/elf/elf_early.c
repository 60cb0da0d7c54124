/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Would any of the App's code run before ARA's initialisation? Two ways it
 * could, both read from the App's dynamic section (PT_DYNAMIC):
 *   - IFUNC resolvers: ld.so runs them while it relocates the App, before
 *     any constructor. The relocation tables (DT_RELA, DT_JMPREL) must hold
 *     no R_AARCH64_IRELATIVE.
 *   - DF_1_INITFIRST: glibc runs one such object's constructors before all
 *     others, and the last one loaded wins; the App claiming it would run
 *     its constructors before libara's.
 */
#include "ara/elf.h"

#define MAX_DYN_ENTRIES 4096u
#define RELA_CHUNK 64u

enum ara_elf_err ara_elf_vaddr_to_offset(const struct ara_elf_src *src, const Elf64_Ehdr *eh,
					 uint64_t vaddr, uint64_t len, uint64_t *off)
{
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		enum ara_elf_err err = ara_elf_phdr(src, eh, i, &ph);

		if (err != ARA_ELF_OK)
			return err;
		if (ph.p_type != PT_LOAD || vaddr < ph.p_vaddr || vaddr - ph.p_vaddr > ph.p_filesz ||
		    len > ph.p_filesz - (vaddr - ph.p_vaddr))
			continue;
		*off = ph.p_offset + (vaddr - ph.p_vaddr);
		return ara_elf_range_ok(*off, len, src->size) ? ARA_ELF_OK : ARA_ELF_E_TRUNCATED;
	}
	return ARA_ELF_E_DYNAMIC;
}

static enum ara_elf_err scan_rela(const struct ara_elf_src *src, const Elf64_Ehdr *eh,
				  uint64_t vaddr, uint64_t size)
{
	Elf64_Rela r[RELA_CHUNK];
	uint64_t off = 0;
	enum ara_elf_err err;

	if (size == 0)
		return ARA_ELF_OK;
	if (size % sizeof(Elf64_Rela))
		return ARA_ELF_E_DYNAMIC;
	err = ara_elf_vaddr_to_offset(src, eh, vaddr, size, &off);
	for (uint64_t done = 0; err == ARA_ELF_OK && done < size;) {
		uint64_t n = (size - done) / sizeof(Elf64_Rela);

		if (n > RELA_CHUNK)
			n = RELA_CHUNK;
		err = ara_elf_read(src, off + done, r, (size_t)(n * sizeof(Elf64_Rela)));
		for (uint64_t i = 0; err == ARA_ELF_OK && i < n; i++)
			if (ELF64_R_TYPE(r[i].r_info) == R_AARCH64_IRELATIVE)
				return ARA_ELF_E_IFUNC;
		done += n * sizeof(Elf64_Rela);
	}
	return err;
}

enum ara_elf_err ara_elf_dynamic(const struct ara_elf_src *src, Elf64_Ehdr *eh, Elf64_Phdr *dyn)
{
	Elf64_Phdr ph;
	unsigned int count = 0;
	enum ara_elf_err err = ara_elf_header(src, eh);

	*dyn = (Elf64_Phdr){ 0 };
	for (unsigned int i = 0; err == ARA_ELF_OK && i < eh->e_phnum; i++) {
		err = ara_elf_phdr(src, eh, i, &ph);
		if (err == ARA_ELF_OK && ph.p_type == PT_DYNAMIC) {
			*dyn = ph;
			count++;
		}
	}
	if (err != ARA_ELF_OK)
		return err;
	if (count > 1 || dyn->p_filesz % sizeof(Elf64_Dyn) ||
	    dyn->p_filesz / sizeof(Elf64_Dyn) > MAX_DYN_ENTRIES)
		return ARA_ELF_E_DYNAMIC;
	return ARA_ELF_OK;
}

enum ara_elf_err ara_elf_dyn(const struct ara_elf_src *src, const Elf64_Phdr *dyn, uint64_t i,
			     Elf64_Dyn *d)
{
	return ara_elf_read(src, dyn->p_offset + i * sizeof(*d), d, sizeof(*d));
}

enum ara_elf_err ara_elf_app_runs_after_ara(const struct ara_elf_src *src)
{
	Elf64_Ehdr eh;
	Elf64_Phdr dyn;
	uint64_t rela = 0, relasz = 0, jmprel = 0, pltrelsz = 0, pltrel = DT_RELA;
	enum ara_elf_err err = ara_elf_dynamic(src, &eh, &dyn);

	if (err != ARA_ELF_OK)
		return err;
	if (dyn.p_type != PT_DYNAMIC)
		return ARA_ELF_OK; /* no dynamic section: nothing for ld.so to relocate */

	for (uint64_t i = 0; i < dyn.p_filesz / sizeof(Elf64_Dyn); i++) {
		Elf64_Dyn d;

		err = ara_elf_dyn(src, &dyn, i, &d);
		if (err != ARA_ELF_OK)
			return err;
		if (d.d_tag == DT_NULL)
			break;
		switch (d.d_tag) {
		case DT_RELA: rela = d.d_un.d_ptr; break;
		case DT_RELASZ: relasz = d.d_un.d_val; break;
		case DT_JMPREL: jmprel = d.d_un.d_ptr; break;
		case DT_PLTRELSZ: pltrelsz = d.d_un.d_val; break;
		case DT_PLTREL: pltrel = d.d_un.d_val; break;
		case DT_FLAGS_1:
			if (d.d_un.d_val & DF_1_INITFIRST)
				return ARA_ELF_E_INITFIRST;
			break;
		case DT_RELAENT:
			if (d.d_un.d_val != sizeof(Elf64_Rela))
				return ARA_ELF_E_DYNAMIC;
			break;
		case DT_REL: /* arm64 uses RELA only; a REL table is unreadable here */
			return ARA_ELF_E_DYNAMIC;
		default:
			break;
		}
	}
	if (pltrel != DT_RELA)
		return ARA_ELF_E_DYNAMIC;
	err = scan_rela(src, &eh, rela, relasz);
	if (err == ARA_ELF_OK)
		err = scan_rela(src, &eh, jmprel, pltrelsz);
	return err;
}
