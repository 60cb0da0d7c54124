/* SPDX-License-Identifier: Apache-2.0 */
/* Hashes that bind a provisioning session together (binding.h). */
#include <mbedtls/sha256.h>
#include <string.h>

#include "binding.h"
#include "p256.h"

#define BINDING_LABEL "ARA-PROVISION-v1 binding"
#define SESSION_LABEL "ARA-PROVISION-v1 session"
#define PROVISIONER_LABEL "ARA-PROVISION-v1 provisioner"
#define MODULE_LABEL "ARA-PROVISION-v1 for a module"

/* SHA-256 of a label (with its NUL) and up to two byte strings. */
static int labelled(const char *label, size_t label_size, const uint8_t *a, size_t a_len,
		    const uint8_t *b, size_t b_len, uint8_t out[32])
{
	mbedtls_sha256_context c;
	int r;

	mbedtls_sha256_init(&c);
	r = mbedtls_sha256_starts(&c, 0) ||
	    mbedtls_sha256_update(&c, (const uint8_t *)label, label_size) ||
	    mbedtls_sha256_update(&c, a, a_len) || mbedtls_sha256_update(&c, b, b_len) ||
	    mbedtls_sha256_finish(&c, out);
	mbedtls_sha256_free(&c);
	return r ? -1 : 0;
}

int ara_provision_binding(const struct ara_wire_attest *a, uint8_t out[32])
{
	/* backend, issued_at (big-endian), instance key, five digests */
	uint8_t bound[1 + 8 + ARA_WIRE_POINT + sizeof(struct ara_wire_digests)];
	size_t at = 0;

	bound[at++] = a->backend;
	for (int shift = 56; shift >= 0; shift -= 8)
		bound[at++] = (uint8_t)(a->issued_at >> shift);
	memcpy(bound + at, a->instance_pub, ARA_WIRE_POINT);
	at += ARA_WIRE_POINT;
	memcpy(bound + at, &a->digests, sizeof(a->digests)); /* five byte arrays: no padding */
	return labelled(BINDING_LABEL, sizeof(BINDING_LABEL), bound, sizeof(bound), NULL, 0, out);
}

int ara_provision_session_hash(const uint8_t *challenge, size_t challenge_len,
			       const uint8_t *attest, size_t attest_signed_len, uint8_t out[32])
{
	return labelled(SESSION_LABEL, sizeof(SESSION_LABEL), challenge, challenge_len, attest,
			attest_signed_len, out);
}

int ara_provision_module_hash(const uint8_t digest[32], uint8_t out[32])
{
	return labelled(MODULE_LABEL, sizeof(MODULE_LABEL), digest, 32, NULL, 0, out);
}

int ara_provision_hpke_info(const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
			    size_t attest_len, uint8_t out[ARA_HPKE_INFO_BYTES])
{
	mbedtls_sha256_context c;
	int r;

	memcpy(out, ARA_HPKE_INFO_LABEL, sizeof(ARA_HPKE_INFO_LABEL));
	mbedtls_sha256_init(&c);
	r = mbedtls_sha256_starts(&c, 0) || mbedtls_sha256_update(&c, challenge, challenge_len) ||
	    mbedtls_sha256_update(&c, attest, attest_len) ||
	    mbedtls_sha256_finish(&c, out + sizeof(ARA_HPKE_INFO_LABEL));
	mbedtls_sha256_free(&c);
	return r ? -1 : 0;
}

/* What the provisioner signs: the transcript's hash (info's) and the DELIVER before its signature. */
static int deliver_hash(const uint8_t info[ARA_HPKE_INFO_BYTES], const uint8_t *msg,
			size_t signed_len, uint8_t out[32])
{
	return labelled(PROVISIONER_LABEL, sizeof(PROVISIONER_LABEL),
			info + sizeof(ARA_HPKE_INFO_LABEL), 32, msg, signed_len, out);
}

int ara_provision_sign_deliver(const uint8_t sk[32], const uint8_t info[ARA_HPKE_INFO_BYTES],
			       uint8_t *msg, size_t len)
{
	uint8_t hash[32], sig[ARA_WIRE_SIG];

	if (len < ARA_WIRE_HEADER + ARA_WIRE_SIG ||
	    deliver_hash(info, msg, len - ARA_WIRE_SIG, hash) || ara_p256_sign(sk, hash, sig))
		return -1;
	ara_wire_set_sig(msg, len, sig);
	return 0;
}

int ara_provision_verify_deliver(const uint8_t pk[ARA_WIRE_POINT],
				 const uint8_t info[ARA_HPKE_INFO_BYTES], const uint8_t *msg,
				 const struct ara_wire_deliver *d)
{
	uint8_t hash[32];

	if (!d->sig || deliver_hash(info, msg, d->signed_len, hash))
		return -1;
	return ara_p256_verify(pk, hash, d->sig);
}
