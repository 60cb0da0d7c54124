/* SPDX-License-Identifier: Apache-2.0 */
/* ara_boot_comm: the process name Linux gives at execve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ara/boot.h"

static void comm_is(const char *path, const char *want)
{
	char out[ARA_BOOT_COMM_BYTES];

	memset(out, 'x', sizeof(out));
	ara_boot_comm(out, path);
	assert_string_equal(out, want);
	for (size_t i = strlen(want); i < sizeof(out); i++)
		assert_int_equal(out[i], '\0');
}

static void base_name_of_the_path(void **state)
{
	(void)state;
	comm_is("/usr/bin/dash", "dash");
	comm_is("spawn_child", "spawn_child");
	comm_is("./a/b/c", "c");
	comm_is("/dev/fd/3", "3");
	comm_is("/", "");
	comm_is("", "");
}

static void cut_to_fifteen_bytes(void **state)
{
	(void)state;
	comm_is("/x/a-very-long-program-name", "a-very-long-pro");
	comm_is("123456789012345", "123456789012345");
	comm_is("1234567890123456", "123456789012345");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(base_name_of_the_path),
		cmocka_unit_test(cut_to_fifteen_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
