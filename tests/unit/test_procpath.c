/* SPDX-License-Identifier: Apache-2.0 */
/* ara_proc_path_denied: the procfs files that reach memory ignoring keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "procpath.h"

static int denied(const char *p)
{
	return ara_proc_path_denied(p, strlen(p));
}

static void memory_files_are_denied(void **state)
{
	(void)state;
	assert_true(denied("/proc/1234/mem"));
	assert_true(denied("/proc/1234/task/1235/mem"));
	assert_true(denied("/tmp/otherproc/1/mem")); /* procfs mounted elsewhere */
	assert_true(denied("/proc/1234/map_files/7f0000000000-7f0000001000"));
	assert_true(denied("/proc/1234/map_files"));
	assert_true(denied("/proc/1234/map_files/"));
	assert_true(denied("mem"));
}

static void other_files_are_not(void **state)
{
	(void)state;
	assert_false(denied("/proc/1234/maps"));
	assert_false(denied("/proc/1234/smaps"));
	assert_false(denied("/proc/1234/memfoo"));
	assert_false(denied("/proc/1234/xmem"));
	assert_false(denied("/proc/meminfo"));
	assert_false(denied("/proc/1234/status"));
	assert_false(denied("/proc/1234/mem/x")); /* not a procfs path, but not "mem" either */
	assert_false(denied("/proc/1234/map_filesx/1"));
	assert_false(denied("/proc"));
	assert_false(denied("/"));
	assert_false(denied(""));
	/* len bounds the path: "mem" after it is not part of it. */
	assert_false(ara_proc_path_denied("/proc/1/maps/mem", 12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_files_are_denied),
		cmocka_unit_test(other_files_are_not),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
