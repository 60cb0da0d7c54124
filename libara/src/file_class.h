/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The open policy for App code (IV4): which class a file ARA opened with
 * O_PATH belongs to, told by what the kernel says about the object (its
 * file system's magic, its type and device number, and for procfs and
 * sysfs the kernel's own name of it), never by the path the App gave; and
 * what App code may do with each class. docs/files.md has the table, each
 * row with its reason and the test that checks it.
 *
 * Allowlist-minded: a device node is allowed only in a class listed here
 * (every other character device, and every block device, is refused); a
 * procfs, sysfs or cgroup file may be written only if listed; the kernel's
 * interface file systems are refused whole. Ordinary files, on any other
 * file system, are the kernel's own permission checks' business.
 * Pure code: DOM0 runs it (open.c), the host unit tests it.
 */
#ifndef ARA_FILE_CLASS_H
#define ARA_FILE_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the kernel says about an opened object. */
struct ara_file {
	uint64_t fs_magic;           /* fstatfs: f_type */
	uint32_t type;               /* statx: stx_mode & S_IFMT */
	uint32_t rdev_major, rdev_minor; /* statx: of a device node */
	uint32_t tpm_major;          /* the TPM driver's character major (0: none), /proc/devices */
	const char *name;            /* procfs and sysfs: the kernel's name (else ignored) */
	size_t name_len;
};

enum ara_file_class {
	ARA_FILE_ORDINARY,           /* files of a file system without a row of its own */
	ARA_FILE_DEV_BASIC,          /* 1:3 null, 1:5 zero, 1:7 full, 1:8 random, 1:9 urandom */
	ARA_FILE_DEV_TTY,            /* terminals: 4:*, 5:0-2, pts 136-143:*, 204:*, 229:* */
	ARA_FILE_DEV_MISC_ALLOWED,   /* 10:183 hwrng, 10:200 net/tun */
	ARA_FILE_DEV_TPM,            /* the TPM driver's major, 10:224 */
	ARA_FILE_DEV_OTHER_CHAR,     /* every other character device */
	ARA_FILE_DEV_BLOCK,          /* every block device */
	ARA_FILE_PROC_MEMORY,        /* procfs, by name (procpath.h) */
	ARA_FILE_PROC_REGISTERS,
	ARA_FILE_PROC_KERNEL_STACK,
	ARA_FILE_PROC_PAGE_STATE,
	ARA_FILE_PROC_PHYSICAL,
	ARA_FILE_PROC_SYSRQ,
	ARA_FILE_PROC_KERNEL_LOG,
	ARA_FILE_PROC_TASK_WRITABLE,
	ARA_FILE_PROC_UNNAMED,
	ARA_FILE_PROC_OTHER,
	ARA_FILE_SYS_PHYSICAL,       /* sysfs, by name */
	ARA_FILE_SYS_PAGE_STATE,
	ARA_FILE_SYS_UNNAMED,
	ARA_FILE_SYS_OTHER,
	ARA_FILE_CGROUP,             /* cgroup v1 and v2 */
	ARA_FILE_POLICY_FS,          /* selinuxfs, smackfs, fusectl */
	ARA_FILE_KERNEL_FS,          /* tracefs, debugfs, securityfs, bpffs, configfs, binfmt_misc,
					efivarfs, pstore */
};

/* What an open asks for: O_PATH, reading only, or writing (O_WRONLY, O_RDWR, O_TRUNC). */
enum ara_file_access {
	ARA_ACCESS_PATH,
	ARA_ACCESS_READ,
	ARA_ACCESS_WRITE,
};

/* The file systems whose objects are classified by the kernel's name of them. */
bool ara_file_needs_name(uint64_t fs_magic);

enum ara_file_class ara_file_classify(const struct ara_file *f);

/* May App code open a file of class c for access? */
bool ara_file_class_allows(enum ara_file_class c, enum ara_file_access access);

/* The access an open's flags ask for (O_PATH wins; O_TRUNC writes). */
enum ara_file_access ara_file_access_of(uint64_t open_flags);

#endif
