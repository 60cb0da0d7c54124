/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ECDSA over P-256 with SHA-256, on raw keys: a 32-byte scalar, a 65-byte
 * uncompressed point, a 64-byte r || s signature. Signatures are
 * deterministic (RFC 6979), so signing needs no random source; the scalar
 * multiplication is still blinded, with a DRBG seeded from the key and the
 * hash. No libc beyond memcpy/memset: DOM0 links it too.
 */
#ifndef ARA_PROVISION_P256_H
#define ARA_PROVISION_P256_H

#include <stdint.h>

#define ARA_P256_SK 32
#define ARA_P256_PK 65
#define ARA_P256_SIG 64

/* 0, or -1 if sk is not a valid scalar or mbedtls fails. */
int ara_p256_sign(const uint8_t sk[ARA_P256_SK], const uint8_t hash[32], uint8_t sig[ARA_P256_SIG]);

/* 0 if sig is pk's signature of hash; -1 for anything else, a bad point included. */
int ara_p256_verify(const uint8_t pk[ARA_P256_PK], const uint8_t hash[32],
		    const uint8_t sig[ARA_P256_SIG]);

/* 0 if pk is a point on the curve (not the identity). */
int ara_p256_check_public(const uint8_t pk[ARA_P256_PK]);

#endif
