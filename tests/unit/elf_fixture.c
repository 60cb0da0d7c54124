/* SPDX-License-Identifier: Apache-2.0 */
#include "elf_fixture.h"

#include <string.h>

#define PHOFF 0x40u
#define INTERP_OFF 0x200u
#define STRTAB_OFF 0x400u
#define SHOFF 0x500u
#define GATE 0x1000u
#define GATE_SIZE 0x2000u
#define GATE_DATA 0x3000u
#define GATE_DATA_SIZE 0x1000u

static const char strtab[FIX_STRTAB_SIZE] =
	"\0.text\0.ara_gate\0.ara_gate_data\0.shstrtab";

static void header(Elf64_Ehdr *eh)
{
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = PHOFF;
	eh->e_shoff = SHOFF;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = FIX_PHNUM;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = FIX_SHNUM;
	eh->e_shstrndx = FIX_SH_SHSTRTAB;
}

static void segment(Elf64_Phdr *ph, uint32_t type, uint32_t flags,
		    uint64_t start, uint64_t size)
{
	ph->p_type = type;
	ph->p_flags = flags;
	ph->p_offset = start;
	ph->p_vaddr = start;
	ph->p_paddr = start;
	ph->p_filesz = size;
	ph->p_memsz = size;
	ph->p_align = type == PT_LOAD ? 0x10000 : 1;
}

static void section(Elf64_Shdr *sh, uint32_t name, uint32_t type,
		    uint64_t flags, uint64_t start, uint64_t size)
{
	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_addr = flags & SHF_ALLOC ? start : 0;
	sh->sh_offset = start;
	sh->sh_size = size;
	sh->sh_addralign = flags & SHF_ALLOC ? 4096 : 1;
}

void elf_fixture_init(struct elf_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->eh = (Elf64_Ehdr *)f->bytes;
	f->ph = (Elf64_Phdr *)(f->bytes + PHOFF);
	f->sh = (Elf64_Shdr *)(f->bytes + SHOFF);
	f->src = (struct ara_elf_src){ .mem = f->bytes, .size = FIX_SIZE };

	header(f->eh);
	segment(&f->ph[FIX_PH_TEXT], PT_LOAD, PF_R | PF_X, 0, GATE_DATA);
	segment(&f->ph[FIX_PH_DATA], PT_LOAD, PF_R | PF_W, GATE_DATA,
		GATE_DATA_SIZE);
	segment(&f->ph[FIX_PH_INTERP], PT_INTERP, PF_R, INTERP_OFF,
		sizeof(FIX_INTERP));
	memcpy(f->bytes + INTERP_OFF, FIX_INTERP, sizeof(FIX_INTERP));
	memcpy(f->bytes + STRTAB_OFF, strtab, sizeof(strtab));

	section(&f->sh[FIX_SH_TEXT], FIX_NAME_TEXT, SHT_PROGBITS,
		SHF_ALLOC | SHF_EXECINSTR, 0x800, 0x100);
	section(&f->sh[FIX_SH_GATE], FIX_NAME_GATE, SHT_PROGBITS,
		SHF_ALLOC | SHF_EXECINSTR, GATE, GATE_SIZE);
	section(&f->sh[FIX_SH_GATE_DATA], FIX_NAME_GATE_DATA, SHT_PROGBITS,
		SHF_ALLOC | SHF_WRITE, GATE_DATA, GATE_DATA_SIZE);
	section(&f->sh[FIX_SH_SHSTRTAB], FIX_NAME_SHSTRTAB, SHT_STRTAB, 0,
		STRTAB_OFF, sizeof(strtab));
	/* Recognisable gate bytes. */
	for (unsigned int i = 0; i < GATE_SIZE; i++)
		f->bytes[GATE + i] = (uint8_t)(i * 7 + 1);
}
