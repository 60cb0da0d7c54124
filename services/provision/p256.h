/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The P-256 primitives, on raw keys: a 32-byte scalar, a 65-byte
 * uncompressed point, a 64-byte r || s signature; ECDSA with SHA-256 and
 * ECDH (HPKE's DHKEM, hpke.c). Two implementations, chosen at link time:
 * p256.c on mbedtls, which DOM0 and the tools that share its code link
 * (no libc beyond memcpy/memset; deterministic signatures, RFC 6979, so
 * signing needs no random source), and p256_openssl.c on OpenSSL's
 * libcrypto, several times faster, for the provisioning service and its
 * load generator (docs/performance.md). Both give the same answers
 * (tests/unit/test_p256.c); signatures differ, since OpenSSL signs with a
 * random nonce, but each verifies under the other.
 */
#ifndef ARA_PROVISION_P256_H
#define ARA_PROVISION_P256_H

#include <stdint.h>

#define ARA_P256_SK 32
#define ARA_P256_PK 65
#define ARA_P256_SIG 64

enum {
	ARA_P256_E_INPUT = -1,	/* a scalar or point that is not valid */
	ARA_P256_E_CRYPTO = -2, /* the library failed */
};

/* 0, or -1 if sk is not a valid scalar or mbedtls fails. */
int ara_p256_sign(const uint8_t sk[ARA_P256_SK], const uint8_t hash[32], uint8_t sig[ARA_P256_SIG]);

/* 0 if sig is pk's signature of hash; -1 for anything else, a bad point included. */
int ara_p256_verify(const uint8_t pk[ARA_P256_PK], const uint8_t hash[32],
		    const uint8_t sig[ARA_P256_SIG]);

/* 0 if pk is a point on the curve (not the identity). */
int ara_p256_check_public(const uint8_t pk[ARA_P256_PK]);

/* 0 if sk is a valid scalar, in [1, n - 1]. */
int ara_p256_check_secret(const uint8_t sk[ARA_P256_SK]);

/* pk = sk * G: 0, ARA_P256_E_INPUT if sk is not a valid scalar, or ARA_P256_E_CRYPTO. */
int ara_p256_public(const uint8_t sk[ARA_P256_SK], uint8_t pk[ARA_P256_PK]);

/*
 * ECDH: x = the x coordinate of sk * peer. 0, ARA_P256_E_INPUT if sk is not
 * a valid scalar or peer not a point of the curve, or ARA_P256_E_CRYPTO.
 */
int ara_p256_ecdh(const uint8_t sk[ARA_P256_SK], const uint8_t peer[ARA_P256_PK],
		  uint8_t x[32]);

/* Which implementation this program links: "mbedtls" or "openssl". */
const char *ara_p256_backend(void);

#endif
