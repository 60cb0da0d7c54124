/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the ELF side of ara-verify (services/rtm/verify/
 * elf_image.c, targets.c): any bytes as a module file. No read outside
 * them (ASan: an exact heap copy), and what is derived holds: every
 * target lies in an executable segment (a return site just after a call
 * in one), the sets are sorted without duplicates, a symbol lookup never
 * answers an address above the one asked, and an address maps to a
 * virtual address only through a segment's file bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "targets.h"

static void check_set(const struct ara_rtm_targets *t, const struct ara_rtm_addrs *a,
		      uint64_t back)
{
	for (size_t i = 0; i < a->n; i++) {
		FUZZ_CHECK(i == 0 || a->v[i - 1] < a->v[i]);
		FUZZ_CHECK(ara_rtm_elf_exec_load_of_vaddr(&t->elf, a->v[i] - back) != NULL);
		FUZZ_CHECK(ara_rtm_addrs_has(a, a->v[i]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *m = malloc(size ? size : 1);
	struct ara_rtm_targets t;
	const char *why;

	FUZZ_CHECK(m);
	memcpy(m, data, size);
	if (ara_rtm_targets_build(&t, m, size, &why) == 0) {
		check_set(&t, &t.func, 0);
		check_set(&t, &t.ijmp, 0);
		check_set(&t, &t.ret, 4);
		for (size_t i = 0; i < t.ret.n; i++) {
			const struct ara_rtm_sym *s = ara_rtm_targets_symbol(&t, t.ret.v[i]);

			FUZZ_CHECK(s == NULL || s->addr <= t.ret.v[i]);
		}
		for (uint64_t off = 0; off < size + 16; off += 61) {
			uint64_t vaddr;

			if (ara_rtm_targets_vaddr(&t, 0x1000, 0, 0x1000 + off, &vaddr) == 0)
				FUZZ_CHECK(ara_rtm_elf_load_of_offset(&t.elf, off) != NULL);
		}
		ara_rtm_targets_free(&t);
	} else {
		FUZZ_CHECK(why != NULL && why[0] != '\0');
	}
	free(m);
	return 0;
}
