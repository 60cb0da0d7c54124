/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the loader's sealed memfds (loader/sealed_copy.c): the copy
 * is exact, and once sealed nothing can change it, while the dynamic linker
 * can still map it executable. arm64 tree only (runs in the guest: Linux
 * 6.12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sealed_copy.h"

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
#define SIZE (3 * 65536 + 123) /* several copy buffers and a partial one */

static uint8_t content[SIZE];

/* A regular file holding content. */
static int source_file(void)
{
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	for (size_t i = 0; i < SIZE; i++)
		content[i] = (uint8_t)(i * 31 + i / 256);
	assert_int_equal(fwrite(content, 1, SIZE, f), SIZE);
	fd = dup(fileno(f));
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static int sealed_copy_of_source(void)
{
	const char *failed = "unset";
	int src = source_file();
	int fd = ara_sealed_copy(src, "ara-test", &failed);

	assert_true(fd >= 0);
	close(src);
	return fd;
}

static void copy_has_exactly_the_source_bytes(void **state)
{
	static uint8_t back[SIZE + 1];
	int fd = sealed_copy_of_source();
	struct stat st;

	(void)state;
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, SIZE);
	assert_int_equal(pread(fd, back, sizeof(back), 0), SIZE);
	assert_memory_equal(back, content, SIZE);
	close(fd);
}

static void copy_is_sealed_against_every_change(void **state)
{
	int fd = sealed_copy_of_source();

	(void)state;
	assert_int_equal(fcntl(fd, F_GET_SEALS) & SEALS, SEALS);
	assert_int_equal(pwrite(fd, "x", 1, 0), -1);
	assert_int_equal(errno, EPERM);
	assert_int_equal(ftruncate(fd, 1), -1);
	assert_int_equal(ftruncate(fd, SIZE + 4096), -1);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), -1);
	assert_true(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 0) == MAP_FAILED);
	/* MFD_NOEXEC_SEAL: nobody can make it executable with chmod. */
	assert_int_equal(fchmod(fd, 0755), -1);
	close(fd);
}

/* What the dynamic linker does with it. */
static void copy_can_be_mapped_private_and_executable(void **state)
{
	int fd = sealed_copy_of_source();
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	(void)state;
	assert_true(p != MAP_FAILED);
	assert_memory_equal(p, content, 4096);
	munmap(p, 4096);
	close(fd);
}

static void copy_survives_a_rewrite_of_the_source(void **state)
{
	static uint8_t back[SIZE];
	const char *failed = "unset";
	int src = source_file();
	int fd = ara_sealed_copy(src, "ara-test", &failed);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(pwrite(src, "changed", 7, 0), 7);
	assert_int_equal(pread(fd, back, SIZE, 0), SIZE);
	assert_memory_equal(back, content, SIZE);
	close(src);
	close(fd);
}

static void copy_is_close_on_exec(void **state)
{
	int fd = sealed_copy_of_source();

	(void)state;
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

static void reports_a_failed_read_of_the_source(void **state)
{
	const char *failed = "unset";
	int dir = open("/", O_RDONLY | O_DIRECTORY);

	(void)state;
	assert_true(dir >= 0);
	assert_int_equal(ara_sealed_copy(dir, "ara-test", &failed), -1);
	assert_int_equal(errno, EISDIR);
	assert_string_equal(failed, "read");
	close(dir);
}

static void seals_a_buffer(void **state)
{
	static const char text[] = "boot block";
	char back[sizeof(text)];
	const char *failed = "unset";
	int fd = ara_sealed_buffer(text, sizeof(text), "ara-test", &failed);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GET_SEALS) & SEALS, SEALS);
	assert_int_equal(pread(fd, back, sizeof(back), 0), sizeof(text));
	assert_memory_equal(back, text, sizeof(text));
	assert_int_equal(pwrite(fd, "x", 1, 0), -1);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_has_exactly_the_source_bytes),
		cmocka_unit_test(copy_is_sealed_against_every_change),
		cmocka_unit_test(copy_can_be_mapped_private_and_executable),
		cmocka_unit_test(copy_survives_a_rewrite_of_the_source),
		cmocka_unit_test(copy_is_close_on_exec),
		cmocka_unit_test(reports_a_failed_read_of_the_source),
		cmocka_unit_test(seals_a_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
