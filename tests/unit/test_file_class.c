/* SPDX-License-Identifier: Apache-2.0 */
/* The open policy's table of file classes (file_class.c, docs/files.md). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "file_class.h"

#define PROC 0x9fa0u
#define SYSFS 0x62656572u
#define TMPFS 0x01021994u
#define EXT4 0xef53u

static enum ara_file_class dev(uint32_t type, uint32_t major, uint32_t minor)
{
	const struct ara_file f = { .fs_magic = TMPFS, .type = type, .rdev_major = major,
				    .rdev_minor = minor, .tpm_major = 253 };

	return ara_file_classify(&f);
}

static enum ara_file_class on(uint64_t magic, uint32_t type, const char *name)
{
	const struct ara_file f = { .fs_magic = magic, .type = type, .name = name,
				    .name_len = name ? strlen(name) : 0 };

	return ara_file_classify(&f);
}

static bool may(enum ara_file_class c, int flags)
{
	return ara_file_class_allows(c, ara_file_access_of((uint64_t)flags));
}

static void access_of_flags(void **state)
{
	(void)state;
	assert_int_equal(ara_file_access_of(O_RDONLY), ARA_ACCESS_READ);
	assert_int_equal(ara_file_access_of(O_RDONLY | O_DIRECTORY | O_CLOEXEC), ARA_ACCESS_READ);
	assert_int_equal(ara_file_access_of(O_WRONLY), ARA_ACCESS_WRITE);
	assert_int_equal(ara_file_access_of(O_RDWR), ARA_ACCESS_WRITE);
	assert_int_equal(ara_file_access_of(O_ACCMODE), ARA_ACCESS_WRITE);
	assert_int_equal(ara_file_access_of(O_RDONLY | O_TRUNC), ARA_ACCESS_WRITE);
	assert_int_equal(ara_file_access_of(O_WRONLY | O_APPEND), ARA_ACCESS_WRITE);
	assert_int_equal(ara_file_access_of(O_PATH), ARA_ACCESS_PATH);
	assert_int_equal(ara_file_access_of(O_PATH | O_RDWR), ARA_ACCESS_PATH); /* the kernel ignores it */
}

/* Device nodes: only the listed classes, by number, wherever the node is. */
static void devices(void **state)
{
	(void)state;
	for (uint32_t minor = 3; minor <= 9; minor++) {
		bool basic = minor == 3 || minor == 5 || minor == 7 || minor == 8 || minor == 9;

		assert_int_equal(dev(S_IFCHR, 1, minor), basic ? ARA_FILE_DEV_BASIC : ARA_FILE_DEV_OTHER_CHAR);
	}
	assert_int_equal(dev(S_IFCHR, 1, 1), ARA_FILE_DEV_OTHER_CHAR);  /* mem */
	assert_int_equal(dev(S_IFCHR, 1, 2), ARA_FILE_DEV_OTHER_CHAR);  /* kmem */
	assert_int_equal(dev(S_IFCHR, 1, 4), ARA_FILE_DEV_OTHER_CHAR);  /* port */
	assert_int_equal(dev(S_IFCHR, 1, 11), ARA_FILE_DEV_OTHER_CHAR); /* kmsg */
	assert_int_equal(dev(S_IFCHR, 4, 1), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 4, 64), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 5, 0), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 5, 1), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 5, 2), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 5, 3), ARA_FILE_DEV_OTHER_CHAR);
	assert_int_equal(dev(S_IFCHR, 136, 0), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 143, 9), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 144, 0), ARA_FILE_DEV_OTHER_CHAR);
	assert_int_equal(dev(S_IFCHR, 204, 64), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 229, 0), ARA_FILE_DEV_TTY);
	assert_int_equal(dev(S_IFCHR, 10, 183), ARA_FILE_DEV_MISC_ALLOWED);
	assert_int_equal(dev(S_IFCHR, 10, 200), ARA_FILE_DEV_MISC_ALLOWED);
	assert_int_equal(dev(S_IFCHR, 10, 229), ARA_FILE_DEV_OTHER_CHAR); /* fuse */
	assert_int_equal(dev(S_IFCHR, 10, 232), ARA_FILE_DEV_OTHER_CHAR); /* kvm */
	assert_int_equal(dev(S_IFCHR, 10, 122), ARA_FILE_DEV_OTHER_CHAR); /* a dynamic minor: userfaultfd */
	assert_int_equal(dev(S_IFCHR, 10, 224), ARA_FILE_DEV_TPM);
	assert_int_equal(dev(S_IFCHR, 253, 0), ARA_FILE_DEV_TPM);
	assert_int_equal(dev(S_IFCHR, 226, 128), ARA_FILE_DEV_OTHER_CHAR); /* a GPU */
	assert_int_equal(dev(S_IFBLK, 8, 0), ARA_FILE_DEV_BLOCK);
	assert_int_equal(dev(S_IFBLK, 1, 3), ARA_FILE_DEV_BLOCK); /* null's numbers, but a block device */
	assert_int_equal(dev(S_IFBLK, 7, 0), ARA_FILE_DEV_BLOCK);
	/* Numbers only: the file system, or a procfs-like name, changes nothing. */
	{
		const struct ara_file mem_on_proc = { .fs_magic = PROC, .type = S_IFCHR, .rdev_major = 1,
						      .rdev_minor = 1, .name = "/proc/1/comm", .name_len = 12 };

		assert_int_equal(ara_file_classify(&mem_on_proc), ARA_FILE_DEV_OTHER_CHAR);
	}
	/* No TPM major registered: major 0 is no TPM's. */
	{
		const struct ara_file f = { .type = S_IFCHR, .rdev_major = 0, .rdev_minor = 0 };

		assert_int_equal(ara_file_classify(&f), ARA_FILE_DEV_OTHER_CHAR);
	}
	/* Not device nodes: their numbers mean nothing. */
	{
		const struct ara_file f = { .fs_magic = EXT4, .type = S_IFREG, .rdev_major = 1, .rdev_minor = 1 };

		assert_int_equal(ara_file_classify(&f), ARA_FILE_ORDINARY);
	}
}

