/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of relative paths for manifests (loader/relpath.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "relpath.h"

static char out[64];

static void expect(const char *from, const char *to, const char *want)
{
	assert_int_equal(ara_relpath(from, to, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

static void rejects_relative_arguments(void **state)
{
	(void)state;
	assert_int_equal(ara_relpath("a/b", "/a/c", out, sizeof(out)), -1);
	assert_int_equal(ara_relpath("/a/b", "a/c", out, sizeof(out)), -1);
}

/* The result would name a directory, not a file. */
static void rejects_targets_that_are_the_directory_or_a_parent(void **state)
{
	(void)state;
	assert_int_equal(ara_relpath("/a/b", "/a/b", out, sizeof(out)), -1);
	assert_int_equal(ara_relpath("/a/b", "/a", out, sizeof(out)), -1);
	assert_int_equal(ara_relpath("/", "/", out, sizeof(out)), -1);
}

static void rejects_results_that_do_not_fit(void **state)
{
	char small[8];

	(void)state;
	assert_int_equal(ara_relpath("/a", "/a/12345678", small, sizeof(small)), -1);
	assert_int_equal(ara_relpath("/a/b/c/d", "/x", small, sizeof(small)), -1);
	assert_int_equal(ara_relpath("/a", "/a/1234567", small, sizeof(small)), 0);
	assert_string_equal(small, "1234567");
	assert_int_equal(ara_relpath("/a", "/x", small, 0), -1);
}

static void walks_down_up_and_across(void **state)
{
	(void)state;
	expect("/build/tests", "/build/tests/app", "app");
	expect("/build/tests/loader", "/build/libara/libara.so",
	       "../../libara/libara.so");
	expect("/build", "/build/entry/libara-entry.so", "entry/libara-entry.so");
	expect("/", "/opt/x.so", "opt/x.so");
	expect("/a/b", "/c", "../../c");
}

/* Components are compared whole: "/a/bc" does not share "b" with "/a/b". */
static void compares_whole_components(void **state)
{
	(void)state;
	expect("/a/b", "/a/bc/f", "../bc/f");
	expect("/a/bc", "/a/b/f", "../b/f");
}

/* Read back: a manifest's relative paths are relative to its folder. */
static void reads_manifest_paths_from_its_folder(void **state)
{
	char small[8];

	(void)state;
	assert_int_equal(ara_manifest_relative("/b/app.ara-manifest", "lib/x.so", out, sizeof(out)), 0);
	assert_string_equal(out, "/b/lib/x.so");
	assert_int_equal(ara_manifest_relative("m", "../x.so", out, sizeof(out)), 0);
	assert_string_equal(out, "./../x.so");
	assert_int_equal(ara_manifest_relative("d/m", "/abs/x.so", out, sizeof(out)), 0);
	assert_string_equal(out, "/abs/x.so");
	assert_int_equal(ara_manifest_relative("d/m", "1234567", small, sizeof(small)), -1);
	assert_int_equal(ara_manifest_relative("d/m", "12345", small, sizeof(small)), 0);
	assert_string_equal(small, "d/12345");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rejects_relative_arguments),
		cmocka_unit_test(rejects_targets_that_are_the_directory_or_a_parent),
		cmocka_unit_test(rejects_results_that_do_not_fit),
		cmocka_unit_test(walks_down_up_and_across),
		cmocka_unit_test(compares_whole_components),
		cmocka_unit_test(reads_manifest_paths_from_its_folder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
