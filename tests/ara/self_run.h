/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An attack test's attempt that may end its process (a fault, a refusal
 * ARA ends the process for) runs in a child: this program started again
 * with execve, which ARA runs under ARA with the same libara. The parent
 * keeps the child's output and wait status to judge.
 */
#ifndef ARA_TEST_SELF_RUN_H
#define ARA_TEST_SELF_RUN_H

#include <stddef.h>

#define SELF_RUN_OUT_MAX 65536 /* bytes of a child's output kept */

struct self_run {
	int status; /* waitpid's */
	size_t len;
	char out[SELF_RUN_OUT_MAX]; /* the child's stdout and stderr, as written */
};

/*
 * Runs self with arguments args (NULL-terminated; argv[0] is self), its
 * stdout and stderr into r. 0, or -1 (printed with perror).
 */
int self_run(const char *self, const char *const *args, struct self_run *r);

/* Whether the child's output holds the n bytes at s. */
int self_run_has(const struct self_run *r, const void *s, size_t n);

#endif
