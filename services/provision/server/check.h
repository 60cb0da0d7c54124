/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's decision on one ATTEST: every check the policy
 * requires, in an order that reports the first failure that matters
 * (docs/provisioning.md, "What the provisioner checks").
 */
#ifndef ARA_PROVISION_CHECK_H
#define ARA_PROVISION_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "wire.h"

/*
 * Everything ara_check_attest checks but the secret: that the ATTEST answers
 * this challenge and attests, with evidence the policy accepts, an ARA
 * instance key bound to the measured digests. ara-verify uses it to learn
 * the key that signs RTM reports (docs/rtm.md). 0, or an enum ara_refusal.
 */
int ara_check_instance(const struct ara_policy *p, const uint8_t *challenge, size_t challenge_len,
		       const uint8_t *attest, size_t attest_len, uint64_t now,
		       struct ara_wire_attest *a, char *why, size_t why_cap);

/*
 * challenge and attest are the two messages of the session as sent and
 * received; now is the provisioner's clock (seconds since the epoch).
 * Returns 0 with *a decoded and *secret the one to deliver, or an enum
 * ara_refusal with one line in why.
 */
int ara_check_attest(const struct ara_policy *p, const uint8_t *challenge, size_t challenge_len,
		     const uint8_t *attest, size_t attest_len, uint64_t now,
		     struct ara_wire_attest *a, const struct ara_policy_secret **secret, char *why,
		     size_t why_cap);

/* A refusal code's name, for logs: "stale", "session", ... */
const char *ara_refusal_name(int code);

#endif
