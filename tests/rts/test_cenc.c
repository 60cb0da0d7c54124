/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One Common Encryption sample (services/rts/cenc_sample.c) against two
 * references it shares no code with: a vector made with the OpenSSL
 * command line (cenc_openssl_vector.h), and a keystream computed here
 * block by block from AES-ECB, laid over the protected ranges by hand. Also
 * the subsample map's check: a map must cover its sample exactly; and the
 * name a 'cenc' key is provisioned under, never a chunk stream's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cenc_sample.h"
#include "cenc_openssl_vector.h"

static mbedtls_aes_context aes;

static int setup(void **state)
{
	(void)state;
	mbedtls_aes_init(&aes);
	return mbedtls_aes_setkey_enc(&aes, vec_key, 128);
}

static int teardown(void **state)
{
	(void)state;
	mbedtls_aes_free(&aes);
	return 0;
}

static void clear_sample(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(7 * i + 3);
}

static void openssl_subsampled(void **state)
{
	uint8_t buf[100], clear[100];

	(void)state;
	clear_sample(clear, sizeof(clear));
	memcpy(buf, vec_subsampled, sizeof(buf));
	assert_int_equal(ara_cenc_map_check(vec_map, 3, sizeof(buf)), 0);
	assert_int_equal(ara_cenc_decrypt(&aes, vec_iv8, 8, vec_map, 3, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, clear, sizeof(buf));
}

static void openssl_whole(void **state)
{
	uint8_t buf[100], clear[100];

	(void)state;
	clear_sample(clear, sizeof(clear));
	memcpy(buf, vec_whole, sizeof(buf));
	assert_int_equal(ara_cenc_map_check(NULL, 0, sizeof(buf)), 0);
	assert_int_equal(ara_cenc_decrypt(&aes, vec_iv16, 16, NULL, 0, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, clear, sizeof(buf));
}

/*
 * Keystream byte j of a sample: byte j % 16 of AES-ECB(IV + j / 16), the
 * IV zero-extended to 16 bytes and read as a big-endian number.
 */
static uint8_t keystream_byte(const uint8_t *iv, size_t iv_len, size_t j)
{
	uint8_t block[16] = { 0 }, ks[16];
	uint64_t carry = j / 16;

	memcpy(block, iv, iv_len);
	for (int i = 15; i >= 0 && carry; i--) {
		carry += block[i];
		block[i] = (uint8_t)carry;
		carry >>= 8;
	}
	assert_int_equal(mbedtls_aes_crypt_ecb(&aes, MBEDTLS_AES_ENCRYPT, block, ks), 0);
	return ks[j % 16];
}

/* Ranges that split blocks mid-way, empty ones, and a counter that carries out of byte 15. */
static void by_hand(void **state)
{
	static const struct ara_cenc_subsample map[] = {
		{ 3, 21 }, { 0, 5 }, { 17, 0 }, { 0, 0 }, { 2, 40 }, { 12, 0 },
	};
	static const uint8_t iv8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t iv16[16] = { 9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0xfe };
	const uint8_t *ivs[2] = { iv8, iv16 };
	uint8_t clear[100], buf[100];

	(void)state;
	clear_sample(clear, sizeof(clear));
	assert_int_equal(ara_cenc_map_check(map, 6, sizeof(buf)), 0);
	for (int v = 0; v < 2; v++) {
		size_t iv_len = v ? 16 : 8, at = 0, j = 0;

		memcpy(buf, clear, sizeof(buf));
		for (size_t i = 0; i < 6; i++) {
			at += map[i].clear_bytes;
			for (uint32_t n = 0; n < map[i].protected_bytes; n++, at++, j++)
				buf[at] ^= keystream_byte(ivs[v], iv_len, j);
		}
		assert_int_equal(ara_cenc_decrypt(&aes, ivs[v], (uint32_t)iv_len, map, 6, buf,
						  sizeof(buf)),
				 0);
		assert_memory_equal(buf, clear, sizeof(buf));
	}
}

/* Every map that does not add up to its sample is refused; so are the bounds. */
static void map_check(void **state)
{
	static struct ara_cenc_subsample big[ARA_RTS_CENC_SUBSAMPLES_MAX + 1];
	struct ara_cenc_subsample m[2] = { { 10, 20 }, { 5, 65 } };

	(void)state;
	assert_int_equal(ara_cenc_map_check(m, 2, 100), 0);
	assert_int_equal(ara_cenc_map_check(m, 2, 99), -1);
	assert_int_equal(ara_cenc_map_check(m, 2, 101), -1);
	assert_int_equal(ara_cenc_map_check(m, 1, 100), -1);
	m[1].protected_bytes = 66;
	assert_int_equal(ara_cenc_map_check(m, 2, 100), -1);
	/* Sums past 2^32 do not wrap into a match. */
	m[0] = (struct ara_cenc_subsample){ 0xffffffffu, 1 };
	m[1] = (struct ara_cenc_subsample){ 0, 100 };
	assert_int_equal(ara_cenc_map_check(m, 2, 100), -1);
	assert_int_equal(ara_cenc_map_check(NULL, 0, 0), -1);
	assert_int_equal(ara_cenc_map_check(NULL, 0, ARA_RTS_CENC_SAMPLE_MAX), 0);
	assert_int_equal(ara_cenc_map_check(NULL, 0, ARA_RTS_CENC_SAMPLE_MAX + 1), -1);
	for (uint32_t i = 0; i < ARA_RTS_CENC_SUBSAMPLES_MAX + 1; i++)
		big[i] = (struct ara_cenc_subsample){ 1, 0 };
	assert_int_equal(ara_cenc_map_check(big, ARA_RTS_CENC_SUBSAMPLES_MAX,
					    ARA_RTS_CENC_SUBSAMPLES_MAX),
			 0);
	assert_int_equal(ara_cenc_map_check(big, ARA_RTS_CENC_SUBSAMPLES_MAX + 1,
					    ARA_RTS_CENC_SUBSAMPLES_MAX + 1),
			 -1);
}

static void bad_iv(void **state)
{
	uint8_t buf[100];

	(void)state;
	memcpy(buf, vec_whole, sizeof(buf));
	assert_int_equal(ara_cenc_decrypt(&aes, vec_iv16, 12, NULL, 0, buf, sizeof(buf)), -1);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
}

/* "cenc-<hex>", exactly 37 bytes: not the "kid-<hex>" the chunk streams look up. */
static void key_name(void **state)
{
	const uint8_t id[16] = { 0x01, 0x02, 0xab, [15] = 0xf0 };
	char name[ARA_CENC_KEY_NAME_BYTES + 1];

	(void)state;
	memset(name, 0, sizeof(name));
	ara_cenc_key_name(id, name);
	assert_int_equal(ARA_CENC_KEY_NAME_BYTES, 37);
	assert_string_equal(name, "cenc-0102ab000000000000000000000000f0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(openssl_subsampled), cmocka_unit_test(openssl_whole),
		cmocka_unit_test(by_hand),	      cmocka_unit_test(map_check),
		cmocka_unit_test(bad_iv),	      cmocka_unit_test(key_name),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
