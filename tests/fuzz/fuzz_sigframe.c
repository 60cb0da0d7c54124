/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the signal frame records (libara/src/sigframe.c), which
 * ARA reads from frames App code wrote. The input fills the frame's record
 * area. Properties, for any input:
 *   - neither function touches anything outside the frame (ASan: the frame
 *     is a heap block of its exact size);
 *   - a refused frame is left unchanged;
 *   - after ara_sigframe_set_por succeeds, ara_sigframe_get_por reads back
 *     the row set, every byte outside the record area is unchanged, and a
 *     second set changes nothing more (it found the record it added);
 *   - ara_sigframe_get_por fails exactly when set would have to refuse the
 *     frame or add the record;
 *   - ara_sigframe_used is 0 exactly when set refuses the list itself, else
 *     it lies within the frame and ends with a terminator's zero head.
 */
#include <string.h>

#include "fuzz_check.h"
#include "sigframe.h"

#define ROW 0x207u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ara_rt_sigframe *f = malloc(sizeof(*f)), *before = malloc(sizeof(*f));
	const size_t n = size < ARA_SIGCONTEXT_RESERVED ? size : ARA_SIGCONTEXT_RESERVED;
	enum ara_sigframe_result got_before, set;
	uint64_t por = 0;
	size_t used;

	FUZZ_CHECK(f && before);
	memset(f, 0xa5, sizeof(*f)); /* everything outside the records: a known pattern */
	memset(f->uc.uc_mcontext.reserved, 0, ARA_SIGCONTEXT_RESERVED);
	memcpy(f->uc.uc_mcontext.reserved, data, n);
	memcpy(before, f, sizeof(*f));

	got_before = ara_sigframe_get_por(f, &por);
	FUZZ_CHECK(memcmp(f, before, sizeof(*f)) == 0);
	used = ara_sigframe_used(f);
	FUZZ_CHECK(memcmp(f, before, sizeof(*f)) == 0);
	set = ara_sigframe_set_por(f, ROW);
	FUZZ_CHECK(got_before != ARA_SIGFRAME_OK || set == ARA_SIGFRAME_OK);
	FUZZ_CHECK((used == 0) == (set == ARA_SIGFRAME_MALFORMED || set == ARA_SIGFRAME_EXTRA));
	if (used != 0) {
		uint64_t head;

		FUZZ_CHECK(used >= ARA_SIGFRAME_RECORDS + 8 && used <= sizeof(*f));
		memcpy(&head, (const uint8_t *)before + used - 8, 8);
		FUZZ_CHECK(head == 0);
	}
	if (set != ARA_SIGFRAME_OK) {
		FUZZ_CHECK(memcmp(f, before, sizeof(*f)) == 0);
		FUZZ_CHECK(got_before != ARA_SIGFRAME_OK);
	} else {
		FUZZ_CHECK(ara_sigframe_get_por(f, &por) == ARA_SIGFRAME_OK && por == ROW);
		FUZZ_CHECK(memcmp(f, before, offsetof(struct ara_rt_sigframe, uc.uc_mcontext.reserved)) ==
			   0);
		memcpy(before, f, sizeof(*f));
		FUZZ_CHECK(ara_sigframe_set_por(f, ROW) == ARA_SIGFRAME_OK);
		FUZZ_CHECK(memcmp(f, before, sizeof(*f)) == 0);
	}
	free(f);
	free(before);
	return 0;
}
