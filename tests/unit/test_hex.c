/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the hex codec (ara/hex.h, libara/src/hex.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ara/hex.h"

static const uint8_t bytes[] = { 0x00, 0x01, 0x7f, 0x80, 0xab, 0xff };
#define TEXT "00017f80abff"

static void encodes_lowercase_with_and_without_nul(void **state)
{
	char out[2 * sizeof(bytes) + 2];

	(void)state;
	memset(out, 'x', sizeof(out));
	ara_hex_write(bytes, sizeof(bytes), out);
	assert_memory_equal(out, TEXT, 2 * sizeof(bytes));
	assert_int_equal(out[2 * sizeof(bytes)], 'x'); /* no NUL */
	ara_hex_encode(bytes, sizeof(bytes), out);
	assert_string_equal(out, TEXT);
	assert_int_equal(out[2 * sizeof(bytes) + 1], 'x');
	assert_int_equal(ara_hex_char(0x1e), 'e'); /* the low 4 bits only */
}

static void digits_by_case(void **state)
{
	(void)state;
	assert_int_equal(ara_hex_digit('0', ARA_HEX_LOWER), 0);
	assert_int_equal(ara_hex_digit('9', ARA_HEX_LOWER), 9);
	assert_int_equal(ara_hex_digit('a', ARA_HEX_LOWER), 10);
	assert_int_equal(ara_hex_digit('f', ARA_HEX_LOWER), 15);
	assert_int_equal(ara_hex_digit('F', ARA_HEX_LOWER), -1);
	assert_int_equal(ara_hex_digit('F', ARA_HEX_ANY_CASE), 15);
	assert_int_equal(ara_hex_digit('A', ARA_HEX_ANY_CASE), 10);
	/* Neighbours of each range. */
	assert_int_equal(ara_hex_digit('/', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit(':', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit('`', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit('g', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit('@', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit('G', ARA_HEX_ANY_CASE), -1);
	assert_int_equal(ara_hex_digit('\0', ARA_HEX_ANY_CASE), -1);
}

static void decodes_exact_lowercase_only(void **state)
{
	uint8_t out[sizeof(bytes)];

	(void)state;
	assert_int_equal(ara_hex_decode_lower(TEXT, strlen(TEXT), out, sizeof(out)), 0);
	assert_memory_equal(out, bytes, sizeof(bytes));
	memset(out, 0x5a, sizeof(out));
	/* Uppercase, a short or long text, a stray character: out untouched. */
	assert_int_equal(ara_hex_decode_lower("00017F80abff", 12, out, sizeof(out)), -1);
	assert_int_equal(ara_hex_decode_lower(TEXT, 11, out, sizeof(out)), -1);
	assert_int_equal(ara_hex_decode_lower(TEXT "00", 14, out, sizeof(out)), -1);
	assert_int_equal(ara_hex_decode_lower("00017f80abf ", 12, out, sizeof(out)), -1);
	for (size_t i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a);
	assert_int_equal(ara_hex_decode_lower("", 0, out, 0), 0);
}

static void decodes_either_case_up_to_cap(void **state)
{
	uint8_t out[sizeof(bytes)];

	(void)state;
	assert_int_equal(ara_hex_decode("00017F80ABff", out, sizeof(out)), sizeof(bytes));
	assert_memory_equal(out, bytes, sizeof(bytes));
	assert_int_equal(ara_hex_decode("0a", out, sizeof(out)), 1);
	assert_int_equal(out[0], 0x0a);
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(ara_hex_decode("", out, sizeof(out)), -1);
	assert_int_equal(ara_hex_decode("abc", out, sizeof(out)), -1);
	assert_int_equal(ara_hex_decode(TEXT "00", out, sizeof(out)), -1); /* past cap */
	assert_int_equal(ara_hex_decode("0x00", out, sizeof(out)), -1);
	for (size_t i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(encodes_lowercase_with_and_without_nul),
		cmocka_unit_test(digits_by_case),
		cmocka_unit_test(decodes_exact_lowercase_only),
		cmocka_unit_test(decodes_either_case_up_to_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
