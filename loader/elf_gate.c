/* SPDX-License-Identifier: Apache-2.0 */
/* The entry object's gate sections: found by name, checked for layout. */
#include "elf_gate.h"

#include <string.h>

#include "ara/boot.h"

/* Names are compared with this many bytes read, NUL included. */
#define NAME_CAP sizeof(ARA_GATE_DATA_SECTION)
_Static_assert(sizeof(ARA_GATE_TEXT_SECTION) <= NAME_CAP, "longest name");

struct strtab {
	uint64_t offset;
	uint64_t size;
};

/* Checks the section header table and its name string table. */
static enum ara_elf_err section_table(const struct ara_elf_src *src,
				      const Elf64_Ehdr *eh, struct strtab *names)
{
	Elf64_Shdr sh;
	enum ara_elf_err err;

	/* e_shnum 0 also encodes "more than 0xff00 sections": refused. */
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0)
		return ARA_ELF_E_SECTIONS;
	if (!ara_elf_range_ok(eh->e_shoff,
			      (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr),
			      src->size))
		return ARA_ELF_E_TRUNCATED;
	/* SHN_XINDEX (>= e_shnum here) would move the index elsewhere. */
	if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum)
		return ARA_ELF_E_STRTAB;
	err = ara_elf_read(src, eh->e_shoff + eh->e_shstrndx * sizeof(sh), &sh,
			   sizeof(sh));
	if (err != ARA_ELF_OK)
		return err;
	if (sh.sh_type != SHT_STRTAB ||
	    !ara_elf_range_ok(sh.sh_offset, sh.sh_size, src->size))
		return ARA_ELF_E_STRTAB;
	names->offset = sh.sh_offset;
	names->size = sh.sh_size;
	return ARA_ELF_OK;
}

/* Sets *match if the NUL-terminated name at sh_name is want. */
static enum ara_elf_err name_is(const struct ara_elf_src *src,
				const struct strtab *names, uint32_t sh_name,
				const char *want, bool *match)
{
	char buf[NAME_CAP];
	size_t want_len = strlen(want) + 1;
	uint64_t left;
	enum ara_elf_err err;

	if (sh_name >= names->size)
		return ARA_ELF_E_STRTAB;
	left = names->size - sh_name;
	*match = false;
	if (left < want_len)
		return ARA_ELF_OK; /* too short to hold want and its NUL */
	err = ara_elf_read(src, names->offset + sh_name, buf, want_len);
	if (err == ARA_ELF_OK)
		*match = memcmp(buf, want, want_len) == 0;
	return err;
}

/* Finds the one section called name; *found stays false if there is none. */
static enum ara_elf_err find_section(const struct ara_elf_src *src,
				     const Elf64_Ehdr *eh,
				     const struct strtab *names,
				     const char *name, Elf64_Shdr *out,
				     bool *found)
{
	*found = false;
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;
		bool match = false;
		enum ara_elf_err err = ara_elf_read(
			src, eh->e_shoff + (uint64_t)i * sizeof(sh), &sh,
			sizeof(sh));

		if (err == ARA_ELF_OK)
			err = name_is(src, names, sh.sh_name, name, &match);
		if (err != ARA_ELF_OK)
			return err;
		if (!match)
			continue;
		/* Two would leave libara and the loader free to disagree. */
		if (*found)
			return ARA_ELF_E_GATE_DUPLICATE;
		*out = sh;
		*found = true;
	}
	return ARA_ELF_OK;
}

/* True if the section lies in this segment, file bytes included. */
static bool in_segment(const Elf64_Shdr *sh, const Elf64_Phdr *ph)
{
	if (sh->sh_addr < ph->p_vaddr ||
	    !ara_elf_range_ok(sh->sh_addr - ph->p_vaddr, sh->sh_size,
			      ph->p_memsz))
		return false;
	if (sh->sh_type == SHT_NOBITS)
		return true;
	/* Same distance from the segment start in the file as in memory. */
	return sh->sh_offset >= ph->p_offset &&
	       sh->sh_offset - ph->p_offset == sh->sh_addr - ph->p_vaddr &&
	       ara_elf_range_ok(sh->sh_offset - ph->p_offset, sh->sh_size,
				ph->p_filesz);
}