static void file_systems(void **state)
{
	static const uint64_t kernel_fs[] = { 0x74726163, 0x64626720, 0x73636673, 0xcafe4a11,
					      0x62656570, 0x42494e4d, 0xde5e81e4, 0x6165676c };

	(void)state;
	for (size_t i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++) {
		assert_int_equal(on(kernel_fs[i], S_IFREG, NULL), ARA_FILE_KERNEL_FS);
		assert_int_equal(on(kernel_fs[i], S_IFDIR, NULL), ARA_FILE_KERNEL_FS);
	}
	assert_int_equal(on(0x27e0eb, S_IFREG, NULL), ARA_FILE_CGROUP);
	assert_int_equal(on(0x63677270, S_IFREG, NULL), ARA_FILE_CGROUP);
	assert_int_equal(on(0xf97cff8c, S_IFREG, NULL), ARA_FILE_POLICY_FS);
	assert_int_equal(on(0x43415d53, S_IFREG, NULL), ARA_FILE_POLICY_FS);
	assert_int_equal(on(0x65735543, S_IFREG, NULL), ARA_FILE_POLICY_FS);
	assert_int_equal(on(TMPFS, S_IFREG, NULL), ARA_FILE_ORDINARY);
	assert_int_equal(on(EXT4, S_IFDIR, NULL), ARA_FILE_ORDINARY);
	assert_int_equal(on(0x50495045, S_IFIFO, NULL), ARA_FILE_ORDINARY); /* pipefs */
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/task/2/syscall"), ARA_FILE_PROC_REGISTERS);
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/mem"), ARA_FILE_PROC_MEMORY);
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/stack"), ARA_FILE_PROC_KERNEL_STACK);
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/pagemap"), ARA_FILE_PROC_PAGE_STATE);
	assert_int_equal(on(PROC, S_IFREG, "/proc/kcore"), ARA_FILE_PROC_PHYSICAL);
	assert_int_equal(on(PROC, S_IFREG, "/proc/sysrq-trigger"), ARA_FILE_PROC_SYSRQ);
	assert_int_equal(on(PROC, S_IFREG, "/proc/kmsg"), ARA_FILE_PROC_KERNEL_LOG);
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/comm"), ARA_FILE_PROC_TASK_WRITABLE);
	assert_int_equal(on(PROC, S_IFREG, "/proc/1/comm (deleted)"), ARA_FILE_PROC_UNNAMED);
	assert_int_equal(on(PROC, S_IFREG, "/proc/sys/kernel/modprobe"), ARA_FILE_PROC_OTHER);
	assert_int_equal(on(SYSFS, S_IFREG, "/sys/devices/p/0000:00:01.0/resource0"), ARA_FILE_SYS_PHYSICAL);
	assert_int_equal(on(SYSFS, S_IFREG, "/sys/kernel/mm/page_idle/bitmap"), ARA_FILE_SYS_PAGE_STATE);
	assert_int_equal(on(SYSFS, S_IFREG, "/sys/x (deleted)"), ARA_FILE_SYS_UNNAMED);
	assert_int_equal(on(SYSFS, S_IFREG, "/sys/kernel/uevent_helper"), ARA_FILE_SYS_OTHER);
	/* The names of procfs and sysfs mean nothing elsewhere. */
	assert_int_equal(on(TMPFS, S_IFREG, "/proc/1/mem"), ARA_FILE_ORDINARY);
	assert_true(ara_file_needs_name(PROC));
	assert_true(ara_file_needs_name(SYSFS));
	assert_false(ara_file_needs_name(TMPFS));
	assert_false(ara_file_needs_name(0x63677270));
}

static void rules(void **state)
{
	(void)state;
	for (int c = ARA_FILE_ORDINARY; c <= ARA_FILE_KERNEL_FS; c++) {
		bool all = c == ARA_FILE_ORDINARY || c == ARA_FILE_DEV_BASIC || c == ARA_FILE_DEV_TTY ||
			   c == ARA_FILE_DEV_MISC_ALLOWED || c == ARA_FILE_PROC_TASK_WRITABLE;
		bool read_only = c == ARA_FILE_PROC_OTHER || c == ARA_FILE_SYS_OTHER || c == ARA_FILE_CGROUP ||
				 c == ARA_FILE_POLICY_FS;

		assert_int_equal(may((enum ara_file_class)c, O_PATH), all || read_only);
		assert_int_equal(may((enum ara_file_class)c, O_RDONLY), all || read_only);
		assert_int_equal(may((enum ara_file_class)c, O_WRONLY), all);
		assert_int_equal(may((enum ara_file_class)c, O_RDWR), all);
		assert_int_equal(may((enum ara_file_class)c, O_RDONLY | O_TRUNC), all);
	}
	/* Fails closed on a value outside the table. */
	assert_false(ara_file_class_allows((enum ara_file_class)(ARA_FILE_KERNEL_FS + 1), ARA_ACCESS_PATH));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(access_of_flags),
		cmocka_unit_test(devices),
		cmocka_unit_test(file_systems),
		cmocka_unit_test(rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
