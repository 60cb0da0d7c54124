/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the seed corpus of fuzz_elf: valid images from the unit tests'
 * fixture (tests/unit/elf_fixture.h) and near-valid variants of it.
 * Usage: elf_seeds DIR
 */
#include <stdio.h>

#include "elf_fixture.h"

static struct elf_fixture fx;

static int write_seed(const char *dir, const char *name, size_t size)
{
	char path[4096];
	FILE *f;

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
	elf_fixture_init(&fx);
	failed |= write_seed(argv[1], "entry-and-app", FIX_SIZE);
	failed |= write_seed(argv[1], "headers-only", 0x600);

	elf_fixture_init(&fx);
	fx.sh[FIX_SH_GATE_DATA].sh_type = SHT_NOBITS;
	fx.ph[FIX_PH_DATA].p_filesz = 0;
	failed |= write_seed(argv[1], "nobits-gate-data", FIX_SIZE);

	elf_fixture_init(&fx);
	fx.ph[FIX_PH_INTERP].p_type = PT_NULL;
	failed |= write_seed(argv[1], "no-interp", FIX_SIZE);
	return failed;
}
