/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the shared ELF reader (ara/elf.h) and the loader's ELF
 * checks (loader/elf_gate.h, elf_fd.h, elf_role.h) on images built in
 * memory (elf_fixture.h); hostile images first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ara/boot.h"
#include "elf_fd.h"
#include "elf_fixture.h"
#include "elf_gate.h"
#include "elf_role.h"

static struct elf_fixture fx;
static char interp[ARA_ELF_INTERP_MAX];

static int setup(void **state)
{
	(void)state;
	elf_fixture_init(&fx);
	memset(interp, 0x5a, sizeof(interp));
	return 0;
}

static enum ara_elf_err app(void)
{
	return ara_elf_app_interp(&fx.src, interp);
}

/* The gate check's result; *section must name want_section. */
static enum ara_elf_err gate_in(const char *want_section)
{
	struct ara_elf_gate gate;
	const char *section = "unset";
	enum ara_elf_err err = ara_elf_gate(&fx.src, &gate, &section);

	if (want_section == NULL) {
		assert_null(section);
	} else {
		assert_non_null(section);
		assert_string_equal(section, want_section);
	}
	return err;
}

static enum ara_elf_err gate(void)
{
	return gate_in(NULL);
}

/* --- the ELF header, through both checks --- */

static void rejects_files_too_short_for_a_header(void **state)
{
	(void)state;
	fx.src.size = 0;
	assert_int_equal(app(), ARA_ELF_E_NOT_ELF);
	fx.src.size = SELFMAG - 1;
	assert_int_equal(gate(), ARA_ELF_E_NOT_ELF);
	fx.src.size = sizeof(Elf64_Ehdr) - 1;
	assert_int_equal(app(), ARA_ELF_E_TRUNCATED);
}

static void rejects_wrong_magic(void **state)
{
	(void)state;
	fx.bytes[3] = 'f';
	assert_int_equal(app(), ARA_ELF_E_NOT_ELF);
	assert_int_equal(gate(), ARA_ELF_E_NOT_ELF);
}

static void rejects_other_classes_byte_orders_and_versions(void **state)
{
	(void)state;
	fx.eh->e_ident[EI_CLASS] = ELFCLASS32;
	assert_int_equal(app(), ARA_ELF_E_CLASS);
	setup(NULL);
	fx.eh->e_ident[EI_DATA] = ELFDATA2MSB;
	assert_int_equal(gate(), ARA_ELF_E_CLASS);
	setup(NULL);
	fx.eh->e_ident[EI_VERSION] = 2;
	assert_int_equal(app(), ARA_ELF_E_CLASS);
	setup(NULL);
	fx.eh->e_version = 0;
	assert_int_equal(app(), ARA_ELF_E_CLASS);
}

static void rejects_other_machines(void **state)
{
	(void)state;
	fx.eh->e_machine = EM_X86_64;
	assert_int_equal(app(), ARA_ELF_E_MACHINE);
	assert_int_equal(gate(), ARA_ELF_E_MACHINE);
}

static void rejects_position_dependent_files(void **state)
{
	(void)state;
	fx.eh->e_type = ET_EXEC;
	assert_int_equal(app(), ARA_ELF_E_TYPE);
	fx.eh->e_type = ET_REL;
	assert_int_equal(gate(), ARA_ELF_E_TYPE);
}

static void rejects_odd_header_sizes_and_counts(void **state)
{
	(void)state;
	fx.eh->e_ehsize = sizeof(Elf64_Ehdr) + 8;
	assert_int_equal(app(), ARA_ELF_E_HEADER);
	setup(NULL);
	fx.eh->e_phentsize = sizeof(Elf64_Phdr) - 8;
	assert_int_equal(app(), ARA_ELF_E_HEADER);
	setup(NULL);
	fx.eh->e_phnum = 0;
	assert_int_equal(gate(), ARA_ELF_E_HEADER);
	setup(NULL);
	fx.eh->e_phnum = PN_XNUM;
	assert_int_equal(app(), ARA_ELF_E_HEADER);
}

