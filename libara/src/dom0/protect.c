/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tagging ARA's ranges with their domains' keys, and recording the DOM0 and
 * DOM1 ones in ara_protected (state.c), at initialisation.
 */
#include "ara/domains.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "sys.h"

void ara_tag(uint64_t start, uint64_t len, int prot, unsigned int pkey)
{
#ifdef ARA_TEST_VARIANT_NO_DOM0_KEY
	/*
	 * DOM0's data (read-only data, data, heap, stacks, the gate's control
	 * block) stays on the App's key, libara's read-only data on DOM1's key
	 * too. Code keeps its key: DOM0's row cannot execute key 0, and its
	 * code holds no secret.
	 */
	if ((pkey == ARA_PKEY_DOM0 || pkey == ARA_PKEY_DOM1) && !(prot & PROT_EXEC))
		pkey = ARA_PKEY_DOM2;
#endif
	long r = ara_sys4(__NR_pkey_mprotect, start, len, prot, pkey);

	if (r != 0)
		ara_fatal("pkey_mprotect failed", r);
}

/*
 * Tags an ARA range with its domain's key, keeps it out of core dumps, and
 * records it for the filter (ara/seccomp_ranges.h), which then refuses App
 * code's madvise on it (MADV_DODUMP, MADV_KEEPONFORK included).
 */
void ara_protect(uint64_t start, uint64_t len, int prot, enum ara_domain_id domain)
{
	ara_tag(start, len, prot, ara_domain_table[domain].pkey);
#ifndef ARA_TEST_VARIANT_NO_FORK_GUARD
	long r = ara_sys3(__NR_madvise, start, len, MADV_DONTDUMP);

	if (r != 0)
		ara_fatal("madvise(MADV_DONTDUMP) of an ARA range failed", r);
#endif
	if (ara_regions_add(&ara_protected, start, start + len, domain))
		ara_fatal("too many protected regions", (long)ara_protected.n);
}
