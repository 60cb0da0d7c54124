/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the provisioner's decision on an ATTEST
 * (services/provision/server/check.c), with a policy that accepts both
 * backends, so that both evidence verifiers see the bytes. For any bytes:
 * no crash, no read outside them, every refusal has a known code and a
 * reason, and nothing is ever accepted (no fuzzer input carries a valid
 * signature by a key the policy trusts over a fresh session).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ara_policy p;
	static const uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE] = { 'A', 'R', 'A', 'P', 1, 1 };
	const struct ara_policy_secret *secret = NULL;
	struct ara_wire_attest a;
	uint8_t *m = malloc(size ? size : 1);
	char why[320] = "";
	int r;

	FUZZ_CHECK(m);
	memcpy(m, data, size);
	p.backends = 1u << ARA_EVIDENCE_DEV_INSECURE | 1u << ARA_EVIDENCE_TPM;
	p.max_age = 86400;
	p.tpm.ak_pub[0] = 4; /* not a point: no tpm evidence verifies */
	r = ara_check_attest(&p, challenge, sizeof(challenge), m, size, 1800000000u, &a, &secret,
			     why, sizeof(why));
	FUZZ_CHECK(r >= ARA_REFUSE_MALFORMED && r <= ARA_REFUSE_INTERNAL);
	FUZZ_CHECK(why[0] != '\0' && secret == NULL);
	free(m);
	return 0;
}