static void rejects_program_headers_past_the_end(void **state)
{
	(void)state;
	fx.eh->e_phoff = FIX_SIZE - sizeof(Elf64_Phdr);
	assert_int_equal(app(), ARA_ELF_E_TRUNCATED);
	/* phoff + phnum * phentsize wraps around: still refused. */
	fx.eh->e_phoff = UINT64_MAX - 8;
	assert_int_equal(app(), ARA_ELF_E_TRUNCATED);
	assert_int_equal(gate(), ARA_ELF_E_TRUNCATED);
}

/* --- the App's PT_INTERP --- */

static void rejects_app_without_interp(void **state)
{
	(void)state;
	fx.ph[FIX_PH_INTERP].p_type = PT_NULL;
	assert_int_equal(app(), ARA_ELF_E_NO_INTERP);
}

static void rejects_two_interps(void **state)
{
	(void)state;
	fx.ph[FIX_PH_TEXT] = fx.ph[FIX_PH_INTERP];
	assert_int_equal(app(), ARA_ELF_E_INTERP);
}

static void rejects_relative_interp(void **state)
{
	(void)state;
	fx.bytes[fx.ph[FIX_PH_INTERP].p_offset] = 'l';
	assert_int_equal(app(), ARA_ELF_E_INTERP);
}

static void rejects_interp_without_final_nul(void **state)
{
	(void)state;
	fx.ph[FIX_PH_INTERP].p_filesz--;
	assert_int_equal(app(), ARA_ELF_E_INTERP);
}

/* "/lib/ld.so\0/evil": whoever stops at the first NUL sees another path. */
static void rejects_interp_with_inner_nul(void **state)
{
	(void)state;
	fx.ph[FIX_PH_INTERP].p_filesz += 6;
	memcpy(fx.bytes + fx.ph[FIX_PH_INTERP].p_offset + sizeof(FIX_INTERP),
	       "/evil", 6);
	assert_int_equal(app(), ARA_ELF_E_INTERP);
}

static void rejects_interp_of_bad_length(void **state)
{
	(void)state;
	fx.ph[FIX_PH_INTERP].p_filesz = 1;
	assert_int_equal(app(), ARA_ELF_E_INTERP);
	fx.ph[FIX_PH_INTERP].p_filesz = ARA_ELF_INTERP_MAX + 1;
	assert_int_equal(app(), ARA_ELF_E_INTERP);
	fx.ph[FIX_PH_INTERP].p_filesz = UINT64_MAX;
	assert_int_equal(app(), ARA_ELF_E_INTERP);
}

static void rejects_interp_past_the_end(void **state)
{
	(void)state;
	fx.ph[FIX_PH_INTERP].p_offset = FIX_SIZE - 4;
	assert_int_equal(app(), ARA_ELF_E_TRUNCATED);
	fx.ph[FIX_PH_INTERP].p_offset = UINT64_MAX - 2;
	assert_int_equal(app(), ARA_ELF_E_TRUNCATED);
}

static void accepts_app_and_copies_its_interp(void **state)
{
	(void)state;
	assert_int_equal(app(), ARA_ELF_OK);
	assert_string_equal(interp, FIX_INTERP);
}

static void accepts_interp_of_maximum_length(void **state)
{
	Elf64_Phdr *ph = &fx.ph[FIX_PH_INTERP];

	(void)state;
	ph->p_offset = 0x1000;
	ph->p_filesz = ARA_ELF_INTERP_MAX;
	memset(fx.bytes + ph->p_offset, 'a', ARA_ELF_INTERP_MAX - 1);
	fx.bytes[ph->p_offset] = '/';
	fx.bytes[ph->p_offset + ARA_ELF_INTERP_MAX - 1] = '\0';
	assert_int_equal(app(), ARA_ELF_OK);
	assert_int_equal(strlen(interp), ARA_ELF_INTERP_MAX - 1);
}

/* --- IFUNC resolvers: App code that would run before ARA's init --- */

/*
 * Gives the fixture a PT_DYNAMIC at 0x800 whose DT_RELA table at 0x900
 * holds the given relocation types (the text PT_LOAD maps 0x0..0x3000 at
 * the same addresses).
 */
