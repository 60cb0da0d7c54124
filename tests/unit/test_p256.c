/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The P-256 primitives (p256.h), built once per implementation
 * (ARA_P256_EXPECT names it): the link took the one it should, and both
 * give the known answers of RFC 6979 A.2.5 (the key pair; the signature of
 * "sample" with SHA-256, which mbedtls reproduces and both verify) and the
 * same refusals. OpenSSL signs with a random nonce: its signatures are
 * checked by verifying them (here, and by DOM0's mbedtls in the guest's
 * provisioning tests). test_hpke, built for both too, checks ECDH and
 * sk * G against RFC 9180's vectors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ara/hex.h"
#include "p256.h"

/* RFC 6979 A.2.5: the private key x, the public key (Ux, Uy). */
#define X "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
#define U                                                                          \
	"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"       \
	"7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
/* The signature of "sample" with SHA-256, and that hash. */
#define SIG                                                                        \
	"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"         \
	"f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
#define SAMPLE_SHA256 "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf"
/* The group's order n. */
#define N "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"

static void unhex(const char *hex, uint8_t *out, size_t n)
{
	assert_int_equal(ara_hex_decode_lower(hex, strlen(hex), out, n), 0);
}

static void test_backend_linked(void **state)
{
	(void)state;
	assert_string_equal(ara_p256_backend(), ARA_P256_EXPECT);
}

static void test_secret_range(void **state)
{
	uint8_t sk[ARA_P256_SK], pk[ARA_P256_PK];

	(void)state;
	memset(sk, 0, sizeof(sk));
	assert_int_equal(ara_p256_check_secret(sk), ARA_P256_E_INPUT);
	assert_int_equal(ara_p256_public(sk, pk), ARA_P256_E_INPUT);
	unhex(N, sk, sizeof(sk));
	assert_int_equal(ara_p256_check_secret(sk), ARA_P256_E_INPUT);
	sk[ARA_P256_SK - 1]--; /* n - 1 */
	assert_int_equal(ara_p256_check_secret(sk), 0);
	memset(sk, 0xff, sizeof(sk));
	assert_int_equal(ara_p256_check_secret(sk), ARA_P256_E_INPUT);
}

static void test_public_key(void **state)
{
	uint8_t sk[ARA_P256_SK], pk[ARA_P256_PK], want[ARA_P256_PK];

	(void)state;
	unhex(X, sk, sizeof(sk));
	unhex(U, want, sizeof(want));
	assert_int_equal(ara_p256_public(sk, pk), 0);
	assert_memory_equal(pk, want, sizeof(pk));
	assert_int_equal(ara_p256_check_public(pk), 0);
	pk[64] ^= 1; /* off the curve */
	assert_int_not_equal(ara_p256_check_public(pk), 0);
	pk[64] ^= 1;
	pk[0] = 0x06; /* the hybrid form of the same point: not what the wire carries */
	assert_int_not_equal(ara_p256_check_public(pk), 0);
}

static void test_verify_vector(void **state)
{
	uint8_t pk[ARA_P256_PK], hash[32], sig[ARA_P256_SIG];

	(void)state;
	unhex(U, pk, sizeof(pk));
	unhex(SAMPLE_SHA256, hash, sizeof(hash));
	unhex(SIG, sig, sizeof(sig));
	assert_int_equal(ara_p256_verify(pk, hash, sig), 0);
	hash[0] ^= 1;
	assert_int_equal(ara_p256_verify(pk, hash, sig), -1);
	hash[0] ^= 1;
	sig[63] ^= 1;
	assert_int_equal(ara_p256_verify(pk, hash, sig), -1);
	sig[63] ^= 1;
	memset(sig, 0, 32); /* r = 0 */
	assert_int_equal(ara_p256_verify(pk, hash, sig), -1);
	unhex(N, sig, 32); /* r = n */
	assert_int_equal(ara_p256_verify(pk, hash, sig), -1);
}

static void test_sign(void **state)
{
	uint8_t sk[ARA_P256_SK], pk[ARA_P256_PK], hash[32], sig[ARA_P256_SIG], want[ARA_P256_SIG];

	(void)state;
	unhex(X, sk, sizeof(sk));
	unhex(U, pk, sizeof(pk));
	unhex(SAMPLE_SHA256, hash, sizeof(hash));
	unhex(SIG, want, sizeof(want));
	assert_int_equal(ara_p256_sign(sk, hash, sig), 0);
	assert_int_equal(ara_p256_verify(pk, hash, sig), 0);
	if (strcmp(ara_p256_backend(), "mbedtls") == 0)
		assert_memory_equal(sig, want, sizeof(sig)); /* RFC 6979's nonce */
	hash[31] ^= 1;
	assert_int_equal(ara_p256_verify(pk, hash, sig), -1);
	memset(sk, 0, sizeof(sk));
	assert_int_equal(ara_p256_sign(sk, hash, sig), -1);
}

static void test_ecdh(void **state)
{
	uint8_t a[ARA_P256_SK], b[ARA_P256_SK], pa[ARA_P256_PK], pb[ARA_P256_PK];
	uint8_t ab[32], ba[32], bad[ARA_P256_PK];

	(void)state;
	unhex(X, a, sizeof(a));
	memset(b, 0x42, sizeof(b));
	assert_int_equal(ara_p256_public(a, pa), 0);
	assert_int_equal(ara_p256_public(b, pb), 0);
	assert_int_equal(ara_p256_ecdh(a, pb, ab), 0);
	assert_int_equal(ara_p256_ecdh(b, pa, ba), 0);
	assert_memory_equal(ab, ba, sizeof(ab));
	memcpy(bad, pb, sizeof(bad));
	bad[64] ^= 1;
	assert_int_equal(ara_p256_ecdh(a, bad, ab), ARA_P256_E_INPUT);
	bad[64] ^= 1;
	bad[0] = 0x07;
	assert_int_equal(ara_p256_ecdh(a, bad, ab), ARA_P256_E_INPUT);
	memset(bad, 0, sizeof(bad));
	assert_int_equal(ara_p256_ecdh(a, bad, ab), ARA_P256_E_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backend_linked), cmocka_unit_test(test_secret_range),
		cmocka_unit_test(test_public_key),     cmocka_unit_test(test_verify_vector),
		cmocka_unit_test(test_sign),	       cmocka_unit_test(test_ecdh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
