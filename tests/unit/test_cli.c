/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the programs' strict numbers and JSON strings (cli/). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "ara_cli.h"

static void accepts(const char *s, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v = 12345;

	assert_int_equal(ara_parse_u64(s, min, max, &v), 0);
	assert_int_equal(v, want);
}

/* Refused with err, and *out left as it was. */
static void refuses(const char *s, uint64_t min, uint64_t max, int err)
{
	uint64_t v = 12345;

	errno = 0;
	assert_int_equal(ara_parse_u64(s, min, max, &v), -1);
	assert_int_equal(errno, err);
	assert_int_equal(v, 12345);
}

static void accepts_decimal_and_hex(void **state)
{
	(void)state;
	accepts("0", 0, 10, 0);
	accepts("65536", 1, 65536, 65536);
	accepts("0x81010002", 0, UINT32_MAX, 0x81010002);
	accepts("0XfF", 0, 255, 255);
	accepts("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	accepts("0xffffffffffffffff", 0, UINT64_MAX, UINT64_MAX);
}

/* What strtoul() would take, or take in part. */
static void refuses_what_is_not_only_digits(void **state)
{
	(void)state;
	refuses("", 0, 10, EINVAL);
	refuses("-1", 0, UINT64_MAX, EINVAL);
	refuses("+1", 0, 10, EINVAL);
	refuses(" 1", 0, 10, EINVAL);
	refuses("1 ", 0, 10, EINVAL);
	refuses("1k", 0, 10000, EINVAL);
	refuses("0x", 0, 10, EINVAL);
	refuses("0x1g", 0, 100, EINVAL);
	refuses("1.5", 0, 10, EINVAL);
	refuses("ff", 0, 1000, EINVAL); /* hex needs its 0x */
}

/* "010" is 8 to strtoul(base 0) and 10 to a reader: neither is assumed. */
static void refuses_leading_zeros(void **state)
{
	(void)state;
	refuses("010", 0, 100, EINVAL);
	refuses("00", 0, 100, EINVAL);
}

static void refuses_outside_the_range(void **state)
{
	(void)state;
	refuses("0", 1, 65536, ERANGE);
	refuses("65537", 1, 65536, ERANGE);
	refuses("18446744073709551616", 0, UINT64_MAX, ERANGE);
	refuses("0x10000000000000000", 0, UINT64_MAX, ERANGE);
	refuses("99999999999999999999999", 0, UINT64_MAX, ERANGE);
	/* A stray character after an overflow is still not a number. */
	refuses("99999999999999999999999x", 0, UINT64_MAX, EINVAL);
}

static void json_is(const char *s, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ara_json_string(f, s);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, want);
	free(buf);
}

static void json_strings_escape_quotes_backslashes_and_controls(void **state)
{
	(void)state;
	json_is("", "\"\"");
	json_is("/a b/c", "\"/a b/c\"");
	json_is("a\"b\\c", "\"a\\\"b\\\\c\"");
	json_is("\n\t\x01\x1f\x7f", "\"\\u000a\\u0009\\u0001\\u001f\\u007f\"");
	json_is("caf\xc3\xa9", "\"caf\xc3\xa9\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_decimal_and_hex),
		cmocka_unit_test(refuses_what_is_not_only_digits),
		cmocka_unit_test(refuses_leading_zeros),
		cmocka_unit_test(refuses_outside_the_range),
		cmocka_unit_test(json_strings_escape_quotes_backslashes_and_controls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
