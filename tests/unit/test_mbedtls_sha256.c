/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer and round-trip tests of the mbedtls build (cmake/AraMbedtls.cmake).
 * Compiled twice: against ara_mbedcrypto (test_mbedtls_sha256) and, on arm64,
 * against ara_dom0_mbedcrypto with stand-in DOM0 hooks (test_mbedtls_dom0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mbedtls/ctr_drbg.h"
#include "mbedtls/ecdsa.h"
#include "mbedtls/entropy.h"
#include "mbedtls/hmac_drbg.h"
#include "mbedtls/md.h"
#include "mbedtls/sha256.h"

static void sha256_of(const char *msg, uint8_t out[32])
{
	assert_int_equal(mbedtls_sha256((const unsigned char *)msg, strlen(msg), out, 0), 0);
}

/* FIPS 180-4 example, one block. */
static void sha256_abc(void **state)
{
	static const uint8_t want[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
		0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	uint8_t got[32];

	(void)state;
	sha256_of("abc", got);
	assert_memory_equal(got, want, sizeof(want));
}

/* The empty message: padding alone. */
static void sha256_empty(void **state)
{
	static const uint8_t want[32] = {
		0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
		0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
	};
	uint8_t got[32];

	(void)state;
	sha256_of("", got);
	assert_memory_equal(got, want, sizeof(want));
}

/* One million 'a' (NIST), fed in 1000-byte pieces: the streaming API, with
 * pieces that straddle the 64-byte blocks. */
static void sha256_million_a(void **state)
{
	static const uint8_t want[32] = {
		0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e, 0x67,
		0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0,
	};
	unsigned char piece[1000];
	mbedtls_sha256_context ctx;
	uint8_t got[32];

	(void)state;
	memset(piece, 'a', sizeof(piece));
	mbedtls_sha256_init(&ctx);
	assert_int_equal(mbedtls_sha256_starts(&ctx, 0), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(mbedtls_sha256_update(&ctx, piece, sizeof(piece)), 0);
	assert_int_equal(mbedtls_sha256_finish(&ctx, got), 0);
	mbedtls_sha256_free(&ctx);
	assert_memory_equal(got, want, sizeof(want));
}

/* ECDSA P-256: a key pair and a signature from a fixed-seed HMAC_DRBG (the
 * test is reproducible), verified; a changed hash is refused. */
static void ecdsa_p256_sign_verify(void **state)
{
	static const unsigned char seed[] = "ara test_mbedtls ecdsa fixed seed";
	const mbedtls_md_info_t *sha256 = mbedtls_md_info_from_type(MBEDTLS_MD_SHA256);
	unsigned char sig[MBEDTLS_ECDSA_MAX_LEN];
	mbedtls_hmac_drbg_context drbg;
	mbedtls_ecdsa_context key;
	uint8_t hash[32];
	size_t sig_len = 0;

	(void)state;
	assert_non_null(sha256);
	mbedtls_hmac_drbg_init(&drbg);
	mbedtls_ecdsa_init(&key);
	assert_int_equal(mbedtls_hmac_drbg_seed_buf(&drbg, sha256, seed, sizeof(seed)), 0);
	assert_int_equal(mbedtls_ecdsa_genkey(&key, MBEDTLS_ECP_DP_SECP256R1,
					      mbedtls_hmac_drbg_random, &drbg), 0);
	sha256_of("message", hash);
	assert_int_equal(mbedtls_ecdsa_write_signature(&key, MBEDTLS_MD_SHA256, hash, sizeof(hash),
						       sig, sizeof(sig), &sig_len,
						       mbedtls_hmac_drbg_random, &drbg), 0);
	assert_int_equal(mbedtls_ecdsa_read_signature(&key, hash, sizeof(hash), sig, sig_len), 0);
	hash[0] ^= 1;
	assert_int_equal(mbedtls_ecdsa_read_signature(&key, hash, sizeof(hash), sig, sig_len),
			 MBEDTLS_ERR_ECP_VERIFY_FAILED);
	mbedtls_ecdsa_free(&key);
	mbedtls_hmac_drbg_free(&drbg);
}

/* CTR_DRBG seeded from the entropy collector, whose only strong source is
 * getrandom(2) for the tools and mbedtls_hardware_poll() for DOM0: two
 * outputs, both not all zero and different from each other. */
static void ctr_drbg_from_entropy(void **state)
{
	static const uint8_t zero[32];
	mbedtls_ctr_drbg_context drbg;
	mbedtls_entropy_context entropy;
	uint8_t a[32], b[32];

	(void)state;
	mbedtls_entropy_init(&entropy);
	mbedtls_ctr_drbg_init(&drbg);
	assert_int_equal(mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &entropy, NULL, 0), 0);
	assert_int_equal(mbedtls_ctr_drbg_random(&drbg, a, sizeof(a)), 0);
	assert_int_equal(mbedtls_ctr_drbg_random(&drbg, b, sizeof(b)), 0);
	assert_memory_not_equal(a, zero, sizeof(a));
	assert_memory_not_equal(a, b, sizeof(a));
	mbedtls_ctr_drbg_free(&drbg);
	mbedtls_entropy_free(&entropy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sha256_abc),
		cmocka_unit_test(sha256_empty),
		cmocka_unit_test(sha256_million_a),
		cmocka_unit_test(ecdsa_p256_sign_verify),
		cmocka_unit_test(ctr_drbg_from_entropy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
