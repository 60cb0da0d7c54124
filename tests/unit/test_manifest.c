/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the manifest parser and writer (loader/manifest.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "manifest.h"

#define HEX_A "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define HEX_B "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
#define HEX_C "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

#define HEADER "ara-manifest 1\n"
#define LIBARA "libara " HEX_A " ../libara/libara.so\n"
#define ENTRY "entry " HEX_B " ../entry/libara-entry.so\n"
#define APP "app " HEX_C " hello_app\n"
#define GOOD HEADER LIBARA ENTRY APP
/* A provisioner key line: "04" and 128 more hex digits (the parser checks the form, not the curve). */
#define KEY_HEX "04" HEX_A HEX_B
#define PINNED GOOD "provisioner " KEY_HEX "\n"

static struct ara_manifest m;

static bool is_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

/* Parses len bytes, expecting err at line; a refused manifest yields no
 * partial result. */
static void expect_len(const char *text, size_t len, enum ara_manifest_err err,
		       unsigned int line)
{
	unsigned int got_line = 12345;

	memset(&m, 0xa5, sizeof(m));
	assert_int_equal(ara_manifest_parse(text, len, &m, &got_line), err);
	assert_int_equal(got_line, line);
	assert_true(is_zero(&m, sizeof(m)));
}

static void expect(const char *text, enum ara_manifest_err err,
		   unsigned int line)
{
	expect_len(text, strlen(text), err, line);
}

static void rejects_empty_and_oversized_files(void **state)
{
	static char big[ARA_MANIFEST_MAX + 2];

	(void)state;
	expect_len("", 0, ARA_MANIFEST_E_SIZE, 0);
	/* A valid manifest padded past the limit is refused unread. */
	memset(big, 'x', sizeof(big));
	memcpy(big, GOOD, strlen(GOOD));
	big[sizeof(big) - 1] = '\n';
	expect_len(big, ARA_MANIFEST_MAX + 1, ARA_MANIFEST_E_SIZE, 0);
}

static void rejects_missing_final_newline(void **state)
{
	(void)state;
	expect(HEADER LIBARA ENTRY "app " HEX_C " hello_app",
	       ARA_MANIFEST_E_NEWLINE, 4);
	expect("ara-manifest 1", ARA_MANIFEST_E_NEWLINE, 1);
}

static void rejects_control_bytes(void **state)
{
	static const char with_nul[] = HEADER "libara " HEX_A " a\0b\n" ENTRY APP;

	(void)state;
	expect_len(with_nul, sizeof(with_nul) - 1, ARA_MANIFEST_E_CHAR, 2);
	expect("ara-manifest 1\r\n" LIBARA ENTRY APP, ARA_MANIFEST_E_CHAR, 1);
	expect(HEADER "libara\t" HEX_A " p\n" ENTRY APP, ARA_MANIFEST_E_CHAR, 2);
	expect(HEADER LIBARA ENTRY "app " HEX_C " a\x7f\n", ARA_MANIFEST_E_CHAR,
	       4);
}

static void rejects_bad_header(void **state)
{
	(void)state;
	expect("\n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect("ara-manifest1\n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect("ARA-manifest 1\n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect(" ara-manifest 1\n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect("ara-manifest 1 \n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect("ara-manifest \n" LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
	expect(LIBARA ENTRY APP, ARA_MANIFEST_E_HEADER, 1);
}

static void rejects_other_versions(void **state)
{
	(void)state;
	expect("ara-manifest 2\n" LIBARA ENTRY APP, ARA_MANIFEST_E_VERSION, 1);
	expect("ara-manifest 01\n" LIBARA ENTRY APP, ARA_MANIFEST_E_VERSION, 1);
}

static void rejects_malformed_fields(void **state)
{
	(void)state;
	expect(HEADER "libara  " HEX_A " p\n" ENTRY APP, ARA_MANIFEST_E_FIELDS, 2);
	expect(HEADER "libara " HEX_A "\n" ENTRY APP, ARA_MANIFEST_E_FIELDS, 2);
	expect(HEADER "libara\n" ENTRY APP, ARA_MANIFEST_E_FIELDS, 2);
	expect(HEADER " libara " HEX_A " p\n" ENTRY APP, ARA_MANIFEST_E_FIELDS, 2);
	expect(HEADER LIBARA "\n" ENTRY APP, ARA_MANIFEST_E_FIELDS, 3);
}

static void rejects_unknown_roles(void **state)
{
	(void)state;
	expect(HEADER "lib " HEX_A " p\n" ENTRY APP, ARA_MANIFEST_E_ROLE, 2);
	expect(HEADER "LIBARA " HEX_A " p\n" ENTRY APP, ARA_MANIFEST_E_ROLE, 2);
	expect(HEADER LIBARA "# a comment\n" ENTRY APP, ARA_MANIFEST_E_ROLE, 3);
	expect(HEADER LIBARA ENTRY "apps " HEX_C " p\n", ARA_MANIFEST_E_ROLE, 4);
}

static void rejects_repeated_or_reordered_roles(void **state)
{
	(void)state;
	expect(HEADER ENTRY LIBARA APP, ARA_MANIFEST_E_ORDER, 2);
	expect(HEADER LIBARA LIBARA ENTRY APP, ARA_MANIFEST_E_ORDER, 3);
	expect(HEADER LIBARA APP ENTRY, ARA_MANIFEST_E_ORDER, 3);
}

static void rejects_malformed_digests(void **state)
{
	(void)state;
	expect(HEADER "libara 00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff p\n" ENTRY APP,
	       ARA_MANIFEST_E_DIGEST, 2);
	expect(HEADER "libara 0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff p\n" ENTRY APP,
	       ARA_MANIFEST_E_DIGEST, 2);
	expect(HEADER "libara 000112233445566778899aabbccddeeff00112233445566778899aabbccddeeff p\n" ENTRY APP,
	       ARA_MANIFEST_E_DIGEST, 2);
	expect(HEADER LIBARA "entry g0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff p\n" APP,
	       ARA_MANIFEST_E_DIGEST, 3);
}

static void rejects_bad_paths(void **state)
{
	static char long_path[sizeof(HEADER LIBARA ENTRY) + 80 + ARA_MANIFEST_PATH_MAX];
	int n;

	(void)state;
	expect(HEADER "libara " HEX_A " \n" ENTRY APP, ARA_MANIFEST_E_PATH, 2);
	expect(HEADER "libara " HEX_A "  p\n" ENTRY APP, ARA_MANIFEST_E_PATH, 2);
	expect(HEADER "libara " HEX_A " p \n" ENTRY APP, ARA_MANIFEST_E_PATH, 2);
	/* One byte longer than a path may be. */
	n = snprintf(long_path, sizeof(long_path), HEADER LIBARA ENTRY "app " HEX_C " %0*d\n",
		     (int)ARA_MANIFEST_PATH_MAX + 1, 0);
	assert_true(n > 0 && (size_t)n < sizeof(long_path));
	expect(long_path, ARA_MANIFEST_E_PATH, 4);
}

static void rejects_missing_and_extra_lines(void **state)
{
	(void)state;
	expect(HEADER, ARA_MANIFEST_E_MISSING, 2);
	expect(HEADER LIBARA ENTRY, ARA_MANIFEST_E_MISSING, 4);
	expect(GOOD APP, ARA_MANIFEST_E_EXTRA, 5);
	expect(GOOD "\n", ARA_MANIFEST_E_EXTRA, 5);
	expect(PINNED "provisioner " KEY_HEX "\n", ARA_MANIFEST_E_EXTRA, 6);
	expect(PINNED APP, ARA_MANIFEST_E_EXTRA, 6);
	/* The key line comes after the app line, not before. */
	expect(HEADER LIBARA ENTRY "provisioner " KEY_HEX "\n" APP, ARA_MANIFEST_E_ROLE, 4);
}

/* "provisioner <key>": 65 bytes in lowercase hex, an uncompressed point (04 first). */
static void rejects_malformed_provisioner_keys(void **state)
{
	(void)state;
	expect(GOOD "provisioner \n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner " KEY_HEX "0\n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner " KEY_HEX " \n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner 02" HEX_A HEX_B "\n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner 04" HEX_A "FFEEDDCCBBAA99887766554433221100"
		    "ffeeddccbbaa99887766554433221100\n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner  " KEY_HEX "\n", ARA_MANIFEST_E_KEY, 5);
	expect(GOOD "provisioner\n", ARA_MANIFEST_E_EXTRA, 5);
}

static void accepts_and_writes_a_pinned_key(void **state)
{
	char text[ARA_MANIFEST_MAX];
	size_t len = 0;
	unsigned int line = 12345;

	(void)state;
	assert_int_equal(ara_manifest_parse(PINNED, strlen(PINNED), &m, &line), ARA_MANIFEST_OK);
	assert_int_equal(line, 0);
	assert_int_equal(m.provisioner[0], 4);
	assert_int_equal(m.provisioner[1], 0x00);
	assert_int_equal(m.provisioner[33], 0xff);
	assert_int_equal(ara_manifest_format(&m, text, sizeof(text), &len), ARA_MANIFEST_OK);
	assert_int_equal(len, strlen(PINNED));
	assert_memory_equal(text, PINNED, len);
	/* Without one, nothing is pinned and nothing is written. */
	assert_int_equal(ara_manifest_parse(GOOD, strlen(GOOD), &m, &line), ARA_MANIFEST_OK);
	assert_true(is_zero(m.provisioner, sizeof(m.provisioner)));
}

static void accepts_a_good_manifest(void **state)
{
	static const uint8_t a0[] = { 0x00, 0x11, 0x22 };
	static const uint8_t c_last[] = { 0xcd, 0xef };
	unsigned int line = 12345;

	(void)state;
	assert_int_equal(ara_manifest_parse(GOOD, strlen(GOOD), &m, &line),
			 ARA_MANIFEST_OK);
	assert_int_equal(line, 0);
	assert_memory_equal(m.obj[ARA_ROLE_LIBARA].sha256, a0, sizeof(a0));
	assert_int_equal(m.obj[ARA_ROLE_ENTRY].sha256[0], 0xff);
	assert_memory_equal(&m.obj[ARA_ROLE_APP].sha256[30], c_last, 2);
	assert_string_equal(m.obj[ARA_ROLE_LIBARA].path, "../libara/libara.so");
	assert_string_equal(m.obj[ARA_ROLE_ENTRY].path, "../entry/libara-entry.so");
	assert_string_equal(m.obj[ARA_ROLE_APP].path, "hello_app");
}

static void accepts_inner_spaces_utf8_and_absolute_paths(void **state)
{
	static const char text[] = HEADER "libara " HEX_A " /opt/ara/lib ara.so\n"
				   "entry " HEX_B " d\xc3\xa9j\xc3\xa0/e.so\n" APP;
	unsigned int line = 0;

	(void)state;
	assert_int_equal(ara_manifest_parse(text, strlen(text), &m, &line),
			 ARA_MANIFEST_OK);
	assert_string_equal(m.obj[ARA_ROLE_LIBARA].path, "/opt/ara/lib ara.so");
	assert_string_equal(m.obj[ARA_ROLE_ENTRY].path, "d\xc3\xa9j\xc3\xa0/e.so");
}

/* The longest paths fit: a manifest at its maximum size parses. */
static void accepts_paths_of_maximum_length(void **state)
{
	static char text[ARA_MANIFEST_MAX];
	static struct ara_manifest big;
	size_t len = 0;
	unsigned int line = 0;

	(void)state;
	for (unsigned int r = 0; r < ARA_ROLES; r++) {
		memset(big.obj[r].path, 'p', ARA_MANIFEST_PATH_MAX);
		big.obj[r].sha256[0] = (uint8_t)r;
	}
	memset(big.provisioner, 0x5a, sizeof(big.provisioner));
	big.provisioner[0] = 4;
	assert_int_equal(ara_manifest_format(&big, text, sizeof(text), &len),
			 ARA_MANIFEST_OK);
	assert_int_equal(len, 12658);
	assert_int_equal(ara_manifest_parse(text, len, &m, &line), ARA_MANIFEST_OK);
	assert_memory_equal(&m, &big, sizeof(m));
}

static void format_writes_what_parse_reads(void **state)
{
	char text[ARA_MANIFEST_MAX];
	size_t len = 0;
	unsigned int line = 0;

	(void)state;
	assert_int_equal(ara_manifest_parse(GOOD, strlen(GOOD), &m, &line),
			 ARA_MANIFEST_OK);
	assert_int_equal(ara_manifest_format(&m, text, sizeof(text), &len),
			 ARA_MANIFEST_OK);
	assert_int_equal(len, strlen(GOOD));
	assert_memory_equal(text, GOOD, len);
}

static void format_refuses_paths_parse_would_refuse(void **state)
{
	static const char *const bad[] = { "", " lead", "trail ", "new\nline",
					   "tab\there" };
	char text[ARA_MANIFEST_MAX];
	size_t len = 0;
	unsigned int line = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ara_manifest_parse(GOOD, strlen(GOOD), &m, &line),
				 ARA_MANIFEST_OK);
		strcpy(m.obj[ARA_ROLE_ENTRY].path, bad[i]);
		assert_int_equal(ara_manifest_format(&m, text, sizeof(text), &len),
				 ARA_MANIFEST_E_PATH);
	}
}

static void format_refuses_a_small_buffer(void **state)
{
	char text[sizeof(GOOD) - 1];
	size_t len = 0;
	unsigned int line = 0;

	(void)state;
	assert_int_equal(ara_manifest_parse(GOOD, strlen(GOOD), &m, &line),
			 ARA_MANIFEST_OK);
	assert_int_equal(ara_manifest_format(&m, text, sizeof(text), &len),
			 ARA_MANIFEST_E_SIZE);
}

/* Every error has its own message, and role names are total. */
static void every_error_is_described(void **state)
{
	(void)state;
	for (int e = ARA_MANIFEST_OK; e <= ARA_MANIFEST_E_KEY; e++) {
		const char *msg = ara_manifest_strerror((enum ara_manifest_err)e);

		assert_string_not_equal(msg, "unknown manifest error");
		for (int f = ARA_MANIFEST_OK; f < e; f++)
			assert_string_not_equal(
				msg, ara_manifest_strerror((enum ara_manifest_err)f));
	}
	assert_string_equal(ara_manifest_strerror((enum ara_manifest_err)99),
			    "unknown manifest error");
	assert_string_equal(ara_role_name(ARA_ROLE_APP), "app");
	assert_string_equal(ara_role_name((enum ara_role)3), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rejects_empty_and_oversized_files),
		cmocka_unit_test(rejects_missing_final_newline),
		cmocka_unit_test(rejects_control_bytes),
		cmocka_unit_test(rejects_bad_header),
		cmocka_unit_test(rejects_other_versions),
		cmocka_unit_test(rejects_malformed_fields),
		cmocka_unit_test(rejects_unknown_roles),
		cmocka_unit_test(rejects_repeated_or_reordered_roles),
		cmocka_unit_test(rejects_malformed_digests),
		cmocka_unit_test(rejects_bad_paths),
		cmocka_unit_test(rejects_missing_and_extra_lines),
		cmocka_unit_test(rejects_malformed_provisioner_keys),
		cmocka_unit_test(accepts_and_writes_a_pinned_key),
		cmocka_unit_test(accepts_a_good_manifest),
		cmocka_unit_test(accepts_inner_spaces_utf8_and_absolute_paths),
		cmocka_unit_test(accepts_paths_of_maximum_length),
		cmocka_unit_test(format_writes_what_parse_reads),
		cmocka_unit_test(format_refuses_paths_parse_would_refuse),
		cmocka_unit_test(format_refuses_a_small_buffer),
		cmocka_unit_test(every_error_is_described),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
