/* SPDX-License-Identifier: Apache-2.0 */
/* The dev-insecure evidence backend (dev_evidence.h): INSECURE by design. */
#include <mbedtls/platform_util.h>
#include <mbedtls/sha256.h>
#include <string.h>

#include "dev_evidence.h"
#include "hpke.h"
#include "p256.h"

static const uint8_t header[8] = { 'A', 'R', 'A', 'D', 0, 1, 0, 0 };

/* SHA-256 of the label, its NUL and the binding: what the key signs. */
static int signed_hash(const uint8_t binding[32], uint8_t out[32])
{
	uint8_t m[sizeof(ARA_DEV_INSECURE_LABEL) + 32];

	memcpy(m, ARA_DEV_INSECURE_LABEL, sizeof(ARA_DEV_INSECURE_LABEL));
	memcpy(m + sizeof(ARA_DEV_INSECURE_LABEL), binding, 32);
	return mbedtls_sha256(m, sizeof(m), out, 0) ? -1 : 0;
}

static int dev_key(uint8_t sk[ARA_HPKE_NSK], uint8_t pk[ARA_HPKE_NPK])
{
	return ara_hpke_derive_keypair((const uint8_t *)ARA_DEV_INSECURE_KEY_SEED,
				       sizeof(ARA_DEV_INSECURE_KEY_SEED) - 1, sk, pk);
}

int ara_dev_insecure_evidence(const uint8_t binding[32],
			      uint8_t out[ARA_DEV_INSECURE_EVIDENCE_BYTES])
{
	uint8_t sk[ARA_HPKE_NSK], pk[ARA_HPKE_NPK], h[32];
	int r = ARA_DEV_INSECURE_E_CRYPTO;

	memcpy(out, header, sizeof(header));
	if (!dev_key(sk, pk) && !signed_hash(binding, h) &&
	    !ara_p256_sign(sk, h, out + sizeof(header)))
		r = ARA_DEV_INSECURE_OK;
	/* Not a secret worth the name, but a key all the same. */
	mbedtls_platform_zeroize(sk, sizeof(sk));
	return r;
}

int ara_dev_insecure_verify(const uint8_t *evidence, size_t len, const uint8_t binding[32])
{
	uint8_t sk[ARA_HPKE_NSK], pk[ARA_HPKE_NPK], h[32];
	int r;

	if (len != ARA_DEV_INSECURE_EVIDENCE_BYTES || memcmp(evidence, header, sizeof(header)) != 0)
		return ARA_DEV_INSECURE_E_FORMAT;
	if (dev_key(sk, pk) || signed_hash(binding, h))
		r = ARA_DEV_INSECURE_E_CRYPTO;
	else if (ara_p256_verify(pk, h, evidence + sizeof(header)))
		r = ARA_DEV_INSECURE_E_SIGNATURE;
	else
		r = ARA_DEV_INSECURE_OK;
	mbedtls_platform_zeroize(sk, sizeof(sk));
	return r;
}
