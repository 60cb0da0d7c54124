/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parts of an AArch64 ELF file (ET_DYN or ET_EXEC) that ara-verify
 * derives valid targets from: loadable segments, symbol tables and
 * relative relocations. The file is untrusted input held in memory: every
 * offset, size and count is checked against it with overflow-safe
 * arithmetic before use, and structures are copied out (no unaligned
 * access). The host must be little-endian.
 */
#ifndef ARA_RTM_ELF_IMAGE_H
#define ARA_RTM_ELF_IMAGE_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* More PT_LOADs than any linker writes; a file with more is refused. */
#define ARA_RTM_ELF_LOADS_MAX 32u

enum ara_rtm_elf_err {
	ARA_RTM_ELF_OK = 0,
	ARA_RTM_ELF_E_NOT_ELF,	/* no ELF magic, or shorter than its header */
	ARA_RTM_ELF_E_CLASS,	/* not ELF64, little-endian, version 1 */
	ARA_RTM_ELF_E_MACHINE,	/* not EM_AARCH64 */
	ARA_RTM_ELF_E_TYPE,	/* neither ET_DYN nor ET_EXEC */
	ARA_RTM_ELF_E_PHDRS,	/* bad program header size, count or place */
	ARA_RTM_ELF_E_LOAD,	/* a PT_LOAD past the file, filesz > memsz, or too many */
	ARA_RTM_ELF_E_SECTIONS, /* no section headers, or a bad table */
	ARA_RTM_ELF_E_SYMTAB,	/* a symbol table, its strings or a name out of bounds */
	ARA_RTM_ELF_E_RELOC,	/* a relocation table out of bounds or misshapen */
};

struct ara_rtm_elf {
	const uint8_t *mem;
	size_t size;
	Elf64_Ehdr eh;
	Elf64_Phdr loads[ARA_RTM_ELF_LOADS_MAX];
	unsigned int nloads;
};

/* Checks the header, the program headers and the section header table. */
enum ara_rtm_elf_err ara_rtm_elf_open(struct ara_rtm_elf *elf, const uint8_t *mem, size_t size);

/* The PT_LOAD whose file bytes hold file offset off, or NULL. */
const Elf64_Phdr *ara_rtm_elf_load_of_offset(const struct ara_rtm_elf *elf, uint64_t off);

/* The executable PT_LOAD whose memory image holds vaddr, or NULL. */
const Elf64_Phdr *ara_rtm_elf_exec_load_of_vaddr(const struct ara_rtm_elf *elf, uint64_t vaddr);

/* A symbol of a SHT_SYMTAB or SHT_DYNSYM table; name is NUL-terminated inside the file. */
struct ara_rtm_elf_sym {
	uint64_t value, size;
	unsigned char type; /* ELF64_ST_TYPE */
	uint16_t shndx;
	const char *name;
};

/* Calls fn for every symbol of every symbol table; stops at the first nonzero return. */
enum ara_rtm_elf_err ara_rtm_elf_symbols(const struct ara_rtm_elf *elf,
					 int (*fn)(void *ctx, const struct ara_rtm_elf_sym *sym),
					 void *ctx);

/*
 * Calls fn with the address every R_AARCH64_RELATIVE relocation stores:
 * the addend of each in SHT_RELA sections, and for SHT_RELR (packed)
 * sections the word in the file at each relocated place (its implicit
 * addend; a place outside the file's bytes is skipped: it holds zero).
 */
enum ara_rtm_elf_err ara_rtm_elf_relative(const struct ara_rtm_elf *elf,
					  int (*fn)(void *ctx, uint64_t target), void *ctx);

/*
 * 1 if the file is linked with full RELRO: a PT_GNU_RELRO segment, and every
 * symbol bound at load (DF_BIND_NOW, DF_1_NOW or DT_BIND_NOW), so that its
 * GOT is read-only before its code runs; else 0.
 */
int ara_rtm_elf_full_relro(const struct ara_rtm_elf *elf);

const char *ara_rtm_elf_strerror(enum ara_rtm_elf_err err);

#endif
