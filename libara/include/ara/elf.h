/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bounded ELF reader ara-loader and DOM0 share: that an object is a
 * 64-bit little-endian arm64 ET_DYN file, the App's PT_INTERP, and that
 * nothing of a program runs before ARA and its libraries come from the
 * system's places. libara/src/elf/ holds it; ara_core compiles it for the
 * loader and the tools, dom0.cmake again with DOM0's flags (freestanding:
 * it needs only memcpy, memcmp and strlen, which DOM0 brings), for execve's
 * checks of the programs an App starts. What only the loader reads (the
 * gate sections, files by descriptor) stays in loader/ (elf_gate.h,
 * elf_fd.h).
 *
 * The bytes are untrusted input (the loader parses them only after their
 * digest matched the manifest, but the reader does not rely on that): every
 * offset, size and count is bounds-checked against the file before use,
 * with overflow-safe arithmetic; nothing is allocated; one header is read
 * at a time. The host must be little-endian, as arm64 Linux is.
 */
#ifndef ARA_ELF_H
#define ARA_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes in a PT_INTERP path, with its NUL: PATH_MAX. */
#define ARA_ELF_INTERP_MAX 4096u

/* Values are stable; ara_elf_strerror() describes each. */
enum ara_elf_err {
	ARA_ELF_OK = 0,
	ARA_ELF_E_IO = 1,	 /* src->read failed (errno set), or no bytes */
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

struct ara_elf_src;

/* Reads len bytes at off of a file not in memory; [off, off+len) is inside
 * src->size. ARA_ELF_OK or ARA_ELF_E_IO. */
typedef enum ara_elf_err (*ara_elf_read_fn)(const struct ara_elf_src *src, uint64_t off,
					    void *buf, size_t len);

/* The bytes of an ELF file: in memory (DOM0's mapped copies, tests,
 * fuzzing) or in a file that cannot change while it is read (the loader's
 * sealed memfds, read by loader/elf_fd.c). */
struct ara_elf_src {
	const uint8_t *mem; /* the file's bytes, or NULL: read() reads them */
	uint64_t size;	    /* the file's size; no read goes past it */
	ara_elf_read_fn read; /* NULL where every file is in memory (DOM0) */
	int fd;		    /* the file read() reads */
};

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
 * no DT_NEEDED name with a '/' (ARA_ELF_E_NEEDED_PATH).
 */
enum ara_elf_err ara_elf_libraries_from_system(const struct ara_elf_src *src);

/*
 * Reads len bytes at off. Returns ARA_ELF_OK, E_TRUNCATED if [off, off+len)
 * is not inside the file, or E_IO.
 */
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

/* A one-line description, never NULL; a gate error's description reads
 * after the section's name. */
const char *ara_elf_strerror(enum ara_elf_err err);

#endif
