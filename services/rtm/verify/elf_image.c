/* SPDX-License-Identifier: Apache-2.0 */
/* Bounded parsing of an AArch64 ELF file in memory (elf_image.h). */
#include "elf_image.h"

#include <string.h>

#include "ara/bytes.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "ELF structures are copied in host byte order");

#ifndef SHT_RELR
#define SHT_RELR 19 /* packed relative relocations (glibc >= 2.36 names it) */
#endif

/* True if [off, off + len) lies inside [0, size), without overflow. */
static int in_file(const struct ara_rtm_elf *elf, uint64_t off, uint64_t len)
{
	return off <= elf->size && len <= elf->size - off;
}

enum ara_rtm_elf_err ara_rtm_elf_open(struct ara_rtm_elf *elf, const uint8_t *mem, size_t size)
{
	Elf64_Ehdr *eh = &elf->eh;

	elf->mem = mem;
	elf->size = size;
	elf->nloads = 0;
	if (size < sizeof(*eh) || memcmp(mem, ELFMAG, SELFMAG) != 0)
		return ARA_RTM_ELF_E_NOT_ELF;
	memcpy(eh, mem, sizeof(*eh));
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return ARA_RTM_ELF_E_CLASS;
	if (eh->e_machine != EM_AARCH64)
		return ARA_RTM_ELF_E_MACHINE;
	if (eh->e_type != ET_DYN && eh->e_type != ET_EXEC)
		return ARA_RTM_ELF_E_TYPE;
	/* PN_XNUM would move the count into section 0: no linker needs it here. */
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 || eh->e_phnum == PN_XNUM ||
	    !in_file(elf, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
		return ARA_RTM_ELF_E_PHDRS;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, mem + eh->e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		if (elf->nloads == ARA_RTM_ELF_LOADS_MAX || !in_file(elf, ph.p_offset, ph.p_filesz) ||
		    ph.p_filesz > ph.p_memsz || ph.p_vaddr > UINT64_MAX - ph.p_memsz)
			return ARA_RTM_ELF_E_LOAD;
		elf->loads[elf->nloads++] = ph;
	}
	/* Symbols and relocations are found through sections: they must be there. */
	if (eh->e_shoff == 0 || eh->e_shnum == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(elf, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
		return ARA_RTM_ELF_E_SECTIONS;
	return ARA_RTM_ELF_OK;
}

const Elf64_Phdr *ara_rtm_elf_load_of_offset(const struct ara_rtm_elf *elf, uint64_t off)
{
	for (unsigned int i = 0; i < elf->nloads; i++) {
		const Elf64_Phdr *ph = &elf->loads[i];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_filesz)
			return ph;
	}
	return NULL;
}

const Elf64_Phdr *ara_rtm_elf_exec_load_of_vaddr(const struct ara_rtm_elf *elf, uint64_t vaddr)
{
	for (unsigned int i = 0; i < elf->nloads; i++) {
		const Elf64_Phdr *ph = &elf->loads[i];

		if ((ph->p_flags & PF_X) && vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_memsz)
			return ph;
	}
	return NULL;
}

int ara_rtm_elf_full_relro(const struct ara_rtm_elf *elf)
{
	int relro = 0, now = 0;

	for (unsigned int i = 0; i < elf->eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, elf->mem + elf->eh.e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_GNU_RELRO)
			relro = 1;
		if (ph.p_type != PT_DYNAMIC || !in_file(elf, ph.p_offset, ph.p_filesz))
			continue;
		for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= ph.p_filesz; off += sizeof(Elf64_Dyn)) {
			Elf64_Dyn d;

			memcpy(&d, elf->mem + ph.p_offset + off, sizeof(d));
			if (d.d_tag == DT_NULL)
				break;
			if ((d.d_tag == DT_FLAGS && (d.d_un.d_val & DF_BIND_NOW)) ||
			    (d.d_tag == DT_FLAGS_1 && (d.d_un.d_val & DF_1_NOW)) || d.d_tag == DT_BIND_NOW)
				now = 1;
		}
	}
	return relro && now;
}

static void section(const struct ara_rtm_elf *elf, unsigned int i, Elf64_Shdr *sh)
{
	memcpy(sh, elf->mem + elf->eh.e_shoff + (uint64_t)i * sizeof(*sh), sizeof(*sh));
}

/* A table section: its bytes are in the file and hold whole entries of entsize. */
static int table_ok(const struct ara_rtm_elf *elf, const Elf64_Shdr *sh, uint64_t entsize)
{
	return sh->sh_entsize == entsize && sh->sh_size % entsize == 0 &&
	       in_file(elf, sh->sh_offset, sh->sh_size);
}

