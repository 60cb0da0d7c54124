/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checks of a functional test program (signal_app, thread_app): each
 * one counted, each failure printed with FAIL, a summary at the end.
 */
#ifndef ARA_TEST_CHECK_H
#define ARA_TEST_CHECK_H

/* Counts a check; if !ok, prints "FAIL: " and the message. */
void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How many checks failed so far. */
unsigned int check_failures(void);

/* Prints "ara-evidence: WHAT: N checks, M failed"; returns 1 if any failed, else 0. */
int check_report(const char *what);

#endif
