/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the seed corpus of fuzz_elf: valid images from the unit tests'
 * fixture (tests/unit/elf_fixture.h), made compact to fit the fuzz driver's
 * 8 KiB inputs, and near-valid variants of them.
 * Usage: elf_seeds DIR
 */
#include <stdio.h>

#include "elf_fixture.h"
#include "elf_gate.h"

#define COMPACT_SIZE 0x2000u

static struct elf_fixture fx;

/*
 * The fixture in 8 KiB: gate text shrunk to its first page (0x1000), gate
 * data NOBITS at 0x2000, right after the end of the file.
 */
static void compact(void)
{
	elf_fixture_init(&fx);
	fx.sh[FIX_SH_GATE].sh_size = 0x1000;
	fx.ph[FIX_PH_TEXT].p_filesz = 0x2000;
	fx.ph[FIX_PH_TEXT].p_memsz = 0x2000;
	fx.sh[FIX_SH_GATE_DATA].sh_type = SHT_NOBITS;
	fx.sh[FIX_SH_GATE_DATA].sh_addr = 0x2000;
	fx.sh[FIX_SH_GATE_DATA].sh_offset = 0x2000;
	fx.ph[FIX_PH_DATA].p_offset = 0x2000;
	fx.ph[FIX_PH_DATA].p_vaddr = 0x2000;
	fx.ph[FIX_PH_DATA].p_paddr = 0x2000;
	fx.ph[FIX_PH_DATA].p_filesz = 0;
}

/* Writes the first size bytes of the image, after checking what it is. */
static int write_seed(const char *dir, const char *name, size_t size,
		      enum ara_elf_err want_gate)
{
	struct ara_elf_gate gate;
	const char *section = NULL;
	char path[4096];
	FILE *f;

	fx.src.size = size;
	if (ara_elf_gate(&fx.src, &gate, &section) != want_gate) {
		fprintf(stderr, "elf_seeds: %s: not the image it should be\n", name);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(fx.bytes, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: elf_seeds DIR\n");
		return 2;
	}
	compact();
	failed |= write_seed(argv[1], "entry-and-app", COMPACT_SIZE, ARA_ELF_OK);
	failed |= write_seed(argv[1], "headers-only", 0x600, ARA_ELF_E_TRUNCATED);

	compact();
	fx.sh[FIX_SH_GATE_DATA].sh_type = SHT_PROGBITS;
	failed |= write_seed(argv[1], "gate-data-past-the-end", COMPACT_SIZE,
			     ARA_ELF_E_TRUNCATED);

	compact();
	fx.ph[FIX_PH_INTERP].p_type = PT_NULL;
	fx.sh[FIX_SH_GATE].sh_flags |= SHF_WRITE;
	failed |= write_seed(argv[1], "no-interp-writable-gate", COMPACT_SIZE,
			     ARA_ELF_E_GATE_TYPE);
	return failed;
}
