/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A module's internal functions (ARA_SVC_INTERNAL, ara/service.h) are not
 * the App's: secure_call on their IDs gets exactly what an unknown ID gets
 * (ARA_E_NOFUNC), here provisioning's, which give the instance key's public
 * half and sign with it for the RTM (provision_calls.h). Run with
 * an instance (ARA_EVIDENCE=dev-insecure), where they would answer
 * otherwise; against internal-exposed (tests/variants), whose gate table
 * holds them, the App reaches them and says so (REACHED).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "provision_calls.h"

int main(void)
{
	static const struct {
		uint32_t fid;
		const char *name;
	} internal[] = {
		{ ARA_FID_PROVISION_INSTANCE, "provision_instance" },
		{ ARA_FID_PROVISION_SIGN, "provision_sign" },
	};
	unsigned char arg[1024]; /* ara/service.h's ARA_SVC_ARG_MAX: any argument fits */
	unsigned int failures = 0;
	int unknown;

	memset(arg, 0, sizeof(arg));
	unknown = secure_call(ARA_FID(ARA_MODULE_RTS, 0x7ff), arg);
	if (unknown != ARA_E_NOFUNC) {
		printf("FAIL: an unknown fid: %s (%d)\n", ara_strerror(unknown), unknown);
		return 1;
	}
	for (size_t i = 0; i < sizeof(internal) / sizeof(internal[0]); i++) {
		int st;

		memset(arg, 0, sizeof(arg));
		st = secure_call(internal[i].fid, arg);
		printf("%s (0x%x): %s (%d)\n", internal[i].name, internal[i].fid, ara_strerror(st), st);
		if (st != unknown) {
			failures++;
			printf("REACHED: the App called the internal function %s\n", internal[i].name);
		}
	}
	printf("ara-evidence: internal-calls: %zu internal functions, %u reached by the App\n",
	       sizeof(internal) / sizeof(internal[0]), failures);
	return failures ? 1 : 0;
}
