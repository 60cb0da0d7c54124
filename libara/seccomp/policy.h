/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's system call policy for App code (everything outside ARA's system-call page):
 * the calls denied (with EPERM, unless a rule says otherwise) and the calls trapped to ARA (SIGSYS, which
 * ARA handles: libara/src/dom0/signal.c), each with the reason. Data,
 * shared by the generator (ara_seccomp_gen.c) and the tests;
 * docs/syscalls.md explains each rule.
 */
#ifndef ARA_SECCOMP_POLICY_H
#define ARA_SECCOMP_POLICY_H

#include <stddef.h>
#include <stdint.h>

struct ara_seccomp_rule {
	const char *name; /* libseccomp's name of the arm64 system call */
	/* Deny only if (argument arg & mask) == value; mask 0: always. */
	uint64_t mask, value;
	const char *why;
	/* If set, deny only if arg1 is not zero either. */
	int arg1_nonzero;
	unsigned int arg;
	/* The error App code gets; 0: EPERM. */
	int err;
};

extern const struct ara_seccomp_rule ara_seccomp_denied[];
extern const size_t ara_seccomp_denied_count;

/* Trapped (if bits: only when argument arg has all of them set); ARA performs the call. */
struct ara_seccomp_trap {
	const char *name;
	const char *why;
	unsigned int arg;
	uint64_t bits;
};

extern const struct ara_seccomp_trap ara_seccomp_trapped[];
extern const size_t ara_seccomp_trapped_count;

#endif
