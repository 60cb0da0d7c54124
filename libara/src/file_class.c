/* SPDX-License-Identifier: Apache-2.0 */
#include "file_class.h"

#include "procpath.h"

/* The kernel's numbers, the same on every architecture (include/uapi/linux/stat.h, fcntl.h). */
#define TYPE_CHR 0020000u
#define TYPE_BLK 0060000u
#define OPEN_ACCMODE 03u
#define OPEN_TRUNC 01000u
#define OPEN_PATH 010000000u

/* File system magics: include/uapi/linux/magic.h unless said otherwise. */
#define PROC_SUPER_MAGIC 0x9fa0u
#define SYSFS_MAGIC 0x62656572u
#define CGROUP_SUPER_MAGIC 0x27e0ebu
#define CGROUP2_SUPER_MAGIC 0x63677270u
#define TRACEFS_MAGIC 0x74726163u
#define DEBUGFS_MAGIC 0x64626720u
#define SECURITYFS_MAGIC 0x73636673u
#define BPF_FS_MAGIC 0xcafe4a11u
#define CONFIGFS_MAGIC 0x62656570u /* fs/configfs/mount.c */
#define BINFMTFS_MAGIC 0x42494e4du
#define EFIVARFS_MAGIC 0xde5e81e4u
#define PSTOREFS_MAGIC 0x6165676cu
#define SELINUX_MAGIC 0xf97cff8cu
#define SMACK_MAGIC 0x43415d53u
#define FUSE_CTL_SUPER_MAGIC 0x65735543u /* fs/fuse/control.c */

/* Device numbers: Documentation/admin-guide/devices.txt, include/linux/miscdevice.h. */
#define MEM_MAJOR 1u
#define TTY_MAJOR 4u
#define TTYAUX_MAJOR 5u
#define MISC_MAJOR 10u
#define PTS_MAJOR_FIRST 136u /* UNIX98_PTY_SLAVE_MAJOR, and the 7 majors after it */
#define PTS_MAJOR_LAST 143u
#define LOW_DENSITY_SERIAL_MAJOR 204u /* ttyAMA (the PL011 of arm64 machines) and friends */
#define HVC_MAJOR 229u /* hypervisor and virtio consoles */
#define HWRNG_MINOR 183u
#define TUN_MINOR 200u
#define TPM_MINOR 224u

/*
 * The interface file systems the kernel offers to root, each a way out of
 * the process (docs/files.md says which): refused whole.
 */
static const uint64_t kernel_fs[] = {
	TRACEFS_MAGIC, DEBUGFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC,
	CONFIGFS_MAGIC, BINFMTFS_MAGIC, EFIVARFS_MAGIC, PSTOREFS_MAGIC,
};

/* The file systems that set the system's access policy: read only. */
static const uint64_t policy_fs[] = { SELINUX_MAGIC, SMACK_MAGIC, FUSE_CTL_SUPER_MAGIC };

static bool listed(uint64_t magic, const uint64_t *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == magic)
			return true;
	return false;
}

bool ara_file_needs_name(uint64_t fs_magic)
{
	return fs_magic == PROC_SUPER_MAGIC || fs_magic == SYSFS_MAGIC;
}

static enum ara_file_class char_device(const struct ara_file *f)
{
	const uint32_t major = f->rdev_major, minor = f->rdev_minor;

	/* First, so that no allowed class can ever cover one. */
	if ((f->tpm_major && major == f->tpm_major) || (major == MISC_MAJOR && minor == TPM_MINOR))
		return ARA_FILE_DEV_TPM;
	if (major == MEM_MAJOR && (minor == 3 || minor == 5 || minor == 7 || minor == 8 || minor == 9))
		return ARA_FILE_DEV_BASIC;
	if (major == TTY_MAJOR || (major == TTYAUX_MAJOR && minor <= 2) ||
	    (major >= PTS_MAJOR_FIRST && major <= PTS_MAJOR_LAST) || major == LOW_DENSITY_SERIAL_MAJOR ||
	    major == HVC_MAJOR)
		return ARA_FILE_DEV_TTY;
	if (major == MISC_MAJOR && (minor == HWRNG_MINOR || minor == TUN_MINOR))
		return ARA_FILE_DEV_MISC_ALLOWED;
	return ARA_FILE_DEV_OTHER_CHAR;
}