/* Some PT_LOAD holds the section and has flags & mask == want. */
static enum ara_elf_err check_segment(const struct ara_elf_src *src,
				      const Elf64_Ehdr *eh,
				      const Elf64_Shdr *sh, uint32_t mask,
				      uint32_t want)
{
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		enum ara_elf_err err = ara_elf_phdr(src, eh, i, &ph);

		if (err != ARA_ELF_OK)
			return err;
		if (ph.p_type == PT_LOAD && (ph.p_flags & mask) == want &&
		    in_segment(sh, &ph))
			return ARA_ELF_OK;
	}
	return ARA_ELF_E_GATE_SEGMENT;
}

static enum ara_elf_err check_section(const struct ara_elf_src *src,
				      const Elf64_Ehdr *eh,
				      const Elf64_Shdr *sh, bool is_text,
				      struct ara_elf_section *out)
{
	const uint64_t flags = is_text ? SHF_ALLOC | SHF_EXECINSTR :
					 SHF_ALLOC | SHF_WRITE;
	const uint64_t flag_mask = SHF_ALLOC | SHF_EXECINSTR | SHF_WRITE;
	const bool type_ok = sh->sh_type == SHT_PROGBITS ||
			     (!is_text && sh->sh_type == SHT_NOBITS);
	enum ara_elf_err err;

	if (!type_ok || (sh->sh_flags & flag_mask) != flags)
		return ARA_ELF_E_GATE_TYPE;
	if (sh->sh_addr % ARA_ELF_PAGE_SIZE != 0)
		return ARA_ELF_E_GATE_ALIGN;
	if (sh->sh_size == 0 || sh->sh_size % ARA_ELF_PAGE_SIZE != 0)
		return ARA_ELF_E_GATE_SIZE;
	if (sh->sh_type == SHT_PROGBITS &&
	    !ara_elf_range_ok(sh->sh_offset, sh->sh_size, src->size))
		return ARA_ELF_E_TRUNCATED;
	err = is_text ? check_segment(src, eh, sh, PF_X | PF_W, PF_X) :
			check_segment(src, eh, sh, PF_X | PF_W, PF_W);
	if (err != ARA_ELF_OK)
		return err;
	out->vaddr = sh->sh_addr;
	out->size = sh->sh_size;
	out->nobits = sh->sh_type == SHT_NOBITS;
	out->offset = out->nobits ? 0 : sh->sh_offset;
	return ARA_ELF_OK;
}

/* Finds and checks one gate section; on a fault, *section = name. */
static enum ara_elf_err gate_section(const struct ara_elf_src *src,
				     const Elf64_Ehdr *eh,
				     const struct strtab *names,
				     const char *name, bool is_text,
				     struct ara_elf_section *out,
				     const char **section)
{
	Elf64_Shdr sh;
	bool found = false;
	enum ara_elf_err err = find_section(src, eh, names, name, &sh, &found);

	/* Other faults are the section table's, not this section's. */
	if (err != ARA_ELF_OK && err != ARA_ELF_E_GATE_DUPLICATE)
		return err;
	if (err == ARA_ELF_OK)
		err = found ? check_section(src, eh, &sh, is_text, out) :
			      ARA_ELF_E_GATE_MISSING;
	if (err != ARA_ELF_OK)
		*section = name;
	return err;
}

enum ara_elf_err ara_elf_gate(const struct ara_elf_src *src,
			      struct ara_elf_gate *gate, const char **section)
{
	Elf64_Ehdr eh;
	struct strtab names;
	enum ara_elf_err err;

	*section = NULL;
	memset(gate, 0, sizeof(*gate));
	err = ara_elf_header(src, &eh);
	if (err == ARA_ELF_OK)
		err = section_table(src, &eh, &names);
	if (err == ARA_ELF_OK)
		err = gate_section(src, &eh, &names, ARA_GATE_TEXT_SECTION,
				   true, &gate->text, section);
	if (err == ARA_ELF_OK)
		err = gate_section(src, &eh, &names, ARA_GATE_DATA_SECTION,
				   false, &gate->data, section);
	if (err != ARA_ELF_OK)
		memset(gate, 0, sizeof(*gate));
	return err;
}

enum ara_elf_err ara_elf_has_section(const struct ara_elf_src *src, const char *name, bool *found)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	struct strtab names;
	enum ara_elf_err err;

	*found = false;
	err = ara_elf_header(src, &eh);
	if (err == ARA_ELF_OK)
		err = section_table(src, &eh, &names);
	if (err == ARA_ELF_OK)
		err = find_section(src, &eh, &names, name, &sh, found);
	if (err == ARA_ELF_E_GATE_DUPLICATE) { /* twice is still present */
		*found = true;
		err = ARA_ELF_OK;
	}
	return err;
}