static void with_relocations(const uint32_t *types, unsigned int n, uint64_t relaent)
{
	Elf64_Phdr *dyn_ph = (Elf64_Phdr *)(fx.bytes + fx.eh->e_phoff) + FIX_PHNUM;
	Elf64_Dyn *dyn = (Elf64_Dyn *)(fx.bytes + 0x800);
	Elf64_Rela *rela = (Elf64_Rela *)(fx.bytes + 0x900);

	fx.eh->e_phnum = FIX_PHNUM + 1;
	*dyn_ph = (Elf64_Phdr){ .p_type = PT_DYNAMIC, .p_flags = PF_R | PF_W, .p_offset = 0x800,
				.p_vaddr = 0x800, .p_filesz = 4 * sizeof(Elf64_Dyn),
				.p_memsz = 4 * sizeof(Elf64_Dyn), .p_align = 8 };
	dyn[0] = (Elf64_Dyn){ .d_tag = DT_RELA, .d_un.d_ptr = 0x900 };
	dyn[1] = (Elf64_Dyn){ .d_tag = DT_RELASZ, .d_un.d_val = n * sizeof(Elf64_Rela) };
	dyn[2] = (Elf64_Dyn){ .d_tag = DT_RELAENT, .d_un.d_val = relaent };
	dyn[3] = (Elf64_Dyn){ .d_tag = DT_NULL };
	dyn[4] = (Elf64_Dyn){ .d_tag = DT_NULL };
	for (unsigned int i = 0; i < n; i++)
		rela[i] = (Elf64_Rela){ .r_offset = 0x2000 + 8 * i,
					.r_info = ELF64_R_INFO(0, types[i]), .r_addend = 0x1000 };
}

static void rejects_app_with_ifunc_resolvers(void **state)
{
	const uint32_t types[] = { R_AARCH64_RELATIVE, R_AARCH64_RELATIVE, R_AARCH64_IRELATIVE };

	(void)state;
	with_relocations(types, 3, sizeof(Elf64_Rela));
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_IFUNC);
}

static void rejects_malformed_relocation_tables(void **state)
{
	const uint32_t types[] = { R_AARCH64_RELATIVE };
	Elf64_Dyn *dyn = (Elf64_Dyn *)(fx.bytes + 0x800);

	(void)state;
	with_relocations(types, 1, 16); /* wrong DT_RELAENT */
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_DYNAMIC);
	with_relocations(types, 1, sizeof(Elf64_Rela));
	dyn[0].d_un.d_ptr = 0x10000; /* outside every PT_LOAD */
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_DYNAMIC);
	with_relocations(types, 1, sizeof(Elf64_Rela));
	dyn[1].d_un.d_val = 25; /* not a whole number of entries */
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_DYNAMIC);
	with_relocations(types, 1, sizeof(Elf64_Rela));
	dyn[1].d_un.d_val = UINT64_MAX - 7; /* would wrap */
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_DYNAMIC);
}

static void rejects_app_marked_initfirst(void **state)
{
	const uint32_t types[] = { R_AARCH64_RELATIVE };
	Elf64_Dyn *dyn = (Elf64_Dyn *)(fx.bytes + 0x800);

	(void)state;
	with_relocations(types, 1, sizeof(Elf64_Rela));
	dyn[3] = (Elf64_Dyn){ .d_tag = DT_FLAGS_1, .d_un.d_val = DF_1_NOW | DF_1_INITFIRST };
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_E_INITFIRST);
	dyn[3].d_un.d_val = DF_1_NOW | DF_1_PIE; /* what a normal PIE has */
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_OK);
}

static void accepts_app_with_plain_relocations(void **state)
{
	const uint32_t types[] = { R_AARCH64_RELATIVE, R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT };

	(void)state;
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_OK); /* no PT_DYNAMIC */
	with_relocations(types, 3, sizeof(Elf64_Rela));
	assert_int_equal(ara_elf_app_runs_after_ara(&fx.src), ARA_ELF_OK);
}

/* --- libraries only from the system's places (libara's execve) --- */

