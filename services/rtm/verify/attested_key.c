/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The key that signs a run's RTM documents, learnt from the run's own
 * evidence: the instance's ATTEST for a CHALLENGE made of the verifier's
 * nonce, checked against a provisioning policy exactly as ara-provision
 * checks it (services/provision/server/check.c): the evidence backend, its
 * freshness, the measured loader, libara, entry object and App, and the
 * instance key's signature over this challenge.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "attested_key.h"
#include "check.h"
#include "policy.h"
#include "wire.h"

enum ara_attested_key_result ara_verify_attested_key(const char *policy_path,
						     const uint8_t nonce[ARA_WIRE_NONCE],
						     const uint8_t *attest, size_t attest_len,
						     struct ara_attested_key *out, char *why,
						     size_t why_cap)
{
	static struct ara_policy policy; /* large: secrets */
	uint8_t challenge[64];
	size_t challenge_len;
	struct ara_wire_attest a;
	char reason[256];
	int r;

	switch (ara_policy_load(policy_path, &policy, why, why_cap)) {
	case 0: break;
	case ARA_POLICY_UNREADABLE: return ARA_ATTESTED_KEY_UNREADABLE;
	default: return ARA_ATTESTED_KEY_ERROR;
	}
	if (ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &challenge_len) !=
	    ARA_WIRE_OK) {
		memset(&policy, 0, sizeof(policy));
		snprintf(why, why_cap, "cannot encode the CHALLENGE");
		return ARA_ATTESTED_KEY_ERROR;
	}
	r = ara_check_instance(&policy, challenge, challenge_len, attest, attest_len,
			       (uint64_t)time(NULL), &a, reason, sizeof(reason));
	memset(&policy, 0, sizeof(policy)); /* the policy's secrets are not ours to keep */
	if (r) {
		snprintf(why, why_cap, "the attestation is refused (%s): %s", ara_refusal_name(r),
			 reason);
		return ARA_ATTESTED_KEY_REFUSED;
	}
	memcpy(out->instance_pub, a.instance_pub, sizeof(out->instance_pub));
	memcpy(out->app_sha256, a.digests.app, sizeof(out->app_sha256));
	return ARA_ATTESTED_KEY_OK;
}
