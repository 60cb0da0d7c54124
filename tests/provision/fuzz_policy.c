/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the provisioner's policy parser
 * (services/provision/server/policy.c). For any text: no crash, no read
 * outside it; a refused policy leaves no secret behind and a reason; an
 * accepted one accepts some backend and, for tpm, has an attestation key.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "policy.h"

static struct ara_policy policy;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[256] = "";
	static const uint8_t zero_key[ARA_TPM_AK_PUB_LEN];

	FUZZ_CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	if (ara_policy_parse("fuzz.policy", text, size, &policy, why, sizeof(why)) == 0) {
		FUZZ_CHECK(policy.backends != 0 && policy.max_age > 0);
		FUZZ_CHECK(!(policy.backends & 1u << ARA_EVIDENCE_TPM) ||
			   memcmp(policy.tpm.ak_pub, zero_key, sizeof(zero_key)) != 0);
	} else {
		FUZZ_CHECK(policy.n_secrets == 0 && why[0] != '\0');
	}
	ara_policy_wipe(&policy);
	free(text);
	return 0;
}
