/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the programs' strict numbers and JSON strings (cli/). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* s as both forms write it: the FILE's, and the buffer's (with its length) */
static void json_is(const char *s, const char *want)
{
	char *buf = NULL, out[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ara_json_string(f, s);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, want);
	free(buf);
	assert_int_equal(ara_json_escape(out, sizeof(out), s), strlen(want));
	assert_string_equal(out, want);
}

static void json_strings_escape_quotes_backslashes_and_controls(void **state)
{
	(void)state;
	json_is("", "\"\"");
	json_is("/a b/c", "\"/a b/c\"");
	json_is("a\"b\\c", "\"a\\\"b\\\\c\"");
	json_is("\n\t\x01\x1f\x7f", "\"\\u000a\\u0009\\u0001\\u001f\\u007f\"");
	/* the C1 controls, U+0080..U+009F: a terminal may act on them */
	json_is("\xc2\x80\xc2\x9b\xc2\x9f\xc2\xa0", "\"\\u0080\\u009b\\u009f\xc2\xa0\"");
}

static void json_strings_pass_well_formed_utf8(void **state)
{
	(void)state;
	json_is("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	/* the first and last of each length: U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF */
	json_is("\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf",
		"\"\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"");
	json_is("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"");
}

/* Every byte that is not part of a well-formed sequence is one U+FFFD. */
static void json_strings_replace_what_is_not_utf8(void **state)
{
	(void)state;
	json_is("a\xe9" "b", "\"a\\ufffdb\""); /* Latin-1: not an \u00e9 like a real one */
	json_is("\x80\xbf", "\"\\ufffd\\ufffd\""); /* continuation bytes alone */
	json_is("\xc3", "\"\\ufffd\"");	 /* cut at the end */
	json_is("\xe2\x82x", "\"\\ufffd\\ufffdx\""); /* cut before another character */
	/* overlong forms of '/': a lax reader would see a slash */
	json_is("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	json_is("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
	json_is("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	json_is("\xc1\xbf", "\"\\ufffd\\ufffd\""); /* overlong U+007F */
	json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate, U+D800 */
	json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* U+110000 */
	json_is("\xf5\xff\xfe", "\"\\ufffd\\ufffd\\ufffd\"");
}

/* The buffer form is cut as snprintf() cuts, never past cap, and counts the whole. */
static void json_buffer_is_cut_at_its_size(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(ara_json_escape(out, sizeof(out), "abcdefghij"), 12);
	assert_string_equal(out, "\"abcdef");
	assert_int_equal(ara_json_escape(out, 4, "\x01"), 8);
	assert_string_equal(out, "\"\\u");
	out[0] = 'x';
	assert_int_equal(ara_json_escape(out, 0, "ab"), 4);
	assert_int_equal(out[0], 'x');
	assert_int_equal(ara_json_escape(out, 1, "ab"), 4);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_decimal_and_hex),
		cmocka_unit_test(refuses_what_is_not_only_digits),
		cmocka_unit_test(refuses_leading_zeros),
		cmocka_unit_test(refuses_outside_the_range),
		cmocka_unit_test(json_strings_escape_quotes_backslashes_and_controls),
		cmocka_unit_test(json_strings_pass_well_formed_utf8),
		cmocka_unit_test(json_strings_replace_what_is_not_utf8),
		cmocka_unit_test(json_buffer_is_cut_at_its_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
