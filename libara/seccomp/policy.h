/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The argument conditions of ARA's system call policy for App code
 * (everything outside ARA's system-call page): calls that are allowed with
 * some argument values and denied (with EPERM, unless a rule says
 * otherwise) or trapped to ARA (SIGSYS, which ARA handles:
 * libara/src/dom0/trap.c) with others, each with the reason. Every call
 * named here is an ARA_SYSCALL_ARGS row of the syscall table
 * (syscall_table.c), which holds the rules that do not depend on arguments.
 * Data, shared by the generator (ara_seccomp_gen.c) and the tests.
 */
#ifndef ARA_SECCOMP_POLICY_H
#define ARA_SECCOMP_POLICY_H

#include <stddef.h>
#include <stdint.h>

struct ara_seccomp_rule {
	const char *name; /* libseccomp's name of the arm64 system call */
	/* Deny only if (argument arg & mask) == value. */
	uint64_t mask, value;
	const char *when; /* the condition, in words */
	const char *why;
	/* If set, deny only if arg1 is not zero either. */
	int arg1_nonzero;
	unsigned int arg;
	/* The error App code gets; 0: EPERM. */
	int err;
};

extern const struct ara_seccomp_rule ara_seccomp_denied[];
extern const size_t ara_seccomp_denied_count;

/*
 * Trapped when argument arg has all of bits set, or, if mask is set, when
 * (argument arg & mask) == bits, or, if nonzero is set, when argument arg
 * is not zero (bits and mask 0); ARA performs the call.
 */
struct ara_seccomp_trap {
	const char *name;
	const char *when;
	const char *why;
	unsigned int arg;
	uint64_t bits;
	uint64_t mask;
	int nonzero;
};

extern const struct ara_seccomp_trap ara_seccomp_trapped[];
extern const size_t ara_seccomp_trapped_count;

#endif