/* The fixture's dynamic section with DT_STRTAB at 0xa00: "libc.so.6", "/tmp/x.so". */
static Elf64_Dyn *with_strtab(void)
{
	const uint32_t types[] = { R_AARCH64_RELATIVE };
	Elf64_Dyn *dyn = (Elf64_Dyn *)(fx.bytes + 0x800);
	Elf64_Phdr *dyn_ph = (Elf64_Phdr *)(fx.bytes + fx.eh->e_phoff) + FIX_PHNUM;
	static const char strtab[] = "\0libc.so.6\0/tmp/x.so";

	with_relocations(types, 1, sizeof(Elf64_Rela));
	memcpy(fx.bytes + 0xa00, strtab, sizeof(strtab));
	dyn_ph->p_filesz = dyn_ph->p_memsz = 8 * sizeof(Elf64_Dyn);
	dyn[3] = (Elf64_Dyn){ .d_tag = DT_STRTAB, .d_un.d_ptr = 0xa00 };
	dyn[4] = (Elf64_Dyn){ .d_tag = DT_STRSZ, .d_un.d_val = sizeof(strtab) };
	dyn[5] = (Elf64_Dyn){ .d_tag = DT_NEEDED, .d_un.d_val = 1 };
	dyn[6] = (Elf64_Dyn){ .d_tag = DT_NULL };
	dyn[7] = (Elf64_Dyn){ .d_tag = DT_NULL };
	return dyn;
}

static void accepts_libraries_by_name(void **state)
{
	(void)state;
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_OK); /* no PT_DYNAMIC */
	with_strtab();
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_OK);
}

static void rejects_runpath_rpath_and_library_paths(void **state)
{
	Elf64_Dyn *dyn;

	(void)state;
	dyn = with_strtab();
	dyn[6] = (Elf64_Dyn){ .d_tag = DT_RUNPATH, .d_un.d_val = 1 };
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_RUNPATH);
	dyn[6].d_tag = DT_RPATH;
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_RUNPATH);
	dyn = with_strtab();
	dyn[6] = (Elf64_Dyn){ .d_tag = DT_NEEDED, .d_un.d_val = 11 }; /* "/tmp/x.so" */
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_NEEDED_PATH);
	dyn[6].d_un.d_val = 4096; /* past DT_STRSZ */
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_DYNAMIC);
	dyn = with_strtab();
	dyn[4].d_un.d_val = 5; /* "libc" then the end of the table: no NUL */
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_DYNAMIC);
	dyn = with_strtab();
	dyn[3].d_un.d_ptr = 0x10000; /* outside every PT_LOAD */
	assert_int_equal(ara_elf_libraries_from_system(&fx.src), ARA_ELF_E_DYNAMIC);
}

/* --- the entry object's section table --- */

static void rejects_missing_or_odd_section_headers(void **state)
{
	(void)state;
	fx.eh->e_shnum = 0;
	assert_int_equal(gate(), ARA_ELF_E_SECTIONS);
	setup(NULL);
	fx.eh->e_shentsize = sizeof(Elf64_Shdr) + 1;
	assert_int_equal(gate(), ARA_ELF_E_SECTIONS);
}

static void rejects_section_headers_past_the_end(void **state)
{
	(void)state;
	fx.eh->e_shoff = FIX_SIZE - sizeof(Elf64_Shdr);
	assert_int_equal(gate(), ARA_ELF_E_TRUNCATED);
	fx.eh->e_shoff = UINT64_MAX - 63;
	assert_int_equal(gate(), ARA_ELF_E_TRUNCATED);
}

static void rejects_bad_string_table_index(void **state)
{
	(void)state;
	fx.eh->e_shstrndx = SHN_UNDEF;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
	fx.eh->e_shstrndx = FIX_SHNUM;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
	fx.eh->e_shstrndx = SHN_XINDEX;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
	fx.eh->e_shstrndx = FIX_SH_GATE; /* PROGBITS, not a string table */
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
}

static void rejects_string_table_past_the_end(void **state)
{
	(void)state;
	fx.sh[FIX_SH_SHSTRTAB].sh_size = FIX_SIZE;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
	fx.sh[FIX_SH_SHSTRTAB].sh_size = UINT64_MAX;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
}

static void rejects_names_outside_the_string_table(void **state)
{
	(void)state;
	fx.sh[FIX_SH_TEXT].sh_name = FIX_STRTAB_SIZE;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
	fx.sh[FIX_SH_TEXT].sh_name = UINT32_MAX;
	assert_int_equal(gate(), ARA_ELF_E_STRTAB);
}

