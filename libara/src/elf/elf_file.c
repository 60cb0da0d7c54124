/* SPDX-License-Identifier: Apache-2.0 */
/* Bounded reads and the ELF header; shared by every check. */
#include "ara/elf.h"

#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "ELF structures are read in host byte order");

bool ara_elf_range_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

enum ara_elf_err ara_elf_read(const struct ara_elf_src *src, uint64_t off,
			      void *buf, size_t len)
{
	if (!ara_elf_range_ok(off, len, src->size))
		return ARA_ELF_E_TRUNCATED;
	if (src->mem != NULL) {
		memcpy(buf, src->mem + off, len);
		return ARA_ELF_OK;
	}
	return src->read != NULL ? src->read(src, off, buf, len) : ARA_ELF_E_IO;
}

enum ara_elf_err ara_elf_header(const struct ara_elf_src *src, Elf64_Ehdr *eh)
{
	unsigned char magic[SELFMAG];
	enum ara_elf_err err = ara_elf_read(src, 0, magic, sizeof(magic));

	if (err == ARA_ELF_E_TRUNCATED ||
	    (err == ARA_ELF_OK && memcmp(magic, ELFMAG, SELFMAG) != 0))
		return ARA_ELF_E_NOT_ELF;
	if (err == ARA_ELF_OK)
		err = ara_elf_read(src, 0, eh, sizeof(*eh));
	if (err != ARA_ELF_OK)
		return err;
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT ||
	    eh->e_version != EV_CURRENT)
		return ARA_ELF_E_CLASS;
	if (eh->e_machine != EM_AARCH64)
		return ARA_ELF_E_MACHINE;
	if (eh->e_type != ET_DYN)
		return ARA_ELF_E_TYPE;
	/* PN_XNUM would move the count into section 0: no need, refused. */
	if (eh->e_ehsize != sizeof(Elf64_Ehdr) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
	    eh->e_phnum == PN_XNUM)
		return ARA_ELF_E_HEADER;
	if (!ara_elf_range_ok(eh->e_phoff,
			      (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr),
			      src->size))
		return ARA_ELF_E_TRUNCATED;
	return ARA_ELF_OK;
}

enum ara_elf_err ara_elf_phdr(const struct ara_elf_src *src,
			      const Elf64_Ehdr *eh, unsigned int i,
			      Elf64_Phdr *ph)
{
	return ara_elf_read(src, eh->e_phoff + (uint64_t)i * sizeof(*ph), ph,
			    sizeof(*ph));
}

const char *ara_elf_strerror(enum ara_elf_err err)
{
	switch (err) {
	case ARA_ELF_OK:
		return "no error";
	case ARA_ELF_E_IO:
		return "read error";
	case ARA_ELF_E_TRUNCATED:
		return "truncated: a header, table or string lies past the end of the file";
	case ARA_ELF_E_NOT_ELF:
		return "not an ELF file";
	case ARA_ELF_E_CLASS:
		return "not a 64-bit little-endian ELF file of version 1";
	case ARA_ELF_E_MACHINE:
		return "not an arm64 (EM_AARCH64) file";
	case ARA_ELF_E_TYPE:
		return "not position-independent (ELF type is not ET_DYN)";
	case ARA_ELF_E_HEADER:
		return "malformed ELF header (header sizes or program header count)";
	case ARA_ELF_E_NO_INTERP:
		return "no PT_INTERP: not a dynamically linked program";
	case ARA_ELF_E_INTERP:
		return "PT_INTERP is repeated, or not one NUL-terminated absolute path";
	case ARA_ELF_E_SECTIONS:
		return "no section headers, or malformed ones";
	case ARA_ELF_E_STRTAB:
		return "bad section name string table, or a name outside it";
	case ARA_ELF_E_GATE_MISSING:
		return "missing";
	case ARA_ELF_E_GATE_DUPLICATE:
		return "present more than once";
	case ARA_ELF_E_GATE_TYPE:
		return "wrong type or flags (text: PROGBITS AX, not W; data: PROGBITS or NOBITS WA, not X)";
	case ARA_ELF_E_GATE_ALIGN:
		return "address not page-aligned (4096)";
	case ARA_ELF_E_GATE_SIZE:
		return "size zero or not a multiple of the page size (4096)";
	case ARA_ELF_E_DYNAMIC:
		return "malformed dynamic section or relocation table";
	case ARA_ELF_E_IFUNC:
		return "defines IFUNC resolvers (R_AARCH64_IRELATIVE relocations), which the dynamic "
		       "linker runs before ARA initialises: no App code may run before that";
	case ARA_ELF_E_RUNPATH:
		return "has a DT_RPATH or DT_RUNPATH: its libraries would come from where it says";
	case ARA_ELF_E_NEEDED_PATH:
		return "names a library by a path: it would be loaded from there";
	case ARA_ELF_E_INITFIRST:
		return "is marked DF_1_INITFIRST: its constructors would run before ARA initialises";
	case ARA_ELF_E_PROGRAM:
		return "has a PT_INTERP: a program, not a shared library";
	case ARA_ELF_E_GATE_SEGMENT:
		return "not inside a loadable segment with matching permissions and file offset";
	}
	return "unknown ELF error";
}
