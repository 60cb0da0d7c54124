/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What ara-loader needs to know from ELF files, and nothing more: that an
 * object is a 64-bit little-endian arm64 ET_DYN file, the App's PT_INTERP,
 * and where the entry object's gate sections are.
 *
 * The bytes are untrusted input (they are parsed only after their digest
 * matched the manifest, but the parser does not rely on that): every offset,
 * size and count is bounds-checked against the file before use, with
 * overflow-safe arithmetic; nothing is allocated; one header is read at a
 * time. The host must be little-endian, as arm64 Linux is.
 */
#ifndef ARA_LOADER_ELF_CHECK_H
#define ARA_LOADER_ELF_CHECK_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The entry object is linked for 4 KiB pages, and libara tags its gate
 * sections page by page. */
#define ARA_ELF_PAGE_SIZE 4096u
/* Bytes in a PT_INTERP path, with its NUL: PATH_MAX. */
#define ARA_ELF_INTERP_MAX 4096u

/* The bytes of an ELF file: in memory (tests, fuzzing) or in a file that
 * cannot change while it is read (the loader's sealed memfds). */
struct ara_elf_src {
	const uint8_t *mem; /* the file's bytes, or NULL: pread() from fd */
	int fd;
	uint64_t size;	    /* the file's size; no read goes past it */
};

/* Values are stable; ara_elf_strerror() describes each. */
enum ara_elf_err {
	ARA_ELF_OK = 0,
	ARA_ELF_E_IO = 1,	 /* pread() failed (errno set) */
	ARA_ELF_E_TRUNCATED = 2, /* a header, table or string ends past EOF */
	ARA_ELF_E_NOT_ELF = 3,	 /* no ELF magic */
	ARA_ELF_E_CLASS = 4,	 /* not ELF64, little-endian, version 1 */
	ARA_ELF_E_MACHINE = 5,	 /* not EM_AARCH64 */
	ARA_ELF_E_TYPE = 6,	 /* not ET_DYN (a PIE or shared object) */
	ARA_ELF_E_HEADER = 7,	 /* odd e_ehsize, e_phentsize or e_phnum */
	ARA_ELF_E_NO_INTERP = 8, /* no PT_INTERP */
	ARA_ELF_E_INTERP = 9,	 /* PT_INTERP repeated, not one absolute path */
	ARA_ELF_E_SECTIONS = 10, /* no section headers, or odd e_shentsize */
	ARA_ELF_E_STRTAB = 11,	 /* bad section name string table or name */
	ARA_ELF_E_GATE_MISSING = 12,
	ARA_ELF_E_GATE_DUPLICATE = 13,
	ARA_ELF_E_GATE_TYPE = 14,    /* wrong sh_type or sh_flags */
	ARA_ELF_E_GATE_ALIGN = 15,   /* sh_addr not page-aligned */
	ARA_ELF_E_GATE_SIZE = 16,    /* size zero or not a page multiple */
	ARA_ELF_E_GATE_SEGMENT = 17, /* not inside a fitting PT_LOAD */
	ARA_ELF_E_DYNAMIC = 18,	     /* malformed dynamic section or relocation table */
	ARA_ELF_E_IFUNC = 19,	     /* R_AARCH64_IRELATIVE: code before ARA's init */
	ARA_ELF_E_INITFIRST = 20,    /* DF_1_INITFIRST: constructors before ARA's */
	ARA_ELF_E_RUNPATH = 21,	     /* DT_RPATH or DT_RUNPATH: libraries from where it says */
	ARA_ELF_E_NEEDED_PATH = 22,  /* a DT_NEEDED name with a '/' */
	ARA_ELF_E_PROGRAM = 23,	     /* a PT_INTERP where a shared object belongs */
};

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
 * Reads len bytes at off. Returns ARA_ELF_OK, E_TRUNCATED if [off, off+len)
 * is not inside the file, or E_IO.
 */
/*
 * ARA_ELF_OK if none of the App's code can run before ARA's initialisation:
 * no R_AARCH64_IRELATIVE relocation (IFUNC resolvers run while ld.so
 * relocates, before any constructor: ARA_ELF_E_IFUNC) and no DF_1_INITFIRST
 * (its constructors would run before libara's: ARA_ELF_E_INITFIRST).
 */
enum ara_elf_err ara_elf_app_runs_after_ara(const struct ara_elf_src *src);

/*
 * The header and the one PT_DYNAMIC, if any (*dyn's p_type is PT_NULL if
 * none), with a size that is a whole number of at most 4096 entries.
 */
enum ara_elf_err ara_elf_dynamic(const struct ara_elf_src *src, Elf64_Ehdr *eh, Elf64_Phdr *dyn);

/* Entry i (below p_filesz / sizeof(Elf64_Dyn)) of the dynamic section dyn. */
enum ara_elf_err ara_elf_dyn(const struct ara_elf_src *src, const Elf64_Phdr *dyn, uint64_t i,
			     Elf64_Dyn *d);

/* The file offset of [vaddr, vaddr + len) inside one PT_LOAD's file bytes. */
enum ara_elf_err ara_elf_vaddr_to_offset(const struct ara_elf_src *src, const Elf64_Ehdr *eh,
					 uint64_t vaddr, uint64_t len, uint64_t *off);

/*
 * ARA_ELF_OK if the program's libraries come only from the dynamic
 * linker's default places: no DT_RPATH or DT_RUNPATH (ARA_ELF_E_RUNPATH),
 * no DT_NEEDED name with a '/' (ARA_ELF_E_NEEDED_PATH). loader/elf_libs.c.
 */
enum ara_elf_err ara_elf_libraries_from_system(const struct ara_elf_src *src);

/* *found: the file has a section called name (once or more). */
enum ara_elf_err ara_elf_has_section(const struct ara_elf_src *src, const char *name, bool *found);

enum ara_elf_err ara_elf_read(const struct ara_elf_src *src, uint64_t off,
			      void *buf, size_t len);

/* True if [off, off+len) lies inside [0, size), without overflow. */
bool ara_elf_range_ok(uint64_t off, uint64_t len, uint64_t size);

/*
 * Reads and checks the ELF header: ELF64, little-endian, EM_AARCH64, ET_DYN,
 * standard header sizes, and a program header table inside the file.
 */
enum ara_elf_err ara_elf_header(const struct ara_elf_src *src, Elf64_Ehdr *eh);

/* Reads program header i (< eh->e_phnum) of a file ara_elf_header() passed. */
enum ara_elf_err ara_elf_phdr(const struct ara_elf_src *src,
			      const Elf64_Ehdr *eh, unsigned int i,
			      Elf64_Phdr *ph);

/*
 * The App: checks the header and copies its one PT_INTERP, an absolute path
 * of at most ARA_ELF_INTERP_MAX bytes ending in its only NUL, into interp.
 */
enum ara_elf_err ara_elf_app_interp(const struct ara_elf_src *src,
				    char interp[ARA_ELF_INTERP_MAX]);

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

/* A one-line description, never NULL; a gate error's description reads
 * after the section's name. */
const char *ara_elf_strerror(enum ara_elf_err err);

#endif