/* A name cut off by the end of the table is not the gate's name. */
static void ignores_names_cut_off_by_the_table_end(void **state)
{
	(void)state;
	fx.sh[FIX_SH_SHSTRTAB].sh_size = FIX_NAME_GATE_DATA + 14; /* no NUL */
	fx.sh[FIX_SH_SHSTRTAB].sh_name = 0;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_MISSING);
}

/* --- the gate sections --- */

static void rejects_missing_gate_sections(void **state)
{
	(void)state;
	fx.sh[FIX_SH_GATE].sh_name = FIX_NAME_TEXT;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_MISSING);
	setup(NULL);
	fx.sh[FIX_SH_GATE_DATA].sh_name = FIX_NAME_TEXT;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_MISSING);
}

static void rejects_duplicate_gate_sections(void **state)
{
	(void)state;
	fx.sh[FIX_SH_TEXT].sh_name = FIX_NAME_GATE;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_DUPLICATE);
	setup(NULL);
	fx.sh[FIX_SH_SHSTRTAB].sh_name = FIX_NAME_GATE_DATA;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_DUPLICATE);
}

static void rejects_gate_text_of_wrong_type_or_flags(void **state)
{
	Elf64_Shdr *text = &fx.sh[FIX_SH_GATE];

	(void)state;
	text->sh_type = SHT_NOBITS;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_TYPE);
	setup(NULL);
	text->sh_flags |= SHF_WRITE;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_TYPE);
	text->sh_flags = SHF_ALLOC;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_TYPE);
	text->sh_flags = SHF_EXECINSTR;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_TYPE);
}

static void rejects_gate_data_of_wrong_type_or_flags(void **state)
{
	Elf64_Shdr *data = &fx.sh[FIX_SH_GATE_DATA];

	(void)state;
	data->sh_type = SHT_NOTE;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_TYPE);
	setup(NULL);
	data->sh_flags |= SHF_EXECINSTR;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_TYPE);
	data->sh_flags = SHF_ALLOC;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_TYPE);
}

static void rejects_misaligned_gate_sections(void **state)
{
	(void)state;
	fx.sh[FIX_SH_GATE].sh_addr += 0x800;
	fx.sh[FIX_SH_GATE].sh_offset += 0x800;
	fx.sh[FIX_SH_GATE].sh_size = 0x1000;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_ALIGN);
	setup(NULL);
	fx.sh[FIX_SH_GATE_DATA].sh_addr += 8;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_ALIGN);
}

static void rejects_gate_sections_not_of_whole_pages(void **state)
{
	(void)state;
	fx.sh[FIX_SH_GATE].sh_size = 0;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SIZE);
	fx.sh[FIX_SH_GATE].sh_size = 0x1800;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SIZE);
	setup(NULL);
	fx.sh[FIX_SH_GATE_DATA].sh_size = 4095;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_SIZE);
}

static void rejects_gate_bytes_past_the_end(void **state)
{
	(void)state;
	fx.sh[FIX_SH_GATE].sh_offset = FIX_SIZE - 0x1000;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_TRUNCATED);
	fx.sh[FIX_SH_GATE].sh_offset = UINT64_MAX - 0xfff;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_TRUNCATED);
}

/* W^X: the gate text must not be in a writable segment, nor data in an
 * executable one. */
static void rejects_gate_in_segments_with_wrong_permissions(void **state)
{
	(void)state;
	fx.ph[FIX_PH_TEXT].p_flags = PF_R | PF_W | PF_X;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SEGMENT);
	fx.ph[FIX_PH_TEXT].p_flags = PF_R;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SEGMENT);
	setup(NULL);
	fx.ph[FIX_PH_DATA].p_flags = PF_R | PF_W | PF_X;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_SEGMENT);
	fx.ph[FIX_PH_DATA].p_flags = PF_R;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_SEGMENT);
}

static void rejects_gate_outside_any_load_segment(void **state)
{
	(void)state;
	fx.ph[FIX_PH_TEXT].p_memsz = 0x2fff;
	fx.ph[FIX_PH_TEXT].p_filesz = 0x2fff;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SEGMENT);
	setup(NULL);
	fx.ph[FIX_PH_DATA].p_type = PT_NOTE;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_SEGMENT);
	setup(NULL);
	/* sh_addr + sh_size wraps around: not inside [p_vaddr, +p_memsz). */
	fx.sh[FIX_SH_GATE].sh_addr = UINT64_MAX - 0xfff;
	fx.sh[FIX_SH_GATE].sh_size = 0x1000;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SEGMENT);
}

