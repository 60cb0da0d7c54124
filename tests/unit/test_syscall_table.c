/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The syscall table (libara/seccomp/syscall_table.c) against the kernel
 * headers the build uses: every __NR_ name the arm64 compiler defines in
 * <asm/unistd.h> (ARA_TEST_ARM64_UNISTD, its -dM output, made by the
 * build) has a row of that number and name, and every number from 0 to the
 * last one reviewed (Linux 6.12's) has exactly one row, with a reason; the
 * names libseccomp knows have libseccomp's arm64 numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libara/seccomp/syscall_table.h"

#define MAX_DEFINES 1024

static struct define {
	char name[64], value[64];
} defines[MAX_DEFINES];
static size_t n_defines;

static int read_defines(void **state)
{
	FILE *f = fopen(ARA_TEST_ARM64_UNISTD, "r");
	char line[256];

	(void)state;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n_defines < MAX_DEFINES) {
		struct define *d = &defines[n_defines];

		if (sscanf(line, "#define %63s %63s", d->name, d->value) == 2 &&
		    strncmp(d->name, "__NR", 4) == 0)
			n_defines++;
	}
	fclose(f);
	return n_defines > 0 ? 0 : -1;
}

/* A macro's number, following __NR3264_ and __NR_ references; -1 if none. */
static long value_of(const char *name, int depth)
{
	for (size_t i = 0; i < n_defines && depth < 4; i++) {
		char *end;
		long v;

		if (strcmp(defines[i].name, name) != 0)
			continue;
		v = strtol(defines[i].value, &end, 0);
		if (*end == '\0' && end != defines[i].value)
			return v;
		return value_of(defines[i].value, depth + 1);
	}
	return -1;
}

static const struct ara_syscall *row_of(uint32_t nr)
{
	for (size_t i = 0; i < ara_syscalls_count; i++)
		if (nr >= ara_syscalls[i].nr && nr <= ara_syscalls[i].last)
			return &ara_syscalls[i];
	return NULL;
}

static void every_number_in_the_headers_has_its_row(void **state)
{
	size_t calls = 0;

	(void)state;
	for (size_t i = 0; i < n_defines; i++) {
		const char *name = defines[i].name + strlen("__NR_");
		const struct ara_syscall *r;
		long nr;

		/* Not calls: the count, the start of the architecture's own numbers, 32/64-bit aliases. */
		if (strncmp(defines[i].name, "__NR_", 5) != 0 || strcmp(name, "syscalls") == 0 ||
		    strcmp(name, "arch_specific_syscall") == 0)
			continue;
		nr = value_of(defines[i].name, 0);
		if (nr < 0 || nr > (long)ARA_SYSCALL_LAST)
			fail_msg("__NR_%s = %ld: no row (the table ends at %u)", name, nr, ARA_SYSCALL_LAST);
		r = row_of((uint32_t)nr);
		if (!r || !r->name || strcmp(r->name, name) != 0)
			fail_msg("__NR_%s = %ld: the table's row is %s", name, nr, r && r->name ? r->name : "none");
		calls++;
	}
	/* Debian 12's headers (Linux 6.1) define 306 arm64 calls; a newer kernel's more. */
	assert_true(calls >= 306);
	assert_true(value_of("__NR_syscalls", 0) <= (long)ARA_SYSCALL_LAST + 1);
}

static void every_number_up_to_the_last_reviewed_has_one_row(void **state)
{
	uint32_t next = 0;

	(void)state;
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		assert_int_equal(r->nr, next);
		assert_true(r->last >= r->nr);
		assert_non_null(r->why);
		assert_true(strlen(r->why) > 4);
		if (r->last != r->nr || !r->name)
			assert_int_equal(r->rule, ARA_SYSCALL_ABSENT); /* unused numbers */
		if (r->flags)
			assert_int_equal(r->rule, ARA_SYSCALL_ALLOWED);
		next = r->last + 1;
	}
	assert_int_equal(next, ARA_SYSCALL_LAST + 1);
	/* Linux 6.12's last call is the last row. */
	assert_string_equal(ara_syscalls[ara_syscalls_count - 1].name, "mseal");
}

static void the_names_libseccomp_knows_have_its_arm64_numbers(void **state)
{
	size_t known = 0;

	(void)state;
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];
		int nr;

		if (!r->name)
			continue;
		nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, r->name);
		if (nr == __NR_SCMP_ERROR)
			continue; /* newer than this libseccomp, or no longer a call */
		if (nr != (int)r->nr)
			fail_msg("%s: libseccomp says %d, the table %u", r->name, nr, r->nr);
		known++;
	}
	assert_true(known >= 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_number_in_the_headers_has_its_row),
		cmocka_unit_test(every_number_up_to_the_last_reviewed_has_one_row),
		cmocka_unit_test(the_names_libseccomp_knows_have_its_arm64_numbers),
	};
	return cmocka_run_group_tests(tests, read_defines, NULL);
}
