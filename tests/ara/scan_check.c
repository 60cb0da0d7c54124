/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IV1 in the running process: this App's text holds POR_EL0 writes in every
 * encoding form (por_sites.S). By the time main runs, ARA must have turned
 * every one into a NOP and left the fence words on both sides untouched;
 * ARA_FID_INFO must count them among the writes it neutralised.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "ara/ara.h"

#define NOP 0xd503201fu
#define MRS_POR_EL0_X0 0xd53ba280u
#define MSR_S3_3_C10_C2_5_X0 0xd51ba2a0u

extern const uint32_t ara_test_por_fence_before[], ara_test_por_sites[], ara_test_por_sites_end[];
extern const uint32_t ara_test_por_fence_after[];

int main(void)
{
	size_t sites = (size_t)(ara_test_por_sites_end - ara_test_por_sites), nops = 0;
	struct ara_info_arg info = { 0 };
	int failed = 0;

	for (size_t i = 0; i < sites; i++) {
		if (ara_test_por_sites[i] == NOP)
			nops++;
		else
			printf("FAIL: site %zu still holds 0x%08x\n", i, ara_test_por_sites[i]);
	}
	if (ara_test_por_fence_before[0] != MRS_POR_EL0_X0 ||
	    ara_test_por_fence_after[0] != MSR_S3_3_C10_C2_5_X0) {
		printf("FAIL: a fence word changed: 0x%08x 0x%08x\n", ara_test_por_fence_before[0],
		       ara_test_por_fence_after[0]);
		failed = 1;
	}
	if (secure_call(ARA_FID_INFO, &info) != ARA_OK || info.patched_writes < sites) {
		printf("FAIL: ARA reports %" PRIu64 " neutralised writes, this App alone has %zu\n",
		       info.patched_writes, sites);
		failed = 1;
	}
	printf("ara-evidence: scan-check: %zu of %zu POR_EL0 writes in the App's text are NOPs, "
	       "fences intact: %s; ARA neutralised %" PRIu64 " in the process\n",
	       nops, sites, failed ? "no" : "yes", info.patched_writes);
	return (failed || nops != sites) ? 1 : 0;
}