/* The bytes hashed must be the bytes mapped at sh_addr. */
static void rejects_gate_whose_file_offset_does_not_match_its_address(void **state)
{
	(void)state;
	fx.sh[FIX_SH_GATE].sh_offset = 0x800;
	assert_int_equal(gate_in(ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_SEGMENT);
	setup(NULL);
	/* In memory but not in the file part of the segment. */
	fx.ph[FIX_PH_DATA].p_filesz = 0x800;
	assert_int_equal(gate_in(ARA_GATE_DATA_SECTION), ARA_ELF_E_GATE_SEGMENT);
}

static void accepts_entry_object_and_reports_its_gate(void **state)
{
	struct ara_elf_gate g;
	const char *section = "unset";

	(void)state;
	assert_int_equal(ara_elf_gate(&fx.src, &g, &section), ARA_ELF_OK);
	assert_null(section);
	assert_int_equal(g.text.vaddr, 0x1000);
	assert_int_equal(g.text.size, 0x2000);
	assert_int_equal(g.text.offset, 0x1000);
	assert_false(g.text.nobits);
	assert_int_equal(g.data.vaddr, 0x3000);
	assert_int_equal(g.data.size, 0x1000);
	assert_int_equal(g.data.offset, 0x3000);
	assert_false(g.data.nobits);
}

static void accepts_nobits_gate_data(void **state)
{
	struct ara_elf_gate g;
	const char *section = "unset";

	(void)state;
	fx.sh[FIX_SH_GATE_DATA].sh_type = SHT_NOBITS;
	fx.ph[FIX_PH_DATA].p_filesz = 0;
	assert_int_equal(ara_elf_gate(&fx.src, &g, &section), ARA_ELF_OK);
	assert_true(g.data.nobits);
	assert_int_equal(g.data.offset, 0);
	assert_int_equal(g.data.vaddr, 0x3000);
}

/* --- reading from a descriptor, as the loader does --- */

static int fixture_file(void)
{
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	fd = dup(fileno(f));
	assert_true(fd >= 0);
	assert_int_equal(fwrite(fx.bytes, 1, FIX_SIZE, f), FIX_SIZE);
	assert_int_equal(fclose(f), 0);
	return fd;
}

static void reads_from_a_descriptor(void **state)
{
	struct ara_elf_gate g;
	const char *section = NULL;
	int fd = fixture_file();

	(void)state;
	fx.src = ara_elf_fd_src(fd, FIX_SIZE);
	assert_int_equal(ara_elf_gate(&fx.src, &g, &section), ARA_ELF_OK);
	assert_int_equal(g.text.vaddr, 0x1000);
	assert_int_equal(app(), ARA_ELF_OK);
	assert_string_equal(interp, FIX_INTERP);
	close(fd);
}

/* A file shorter than the size it was opened with: a read error, not a
 * parse of stale bytes. */
static void reports_a_short_descriptor_as_io_error(void **state)
{
	struct ara_elf_gate g;
	const char *section = NULL;
	int fd = fixture_file();

	(void)state;
	assert_int_equal(ftruncate(fd, 0x450), 0); /* cuts the section headers */
	fx.src = ara_elf_fd_src(fd, FIX_SIZE);
	errno = 0;
	assert_int_equal(ara_elf_gate(&fx.src, &g, &section), ARA_ELF_E_IO);
	assert_int_equal(errno, EIO);
	close(fd);
}

static void every_error_is_described(void **state)
{
	(void)state;
	for (int e = ARA_ELF_OK; e <= ARA_ELF_E_GATE_SEGMENT; e++) {
		const char *msg = ara_elf_strerror((enum ara_elf_err)e);

		assert_string_not_equal(msg, "unknown ELF error");
		for (int f = ARA_ELF_OK; f < e; f++)
			assert_string_not_equal(msg,
						ara_elf_strerror((enum ara_elf_err)f));
	}
	assert_string_equal(ara_elf_strerror((enum ara_elf_err)99),
			    "unknown ELF error");
}

/* ara-manifest's role checks (elf_role.c): the fixture is an App; without
 * its PT_INTERP, a shared object and an entry object. */
static enum ara_elf_err role(enum ara_role r, const char *want_section)
{
	const char *section = "unset";
	enum ara_elf_err err = ara_elf_role_check(&fx.src, r, &section);

	if (want_section == NULL)
		assert_null(section);
	else
		assert_string_equal(section, want_section);
	return err;
}

static void roles_accept_each_kind_of_object(void **state)
{
	(void)state;
	assert_int_equal(role(ARA_ROLE_APP, NULL), ARA_ELF_OK);
	fx.ph[FIX_PH_INTERP].p_type = PT_NULL; /* now a shared library */
	assert_int_equal(role(ARA_ROLE_LIBARA, NULL), ARA_ELF_OK);
	assert_int_equal(role(ARA_ROLE_ENTRY, NULL), ARA_ELF_OK);
}

static void roles_refuse_the_wrong_kind(void **state)
{
	(void)state;
	assert_int_equal(role(ARA_ROLE_LIBARA, NULL), ARA_ELF_E_PROGRAM);
	assert_int_equal(role(ARA_ROLE_ENTRY, NULL), ARA_ELF_E_PROGRAM);
	fx.ph[FIX_PH_INTERP].p_type = PT_NULL;
	assert_int_equal(role(ARA_ROLE_APP, NULL), ARA_ELF_E_NO_INTERP);
	fx.sh[FIX_SH_GATE].sh_name = FIX_NAME_TEXT; /* no .ara_gate */
	assert_int_equal(role(ARA_ROLE_ENTRY, ARA_GATE_TEXT_SECTION), ARA_ELF_E_GATE_MISSING);
	fx.eh->e_type = ET_EXEC;
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		assert_int_equal(role((enum ara_role)r, NULL), ARA_ELF_E_TYPE);
	fx.bytes[0] = 'r'; /* /etc/passwd starts "root:" */
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		assert_int_equal(role((enum ara_role)r, NULL), ARA_ELF_E_NOT_ELF);
}

#define T(name) cmocka_unit_test_setup(name, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(roles_accept_each_kind_of_object),
		T(roles_refuse_the_wrong_kind),
		T(rejects_files_too_short_for_a_header),
		T(rejects_wrong_magic),
		T(rejects_other_classes_byte_orders_and_versions),
		T(rejects_other_machines),
		T(rejects_position_dependent_files),
		T(rejects_odd_header_sizes_and_counts),
		T(rejects_program_headers_past_the_end),
		T(rejects_app_without_interp),
		T(rejects_two_interps),
		T(rejects_relative_interp),
		T(rejects_interp_without_final_nul),
		T(rejects_interp_with_inner_nul),
		T(rejects_interp_of_bad_length),
		T(rejects_interp_past_the_end),
		T(accepts_app_and_copies_its_interp),
		T(accepts_interp_of_maximum_length),
		T(rejects_app_with_ifunc_resolvers),
		T(rejects_malformed_relocation_tables),
		T(rejects_app_marked_initfirst),
		T(accepts_libraries_by_name),
		T(rejects_runpath_rpath_and_library_paths),
		T(accepts_app_with_plain_relocations),
		T(rejects_missing_or_odd_section_headers),
		T(rejects_section_headers_past_the_end),
		T(rejects_bad_string_table_index),
		T(rejects_string_table_past_the_end),
		T(rejects_names_outside_the_string_table),
		T(ignores_names_cut_off_by_the_table_end),
		T(rejects_missing_gate_sections),
		T(rejects_duplicate_gate_sections),
		T(rejects_gate_text_of_wrong_type_or_flags),
		T(rejects_gate_data_of_wrong_type_or_flags),
		T(rejects_misaligned_gate_sections),
		T(rejects_gate_sections_not_of_whole_pages),
		T(rejects_gate_bytes_past_the_end),
		T(rejects_gate_in_segments_with_wrong_permissions),
		T(rejects_gate_outside_any_load_segment),
		T(rejects_gate_whose_file_offset_does_not_match_its_address),
		T(accepts_entry_object_and_reports_its_gate),
		T(accepts_nobits_gate_data),
		T(reads_from_a_descriptor),
		T(reports_a_short_descriptor_as_io_error),
		T(every_error_is_described),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