static enum ara_file_class proc_file(const struct ara_file *f)
{
	switch (ara_proc_name_class(f->name, f->name_len)) {
	case ARA_PROC_MEMORY:
		return ARA_FILE_PROC_MEMORY;
	case ARA_PROC_REGISTERS:
		return ARA_FILE_PROC_REGISTERS;
	case ARA_PROC_KERNEL_STACK:
		return ARA_FILE_PROC_KERNEL_STACK;
	case ARA_PROC_PAGE_STATE:
		return ARA_FILE_PROC_PAGE_STATE;
	case ARA_PROC_PHYSICAL:
		return ARA_FILE_PROC_PHYSICAL;
	case ARA_PROC_SYSRQ:
		return ARA_FILE_PROC_SYSRQ;
	case ARA_PROC_KERNEL_LOG:
		return ARA_FILE_PROC_KERNEL_LOG;
	case ARA_PROC_TASK_WRITABLE:
		return ARA_FILE_PROC_TASK_WRITABLE;
	case ARA_PROC_UNNAMED:
		return ARA_FILE_PROC_UNNAMED;
	case ARA_PROC_OTHER:
		break;
	}
	return ARA_FILE_PROC_OTHER;
}

static enum ara_file_class sys_file(const struct ara_file *f)
{
	switch (ara_sys_name_class(f->name, f->name_len)) {
	case ARA_SYS_PHYSICAL:
		return ARA_FILE_SYS_PHYSICAL;
	case ARA_SYS_PAGE_STATE:
		return ARA_FILE_SYS_PAGE_STATE;
	case ARA_SYS_UNNAMED:
		return ARA_FILE_SYS_UNNAMED;
	case ARA_SYS_OTHER:
		break;
	}
	return ARA_FILE_SYS_OTHER;
}

enum ara_file_class ara_file_classify(const struct ara_file *f)
{
	/* A device node is its number, on whatever file system it was made. */
	if (f->type == TYPE_CHR)
		return char_device(f);
	if (f->type == TYPE_BLK)
		return ARA_FILE_DEV_BLOCK;
	if (f->fs_magic == PROC_SUPER_MAGIC)
		return proc_file(f);
	if (f->fs_magic == SYSFS_MAGIC)
		return sys_file(f);
	if (f->fs_magic == CGROUP_SUPER_MAGIC || f->fs_magic == CGROUP2_SUPER_MAGIC)
		return ARA_FILE_CGROUP;
	if (listed(f->fs_magic, policy_fs, sizeof(policy_fs) / sizeof(policy_fs[0])))
		return ARA_FILE_POLICY_FS;
	if (listed(f->fs_magic, kernel_fs, sizeof(kernel_fs) / sizeof(kernel_fs[0])))
		return ARA_FILE_KERNEL_FS;
	return ARA_FILE_ORDINARY;
}

bool ara_file_class_allows(enum ara_file_class c, enum ara_file_access access)
{
	switch (c) {
	case ARA_FILE_ORDINARY:
	case ARA_FILE_DEV_BASIC:
	case ARA_FILE_DEV_TTY:
	case ARA_FILE_DEV_MISC_ALLOWED:
	case ARA_FILE_PROC_TASK_WRITABLE:
		return true;
	case ARA_FILE_PROC_OTHER:
	case ARA_FILE_SYS_OTHER:
	case ARA_FILE_CGROUP:
	case ARA_FILE_POLICY_FS:
		return access != ARA_ACCESS_WRITE;
	case ARA_FILE_DEV_TPM:
	case ARA_FILE_DEV_OTHER_CHAR:
	case ARA_FILE_DEV_BLOCK:
	case ARA_FILE_PROC_MEMORY:
	case ARA_FILE_PROC_REGISTERS:
	case ARA_FILE_PROC_KERNEL_STACK:
	case ARA_FILE_PROC_PAGE_STATE:
	case ARA_FILE_PROC_PHYSICAL:
	case ARA_FILE_PROC_SYSRQ:
	case ARA_FILE_PROC_KERNEL_LOG:
	case ARA_FILE_PROC_UNNAMED:
	case ARA_FILE_SYS_PHYSICAL:
	case ARA_FILE_SYS_PAGE_STATE:
	case ARA_FILE_SYS_UNNAMED:
	case ARA_FILE_KERNEL_FS:
		break;
	}
	return false; /* and any value outside the enum */
}

enum ara_file_access ara_file_access_of(uint64_t open_flags)
{
	if (open_flags & OPEN_PATH)
		return ARA_ACCESS_PATH;
	if ((open_flags & OPEN_ACCMODE) != 0 || (open_flags & OPEN_TRUNC))
		return ARA_ACCESS_WRITE;
	return ARA_ACCESS_READ;
}
