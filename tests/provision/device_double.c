/* SPDX-License-Identifier: Apache-2.0 */
/* The device's test double (device_double.h). */
#include <string.h>

#include "binding.h"
#include "device_double.h"
#include "hpke.h"
#include "p256.h"

int device_double_keypair(uint8_t seed, uint8_t sk[32], uint8_t pk[65])
{
	uint8_t ikm[32];

	memset(ikm, seed, sizeof(ikm));
	return ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, pk) ? -1 : 0;
}

int device_double_attest(struct device_double *d, const struct ara_wire_digests *digests,
			 const char *name, uint64_t issued_at, const uint8_t *challenge,
			 size_t challenge_len, uint8_t *msg, size_t cap, size_t *msg_len)
{
	uint8_t binding[32], hash[32], sig[64];

	if (device_double_keypair(1, d->sk, d->pub) ||
	    device_double_keypair(2, d->share_sk, d->share_pub))
		return -1;
	d->a = (struct ara_wire_attest){ .backend = ARA_EVIDENCE_DEV_INSECURE,
					 .issued_at = issued_at, .instance_pub = d->pub,
					 .share_pub = d->share_pub, .name = (const uint8_t *)name,
					 .name_len = strlen(name) };
	d->a.digests = *digests;
	if (ara_provision_binding(&d->a, binding) ||
	    ara_dev_insecure_evidence(binding, d->evidence))
		return -1;
	d->a.evidence = d->evidence;
	d->a.evidence_len = sizeof(d->evidence);
	if (ara_wire_encode_attest(&d->a, msg, cap, msg_len) != ARA_WIRE_OK ||
	    ara_provision_session_hash(challenge, challenge_len, msg, d->a.signed_len, hash) ||
	    ara_p256_sign(d->sk, hash, sig))
		return -1;
	ara_wire_attest_set_sig(msg, *msg_len, sig);
	return 0;
}