enum ara_rtm_elf_err ara_rtm_elf_symbols(const struct ara_rtm_elf *elf,
					 int (*fn)(void *ctx, const struct ara_rtm_elf_sym *sym),
					 void *ctx)
{
	for (unsigned int i = 0; i < elf->eh.e_shnum; i++) {
		Elf64_Shdr sh, str;

		section(elf, i, &sh);
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		if (!table_ok(elf, &sh, sizeof(Elf64_Sym)) || sh.sh_link >= elf->eh.e_shnum)
			return ARA_RTM_ELF_E_SYMTAB;
		section(elf, sh.sh_link, &str);
		if (str.sh_type != SHT_STRTAB || !in_file(elf, str.sh_offset, str.sh_size))
			return ARA_RTM_ELF_E_SYMTAB;
		for (uint64_t off = 0; off < sh.sh_size; off += sizeof(Elf64_Sym)) {
			Elf64_Sym s;
			struct ara_rtm_elf_sym out;
			const char *strings = (const char *)elf->mem + str.sh_offset;

			memcpy(&s, elf->mem + sh.sh_offset + off, sizeof(s));
			/* The name must end inside its string table. */
			if (s.st_name >= str.sh_size ||
			    memchr(strings + s.st_name, 0, str.sh_size - s.st_name) == NULL)
				return ARA_RTM_ELF_E_SYMTAB;
			out = (struct ara_rtm_elf_sym){ .value = s.st_value, .size = s.st_size,
							.type = ELF64_ST_TYPE(s.st_info),
							.shndx = s.st_shndx, .name = strings + s.st_name };
			if (fn(ctx, &out))
				return ARA_RTM_ELF_OK;
		}
	}
	return ARA_RTM_ELF_OK;
}

/* The word at vaddr in the file's bytes of a PT_LOAD; 0 past them (as loaded). */
static uint64_t word_at(const struct ara_rtm_elf *elf, uint64_t vaddr)
{
	for (unsigned int i = 0; i < elf->nloads; i++) {
		const Elf64_Phdr *ph = &elf->loads[i];

		if (vaddr >= ph->p_vaddr && ph->p_filesz >= 8 && vaddr - ph->p_vaddr <= ph->p_filesz - 8)
			return ara_get_le64(elf->mem + ph->p_offset + (vaddr - ph->p_vaddr));
	}
	return 0;
}

/*
 * SHT_RELR (the ELF gABI's packed format): an even word is the address of
 * a relocated place and sets the base just after it; an odd word is a
 * bitmap whose bit k (1..63) relocates base + (k - 1) * 8, after which the
 * base moves on by 63 words.
 */
static int relr(const struct ara_rtm_elf *elf, const Elf64_Shdr *sh,
		int (*fn)(void *ctx, uint64_t target), void *ctx)
{
	uint64_t base = 0;

	for (uint64_t off = 0; off < sh->sh_size; off += 8) {
		uint64_t w = ara_get_le64(elf->mem + sh->sh_offset + off);

		if ((w & 1) == 0) {
			if (fn(ctx, word_at(elf, w)))
				return 1;
			base = w + 8;
			continue;
		}
		for (unsigned int k = 1; k < 64; k++)
			if (((w >> k) & 1) && fn(ctx, word_at(elf, base + (uint64_t)(k - 1) * 8)))
				return 1;
		base += 63 * 8;
	}
	return 0;
}

enum ara_rtm_elf_err ara_rtm_elf_relative(const struct ara_rtm_elf *elf,
					  int (*fn)(void *ctx, uint64_t target), void *ctx)
{
	for (unsigned int i = 0; i < elf->eh.e_shnum; i++) {
		Elf64_Shdr sh;

		section(elf, i, &sh);
		if (sh.sh_type == SHT_RELR) {
			if (!table_ok(elf, &sh, 8))
				return ARA_RTM_ELF_E_RELOC;
			if (relr(elf, &sh, fn, ctx))
				return ARA_RTM_ELF_OK;
			continue;
		}
		if (sh.sh_type != SHT_RELA)
			continue;
		if (!table_ok(elf, &sh, sizeof(Elf64_Rela)))
			return ARA_RTM_ELF_E_RELOC;
		for (uint64_t off = 0; off < sh.sh_size; off += sizeof(Elf64_Rela)) {
			Elf64_Rela r;

			memcpy(&r, elf->mem + sh.sh_offset + off, sizeof(r));
			if (ELF64_R_TYPE(r.r_info) == R_AARCH64_RELATIVE &&
			    fn(ctx, (uint64_t)r.r_addend))
				return ARA_RTM_ELF_OK;
		}
	}
	return ARA_RTM_ELF_OK;
}

const char *ara_rtm_elf_strerror(enum ara_rtm_elf_err err)
{
	switch (err) {
	case ARA_RTM_ELF_OK:
		return "no error";
	case ARA_RTM_ELF_E_NOT_ELF:
		return "not an ELF file";
	case ARA_RTM_ELF_E_CLASS:
		return "not a 64-bit little-endian ELF file of version 1";
	case ARA_RTM_ELF_E_MACHINE:
		return "not an arm64 (EM_AARCH64) file";
	case ARA_RTM_ELF_E_TYPE:
		return "neither an executable nor a shared object (ET_EXEC, ET_DYN)";
	case ARA_RTM_ELF_E_PHDRS:
		return "malformed program header table";
	case ARA_RTM_ELF_E_LOAD:
		return "a loadable segment lies past the end of the file, or is malformed";
	case ARA_RTM_ELF_E_SECTIONS:
		return "no section headers, or a malformed section header table";
	case ARA_RTM_ELF_E_SYMTAB:
		return "a symbol table, its string table or a symbol name is out of bounds";
	case ARA_RTM_ELF_E_RELOC:
		return "a relocation table is out of bounds or misshapen";
	}
	return "unknown ELF error";
}
