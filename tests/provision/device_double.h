/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test double of the device's side of a session: the ATTEST a genuine
 * instance makes with the dev-insecure backend (the same wire, binding and
 * signature code DOM0 runs, without DOM0). For the host tests of the
 * provisioner's checks and of the service.
 */
#ifndef ARA_TESTS_DEVICE_DOUBLE_H
#define ARA_TESTS_DEVICE_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#include "dev_evidence.h"
#include "wire.h"

struct device_double {
	uint8_t sk[32], pub[65], share_sk[32], share_pub[65];
	struct ara_wire_attest a;
	uint8_t evidence[ARA_DEV_INSECURE_EVIDENCE_BYTES];
};

/* The key pair of a seed (every byte of the IKM): 0, or -1. */
int device_double_keypair(uint8_t seed, uint8_t sk[32], uint8_t pk[65]);

/*
 * The ATTEST for challenge that asks for the secret name, with these
 * digests, made at issued_at, into msg (cap bytes). 0, or -1.
 */
int device_double_attest(struct device_double *d, const struct ara_wire_digests *digests,
			 const char *name, uint64_t issued_at, const uint8_t *challenge,
			 size_t challenge_len, uint8_t *msg, size_t cap, size_t *msg_len);

#endif
