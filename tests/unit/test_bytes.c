/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the byte-order helpers (ara/bytes.h), at odd addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ara/bytes.h"

/* One byte in front: no load or store below is aligned. */
static const uint8_t be[] = { 0xee, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static void loads_big_endian(void **state)
{
	(void)state;
	assert_int_equal(ara_get_be16(be + 1), 0x0123);
	assert_int_equal(ara_get_be32(be + 1), 0x01234567);
	assert_int_equal(ara_get_be64(be + 1), 0x0123456789abcdefull);
}

static void loads_little_endian(void **state)
{
	(void)state;
	assert_int_equal(ara_get_le16(be + 1), 0x2301);
	assert_int_equal(ara_get_le32(be + 1), 0x67452301);
	assert_int_equal(ara_get_le64(be + 1), 0xefcdab8967452301ull);
}

/* Each store writes its bytes and nothing around them, and reads back. */
static void stores_round_trip(void **state)
{
	uint8_t b[10];

	(void)state;
	memset(b, 0xee, sizeof(b));
	ara_put_be64(b + 1, 0x0123456789abcdefull);
	assert_memory_equal(b, be, sizeof(be));
	assert_int_equal(b[9], 0xee);
	memset(b, 0xee, sizeof(b));
	ara_put_be32(b + 1, 0x01234567);
	ara_put_be16(b + 5, 0x89ab);
	assert_memory_equal(b, be, 7);
	assert_int_equal(b[7], 0xee);
	memset(b, 0xee, sizeof(b));
	ara_put_le64(b + 1, 0xefcdab8967452301ull);
	assert_memory_equal(b, be, sizeof(be));
	memset(b, 0xee, sizeof(b));
	ara_put_le32(b + 1, 0x67452301);
	ara_put_le16(b + 5, 0xab89);
	assert_memory_equal(b, be, 7);
	assert_int_equal(b[7], 0xee);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_big_endian),
		cmocka_unit_test(loads_little_endian),
		cmocka_unit_test(stores_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
