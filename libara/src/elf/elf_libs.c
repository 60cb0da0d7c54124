/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Does a program take its libraries only from where the dynamic linker
 * looks by default (its cache and the system directories)? libara's
 * execve (libara/src/dom0/execve.c) starts programs an App chose, and the
 * IFUNC resolvers of their libraries run before ARA's initialisation: a
 * DT_RPATH or DT_RUNPATH, or a DT_NEEDED name with a '/', would let the
 * App choose those libraries too.
 */
#include "ara/elf.h"

#define NAME_CHUNK 64u

/* ARA_ELF_E_NEEDED_PATH if the NUL-terminated name at off (< size) holds a '/'. */
static enum ara_elf_err check_name(const struct ara_elf_src *src, uint64_t off, uint64_t end)
{
	char chunk[NAME_CHUNK];

	while (off < end) {
		uint64_t n = end - off < NAME_CHUNK ? end - off : NAME_CHUNK;
		enum ara_elf_err err = ara_elf_read(src, off, chunk, (size_t)n);

		if (err != ARA_ELF_OK)
			return err;
		for (uint64_t i = 0; i < n; i++) {
			if (chunk[i] == '\0')
				return ARA_ELF_OK;
			if (chunk[i] == '/')
				return ARA_ELF_E_NEEDED_PATH;
		}
		off += n;
	}
	return ARA_ELF_E_DYNAMIC; /* runs off the string table */
}

enum ara_elf_err ara_elf_libraries_from_system(const struct ara_elf_src *src)
{
	Elf64_Ehdr eh;
	Elf64_Phdr dyn;
	uint64_t strtab = 0, strsz = 0, strtab_off = 0, needed = 0;
	enum ara_elf_err err = ara_elf_dynamic(src, &eh, &dyn);

	if (err != ARA_ELF_OK || dyn.p_type != PT_DYNAMIC)
		return err;
	/* Two passes: DT_STRTAB may come after the DT_NEEDED entries. */
	for (uint64_t i = 0; i < dyn.p_filesz / sizeof(Elf64_Dyn); i++) {
		Elf64_Dyn d;

		err = ara_elf_dyn(src, &dyn, i, &d);
		if (err != ARA_ELF_OK)
			return err;
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_RPATH || d.d_tag == DT_RUNPATH)
			return ARA_ELF_E_RUNPATH;
		if (d.d_tag == DT_STRTAB)
			strtab = d.d_un.d_ptr;
		if (d.d_tag == DT_STRSZ)
			strsz = d.d_un.d_val;
		needed += d.d_tag == DT_NEEDED;
	}
	if (needed == 0)
		return ARA_ELF_OK;
	err = ara_elf_vaddr_to_offset(src, &eh, strtab, strsz, &strtab_off);
	for (uint64_t i = 0; err == ARA_ELF_OK && i < dyn.p_filesz / sizeof(Elf64_Dyn); i++) {
		Elf64_Dyn d;

		err = ara_elf_dyn(src, &dyn, i, &d);
		if (err != ARA_ELF_OK || d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED)
			continue;
		if (d.d_un.d_val >= strsz)
			return ARA_ELF_E_DYNAMIC;
		err = check_name(src, strtab_off + d.d_un.d_val, strtab_off + strsz);
	}
	return err;
}
