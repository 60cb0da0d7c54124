/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The algorithms ARA takes from mbedtls 3.6, shared by both configurations
 * (ara_tools_config.h, ara_dom0_config.h) so that the tools and DOM0 can
 * never disagree on what a key, hash or signature is. Only the legacy
 * (mbedtls_*) API: the PSA layer is not built.
 */
#ifndef ARA_MBEDTLS_ALGORITHMS_H
#define ARA_MBEDTLS_ALGORITHMS_H

/* Hashes, HMAC and HKDF: measurements and key derivation. */
#define MBEDTLS_MD_C
#define MBEDTLS_SHA256_C
#define MBEDTLS_HKDF_C

/* AES-GCM. ROM tables: the tables are constants in .rodata instead of
 * being computed at first use into writable static memory, which no lock
 * guards (MBEDTLS_THREADING_C is off). */
#define MBEDTLS_AES_C
#define MBEDTLS_AES_ROM_TABLES
#define MBEDTLS_GCM_C
#define MBEDTLS_CIPHER_MODE_CTR /* services/rts/cenc_sample.c: ISO 23001-7 cenc */

/* Random bit generators, seeded from the entropy collector; HMAC_DRBG also
 * makes ECDSA signatures deterministic (RFC 6979). */
#define MBEDTLS_ENTROPY_C
#define MBEDTLS_CTR_DRBG_C
#define MBEDTLS_HMAC_DRBG_C

/* ECDSA and ECDH on P-256 only. */
#define MBEDTLS_BIGNUM_C
#define MBEDTLS_ECP_C
#define MBEDTLS_ECP_DP_SECP256R1_ENABLED
#define MBEDTLS_ECP_NIST_OPTIM
#define MBEDTLS_ECDH_C
#define MBEDTLS_ECDSA_C
#define MBEDTLS_ECDSA_DETERMINISTIC

/* EC keys as DER (SEC1, SubjectPublicKeyInfo, PKCS#8). */
#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_ASN1_WRITE_C
#define MBEDTLS_OID_C
#define MBEDTLS_PK_C
#define MBEDTLS_PK_PARSE_C
#define MBEDTLS_PK_WRITE_C

/* Bignum assembly (general-purpose registers only on arm64). */
#define MBEDTLS_HAVE_ASM

/* Our code must not use what the next major version removes. */
#define MBEDTLS_DEPRECATED_REMOVED

#endif
