/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seals ARA's ranges (mseal(2), Linux 6.10 and later; arm64 since 6.12's
 * CONFIG_64BIT): once sealed, no call can unmap, move, grow, shrink, remap
 * over or re-protect them (munmap, mremap, mmap(MAP_FIXED), shmat with
 * SHM_REMAP, mprotect, pkey_mprotect, brk), whatever the call and whoever
 * makes it, DOM0 included. This is the wall that does not depend on a list
 * of mapping calls; the filter's range block stays as the second one
 * (docs/kernel-access.md says what each covers: mseal does not stop
 * madvise on private file mappings, MADV_DODUMP or MADV_KEEPONFORK, for
 * instance).
 *
 * So it runs after the last change DOM0 makes to a range, and leaves
 * unsealed the one range DOM0 changes at run time: the staging window of
 * code made executable by App code (code_map.c), which DOM0 maps into and moves
 * out of with every such call. Only the filter guards that window.
 *
 * Fail closed: ARA requires a kernel with mseal; if a call fails,
 * initialisation fails.
 */
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "sys.h"

#ifdef ARA_TEST_VARIANT_NO_SEAL
void ara_seal_ranges(uint64_t unsealed_start)
{
	(void)unsealed_start; /* neither wall: the variant also has no filter */
}
#else
static uint64_t counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static uint64_t counter_hz(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

/* What sealing cost at start-up, under ARA_VERBOSE=1 (docs/performance.md). */
static void report(unsigned int sealed, uint64_t ticks)
{
	const uint64_t hz = counter_hz();
	struct ara_msg m = { .len = 0 };

	ara_msg_str(&m, "ara: sealed ");
	ara_msg_dec(&m, (long)sealed);
	ara_msg_str(&m, " ARA range(s) with mseal in ");
	ara_msg_dec(&m, hz ? (long)(ticks * 1000000u / hz) : -1);
	ara_msg_str(&m, " us\n");
	ara_msg_emit(&m);
}

void ara_seal_ranges(uint64_t unsealed_start)
{
	const uint64_t t0 = counter();
	unsigned int sealed = 0;

	for (size_t i = 0; i < ara_protected.n; i++) {
		const struct ara_region *r = &ara_protected.r[i];
		long rc;

		if (r->start == unsealed_start)
			continue;
		rc = ara_sys3(__NR_mseal, r->start, r->end - r->start, 0);
		if (rc != 0)
			ara_fatal("mseal of an ARA range failed (ARA needs Linux 6.12's mseal)", rc);
		sealed++;
	}
	if (ara_verbose)
		report(sealed, counter() - t0);
}
#endif
