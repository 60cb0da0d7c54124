/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's gate append (ara_rtm_append, entry/gate.S) stores entries into
 * DOM0's log without reaching DOM0's C code, so its landing must check
 * what it stores as RTM_LOG does: App code that hands it a forged value
 * (an unknown kind, kind 0, an address above user space) would otherwise
 * put into the signed log an entry no hook makes, which the verifier reads
 * as a transfer (and a 0 would be a slot the seal waits for for ever).
 *
 * The App logs one good entry (the log is made), then the forged ones,
 * then good ones until DOM0 seals the segment, exports it and looks for
 * any entry that is not one. Under ARA each forged append is refused
 * (ARA_E_INVAL, counted) and the segment holds good entries only; the
 * twin, against the entry object without the landing's check
 * (no-rtm-entry-check), finds the forged values in the exported segment.
 *
 * usage: attack_rtm_append
 */
#include <inttypes.h>
#include <stdio.h>

#include "ara/ara.h"
#include "ara/rtm.h"

static uint64_t segment[ARA_RTM_SEGMENT_ENTRIES];

static int is_entry(uint64_t e)
{
	const uint64_t kind = e >> ARA_RTM_KIND_SHIFT;

	return kind >= ARA_RTM_ICALL && kind <= ARA_RTM_IJMP &&
	       (e & ARA_RTM_ADDR_MASK) < (UINT64_C(1) << 48);
}

int main(void)
{
	const uint64_t forged[] = {
		(UINT64_C(7) << ARA_RTM_KIND_SHIFT) | 0x400000,		   /* an unknown kind */
		0x400000,						   /* kind 0 */
		ara_rtm_entry(ARA_RTM_RET, (UINT64_C(1) << 50) | 0x1000), /* above user space */
	};
	const uint64_t good = ara_rtm_entry(ARA_RTM_RET, 0x400000);
	struct ara_rtm_export_arg e = { .segment = (uintptr_t)segment };
	unsigned int refused = 0, found = 0;
	uint64_t n;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if ((st = ara_rtm_append(good)) != ARA_OK) {
		printf("FAIL: the first append: %s\n", ara_strerror(st));
		return 1;
	}
	for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		st = ara_rtm_append(forged[i]);
		if (st == ARA_E_INVAL)
			refused++;
		else
			printf("the forged entry 0x%016" PRIx64 " was not refused: %s\n", forged[i],
			       ara_strerror(st));
	}
	for (n = 0; (st = ara_rtm_append(good)) == ARA_OK; n++)
		if (n > 2 * ARA_RTM_SEGMENT_ENTRIES) {
			printf("FAIL: no segment sealed\n");
			return 1;
		}
	if (st != ARA_RTM_SEGMENT_READY) {
		printf("FAIL: append: %s\n", ara_strerror(st));
		return 1;
	}
	if ((st = secure_call(ARA_FID_RTM_EXPORT, &e)) != ARA_OK) {
		printf("FAIL: RTM_EXPORT: %s\n", ara_strerror(st));
		return 1;
	}
	for (uint64_t i = 0; i < ARA_RTM_SEGMENT_ENTRIES; i++)
		if (!is_entry(segment[i])) {
			printf("BREACH: the log holds a forged entry 0x%016" PRIx64 " (slot %" PRIu64
			       ")\n", segment[i], i);
			found++;
		}
	printf("ara-evidence: rtm-append: %u of %zu forged entries refused by the gate's append, "
	       "%u in the sealed segment\n",
	       refused, sizeof(forged) / sizeof(forged[0]), found);
	return found || refused != sizeof(forged) / sizeof(forged[0]);
}
