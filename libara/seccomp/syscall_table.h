/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every arm64 system call number, 0 to ARA_SYSCALL_LAST (Linux 6.12's
 * last), with what ARA's filter does with it for App code and why: the one
 * place each number is reviewed. ara-seccomp-gen builds the filter's
 * unconditional rules from it (and refuses numbers it does not list with
 * ENOSYS), takes the argument conditions from policy.c, and prints it as
 * docs/syscall-table.md; the unit tests check it against the kernel
 * headers the build uses and against the filter DOM0 installs.
 */
#ifndef ARA_SYSCALL_TABLE_H
#define ARA_SYSCALL_TABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The highest number reviewed: mseal, Linux 6.10 (6.12's last). The rows
 * were checked against Linux 6.12.107's scripts/syscall.tbl for arm64's
 * ABIs (common, 64, renameat, rlimit, memfd_secret): its 318 calls have the
 * same numbers and names here; the unit tests check the build's headers.
 */
#define ARA_SYSCALL_LAST 462u

/* What the call gets from App code, whatever its arguments (but see the flags). */
enum ara_syscall_rule {
	ARA_SYSCALL_ALLOWED,
	ARA_SYSCALL_DENIED,  /* the error err, EPERM if 0 */
	ARA_SYSCALL_TRAPPED, /* SIGSYS: ARA checks and performs it (libara/src/dom0/trap.c) */
	ARA_SYSCALL_ABSENT,  /* no such call on arm64 under Linux 6.12: ENOSYS, as the kernel */
};

/* An allowed call's exceptions. */
#define ARA_SYSCALL_RANGES 1u /* EPERM when its address overlaps ARA's ranges (seccomp_ranges.c) */
#define ARA_SYSCALL_ARGS 2u   /* some argument values denied or trapped (policy.c) */

struct ara_syscall {
	uint32_t nr, last; /* the numbers the row covers: nr..last */
	const char *name;  /* the kernel's name, without __NR_; NULL for unused numbers */
	uint8_t rule;	   /* enum ara_syscall_rule */
	uint8_t flags;	   /* ARA_SYSCALL_RANGES, ARA_SYSCALL_ARGS */
	int err;
	const char *why;
};

/* In ascending order, every number from 0 to ARA_SYSCALL_LAST in exactly one row. */
extern const struct ara_syscall ara_syscalls[];
extern const size_t ara_syscalls_count;

#endif
