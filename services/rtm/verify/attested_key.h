/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_VERIFY_ATTESTED_KEY_H
#define ARA_VERIFY_ATTESTED_KEY_H

#include <stddef.h>
#include <stdint.h>

struct ara_attested_key {
	uint8_t instance_pub[65]; /* signs the run's reports and checkpoints */
	uint8_t app_sha256[32];	  /* the App the evidence measured */
};

enum ara_attested_key_result {
	ARA_ATTESTED_KEY_OK = 0,
	ARA_ATTESTED_KEY_REFUSED = 1, /* the ATTEST does not pass the policy */
	ARA_ATTESTED_KEY_ERROR = 2,   /* no decision: the policy is malformed */
	ARA_ATTESTED_KEY_UNREADABLE = 3, /* no decision: the policy file cannot be read */
};

/*
 * Checks the ATTEST (attest_len bytes) answering a CHALLENGE of nonce under
 * the ara-provision policy file policy_path: OK with *out filled, or
 * another result with one line in why.
 */
enum ara_attested_key_result ara_verify_attested_key(const char *policy_path,
						     const uint8_t nonce[32], const uint8_t *attest,
						     size_t attest_len, struct ara_attested_key *out,
						     char *why, size_t why_cap);

#endif
