/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the shared ELF reader (ara/elf.h) and the loader's gate
 * checks (loader/elf_gate.c) on the same bytes, as App and as entry
 * object. Besides surviving any input, what they accept must keep their
 * promises: an absolute, NUL-terminated interpreter path;
 * gate sections of whole pages whose file bytes lie inside the file.
 */
#include <string.h>

#include "elf_gate.h"
#include "fuzz_check.h"

static void check_region(const struct ara_elf_section *s, size_t file_size)
{
	FUZZ_CHECK(s->vaddr % ARA_ELF_PAGE_SIZE == 0);
	FUZZ_CHECK(s->size != 0 && s->size % ARA_ELF_PAGE_SIZE == 0);
	FUZZ_CHECK(s->nobits || ara_elf_range_ok(s->offset, s->size, file_size));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char interp[ARA_ELF_INTERP_MAX];
	const struct ara_elf_src src = { .mem = data, .size = size };
	struct ara_elf_gate gate;
	const char *section = NULL;

	if (ara_elf_app_interp(&src, interp) == ARA_ELF_OK)
		FUZZ_CHECK(interp[0] == '/' &&
			   memchr(interp, '\0', sizeof(interp)) != NULL);
	FUZZ_CHECK(ara_elf_app_runs_after_ara(&src) <= ARA_ELF_E_NEEDED_PATH);
	FUZZ_CHECK(ara_elf_libraries_from_system(&src) <= ARA_ELF_E_NEEDED_PATH);
	if (ara_elf_gate(&src, &gate, &section) == ARA_ELF_OK) {
		FUZZ_CHECK(section == NULL && !gate.text.nobits);
		check_region(&gate.text, size);
		check_region(&gate.data, size);
	}
	return 0;
}
