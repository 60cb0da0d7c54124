/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTS sealed chunk format (services/rts/chunk_format.c): a stream
 * opens chunk by chunk, and a changed byte, a chunk in another place, a
 * dropped last chunk, a lie about which chunk is last, another key, or
 * another stream's prefix each make the chunk fail to open, with nothing
 * returned.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chunk_format.h"

#define SIZE 1000u
#define CHUNKS 3u

static mbedtls_gcm_context gcm, other_key;
static struct ara_rts_header h = { .key_id = { 1, 2, 3 }, .prefix = { 9, 8, 7 }, .chunk_size = SIZE };
static uint8_t pt[CHUNKS][SIZE], sealed[CHUNKS][SIZE + ARA_RTS_TAG_BYTES], out[SIZE];
static const size_t len[CHUNKS] = { SIZE, SIZE, 123 };

static int setup(void **state)
{
	static const uint8_t k1[16] = { 1 }, k2[16] = { 2 };

	(void)state;
	mbedtls_gcm_init(&gcm);
	mbedtls_gcm_init(&other_key);
	assert_int_equal(mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, k1, 128), 0);
	assert_int_equal(mbedtls_gcm_setkey(&other_key, MBEDTLS_CIPHER_ID_AES, k2, 128), 0);
	for (uint32_t i = 0; i < CHUNKS; i++) {
		memset(pt[i], 'a' + (int)i, sizeof(pt[i]));
		assert_int_equal(ara_rts_seal(&gcm, &h, i, i == CHUNKS - 1, pt[i], len[i], sealed[i]), 0);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	mbedtls_gcm_free(&gcm);
	mbedtls_gcm_free(&other_key);
	return 0;
}

static int opens(mbedtls_gcm_context *g, const struct ara_rts_header *hh, uint32_t index,
		 int final, const uint8_t *in, size_t in_len)
{
	memset(out, 0x55, sizeof(out));
	if (ara_rts_open(g, hh, index, final, in, in_len, out) == 0)
		return 1;
	/* Nothing of a chunk that did not open is in the output: untouched, or zeroed. */
	for (size_t i = 0; i < sizeof(out); i++)
		assert_true(out[i] == 0x55 || out[i] == 0);
	return 0;
}

static void stream_opens(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < CHUNKS; i++) {
		assert_true(opens(&gcm, &h, i, i == CHUNKS - 1, sealed[i], len[i] + ARA_RTS_TAG_BYTES));
		assert_memory_equal(out, pt[i], len[i]);
	}
}

static void every_byte_matters(void **state)
{
	(void)state;
	for (size_t b = 0; b < len[2] + ARA_RTS_TAG_BYTES; b++) {
		sealed[2][b] ^= 0x01;
		assert_false(opens(&gcm, &h, 2, 1, sealed[2], len[2] + ARA_RTS_TAG_BYTES));
		sealed[2][b] ^= 0x01;
	}
}

static void order_end_key_stream(void **state)
{
	struct ara_rts_header other = h;

	(void)state;
	/* chunk 1 in chunk 0's place, and replayed in chunk 2's */
	assert_false(opens(&gcm, &h, 0, 0, sealed[1], SIZE + ARA_RTS_TAG_BYTES));
	assert_false(opens(&gcm, &h, 2, 0, sealed[1], SIZE + ARA_RTS_TAG_BYTES));
	/* truncated: chunk 1 presented as the last */
	assert_false(opens(&gcm, &h, 1, 1, sealed[1], SIZE + ARA_RTS_TAG_BYTES));
	/* the last one presented as not last */
	assert_false(opens(&gcm, &h, 2, 0, sealed[2], len[2] + ARA_RTS_TAG_BYTES));
	/* cut short */
	assert_false(opens(&gcm, &h, 2, 1, sealed[2], len[2] + ARA_RTS_TAG_BYTES - 1));
	/* another key, another key ID, another stream's prefix */
	assert_false(opens(&other_key, &h, 0, 0, sealed[0], SIZE + ARA_RTS_TAG_BYTES));
	other.key_id[15] ^= 1;
	assert_false(opens(&gcm, &other, 0, 0, sealed[0], SIZE + ARA_RTS_TAG_BYTES));
	other = h;
	other.prefix[7] ^= 1;
	assert_false(opens(&gcm, &other, 0, 0, sealed[0], SIZE + ARA_RTS_TAG_BYTES));
}

static void header(void **state)
{
	uint8_t b[ARA_RTS_HEADER_BYTES];
	struct ara_rts_header d;
	char name[ARA_RTS_KEY_NAME_BYTES + 1] = "";

	(void)state;
	ara_rts_header_encode(&h, b);
	assert_int_equal(ara_rts_header_decode(b, sizeof(b), &d), 0);
	assert_memory_equal(&d, &h, sizeof(d));
	assert_int_equal(ara_rts_header_decode(b, sizeof(b) - 1, &d), -1);
	b[4] = 2; /* version */
	assert_int_equal(ara_rts_header_decode(b, sizeof(b), &d), -1);
	b[4] = 1;
	b[32] = 0xff; /* a chunk size over 64 KiB */
	assert_int_equal(ara_rts_header_decode(b, sizeof(b), &d), -1);
	ara_rts_key_name(h.key_id, name);
	assert_string_equal(name, "kid-01020300000000000000000000000000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stream_opens), cmocka_unit_test(every_byte_matters),
		cmocka_unit_test(order_end_key_stream), cmocka_unit_test(header),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
