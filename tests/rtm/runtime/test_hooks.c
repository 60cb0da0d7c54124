/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM hooks' handling of each RTM_LOG status (services/rtm/runtime/
 * hooks.S and hooks.c, docs/rtm.md "The runtime"), against a TEST DOUBLE of secure_call
 * (secure_call_double.h): logged; retried while busy; exported when a
 * segment is sealed; refused (DOM0 counts it); no RTM in the process
 * (warned once, the process goes on); and every other status, which must
 * end the process at the first lost entry with ARA_RTM_EXIT_NO_EVIDENCE
 * and one stderr line naming the status. Cases that may end the process,
 * or that write to stderr, run in a child. On arm64 these are the real
 * hooks (hooks.S); on the host, which has no hooks.S, a TEST DOUBLE of
 * their fast path below feeds the real slow path (hooks.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "runtime_internal.h"
#include "secure_call_double.h"

#define DEST ((void *)(uintptr_t)0x7f0000123450u)

#ifndef __aarch64__
/* TEST DOUBLE of hooks.S's fast path: the entry, the append, the slow path on any other status. */
static void hook(enum ara_rtm_kind kind, void *dest)
{
	const uint64_t entry = ara_rtm_entry(kind, dest);
	const int status = ara_rtm_append(entry);

	if (status != ARA_OK)
		ara_rtm_log_slow(status, entry);
}

void __ara_rtm_icall(void *dest)
{
	hook(ARA_RTM_ICALL, dest);
}

void __ara_rtm_ijmp(void *dest)
{
	hook(ARA_RTM_IJMP, dest);
}

void __ara_rtm_ret(void *dest)
{
	hook(ARA_RTM_RET, dest);
}
#endif

/* How a child that ran the hooks ended: its exit status (-1: not by exit) and its stderr. */
struct child {
	int exit_status;
	char err[1024];
};

/*
 * Calls __ara_rtm_icall `calls` times in a child whose secure_call answers
 * with script; the child exits 0 if every call returned.
 */
static void in_child(const int *script, size_t n, unsigned calls, struct child *c)
{
	int fds[2], status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(fds[1], STDERR_FILENO) < 0)
			_exit(2);
		close(fds[0]);
		close(fds[1]);
		double_script(script, n);
		for (unsigned i = 0; i < calls; i++)
			__ara_rtm_icall(DEST);
		_exit(0);
	}
	close(fds[1]);
	while (len < sizeof(c->err) - 1 &&
	       (got = read(fds[0], c->err + len, sizeof(c->err) - 1 - len)) > 0)
		len += (size_t)got;
	c->err[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	c->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Each hook logs its own kind and the destination, with RTM_LOG, once. */
static void logged(void **state)
{
	static const int ok[] = { ARA_OK };

	(void)state;
	double_script(ok, 1);
	__ara_rtm_icall(DEST);
	assert_int_equal(double_calls(), 1);
	assert_int_equal(double_last_fid(), ARA_FID_RTM_LOG);
	assert_int_equal(double_last_arg(), ara_rtm_entry(ARA_RTM_ICALL, DEST));
	double_script(ok, 1);
	__ara_rtm_ijmp(DEST);
	assert_int_equal(double_calls(), 1);
	assert_int_equal(double_last_arg(), ara_rtm_entry(ARA_RTM_IJMP, DEST));
	double_script(ok, 1);
	__ara_rtm_ret(DEST);
	assert_int_equal(double_calls(), 1);
	assert_int_equal(double_last_arg(), ara_rtm_entry(ARA_RTM_RET, DEST));
	assert_int_equal(double_flushes(), 0);
}

/* Every DOM0 stack in use: the same entry again until DOM0 takes it. */
static void busy_retries(void **state)
{
	static const int busy[] = { ARA_E_BUSY, ARA_E_BUSY, ARA_E_BUSY, ARA_OK };

	(void)state;
	double_script(busy, 4);
	__ara_rtm_ret(DEST);
	assert_int_equal(double_calls(), 4);
	assert_int_equal(double_last_arg(), ara_rtm_entry(ARA_RTM_RET, DEST));
	assert_int_equal(double_flushes(), 0);
}

/* A sealed segment is exported at once, and the entry is not logged twice. */
static void segment_exported(void **state)
{
	static const int ready[] = { ARA_RTM_SEGMENT_READY };

	(void)state;
	double_script(ready, 1);
	__ara_rtm_icall(DEST);
	assert_int_equal(double_calls(), 1);
	assert_int_equal(double_flushes(), 1);
}

/* The log is full until the sealed segment is exported: export, then the same entry again. */
static void full_exports_and_retries(void **state)
{
	static const int full[] = { ARA_RTM_LOG_FULL, ARA_RTM_LOG_FULL, ARA_OK };

	(void)state;
	double_script(full, 3);
	__ara_rtm_ret(DEST);
	assert_int_equal(double_calls(), 3);
	assert_int_equal(double_last_arg(), ara_rtm_entry(ARA_RTM_RET, DEST));
	assert_int_equal(double_flushes(), 2);
}

/* Refused (DOM0 counted it; the verifier refuses the run): the process goes on, silently. */
static void refused_goes_on(void **state)
{
	static const int inval[] = { ARA_E_INVAL, ARA_E_INVAL };
	struct child c;

	(void)state;
	in_child(inval, 2, 2, &c);
	assert_int_equal(c.exit_status, 0);
	assert_string_equal(c.err, "");
}

/* No RTM in this process: one warning, however many entries, and the process goes on. */
static void no_rtm_warns_once(void **state)
{
	static const int none[2][3] = {
		{ ARA_E_NOT_READY, ARA_E_NOT_READY, ARA_E_NOT_READY },
		{ ARA_E_NOFUNC, ARA_E_NOFUNC, ARA_E_NOFUNC },
	};
	char want[256];
	struct child c;

	(void)state;
	for (int i = 0; i < 2; i++) {
		in_child(none[i], 3, 3, &c);
		assert_int_equal(c.exit_status, 0);
		snprintf(want, sizeof(want), "ara-rtm: RTM_LOG failed, this run cannot be attested: %s\n",
			 ara_strerror(none[i][0]));
		assert_string_equal(c.err, want);
	}
}

/* DOM0 could not make the log: the process ends at that entry, and says why. */
static void nomem_ends_process(void **state)
{
	static const int nomem[] = { ARA_E_NOMEM, ARA_OK };
	struct child c;

	(void)state;
	in_child(nomem, 2, 2, &c);
	assert_int_equal(c.exit_status, ARA_RTM_EXIT_NO_EVIDENCE);
	assert_string_equal(c.err, "ara-rtm: RTM_LOG lost an entry (status 6), ending the "
				   "process: DOM0 heap exhausted\n");
}

/* Every other status, known or not, ends the process at the first lost entry. */
static void other_statuses_end_process(void **state)
{
	static const int lost[] = {
		ARA_E_FAULT,   ARA_E_NOTSUP,  ARA_E_SECURITY, ARA_E_INTERNAL,	 ARA_E_NO_EVIDENCE,
		ARA_E_REFUSED, ARA_E_BADMSG,  ARA_E_NOENT,    ARA_STATUS_COUNT, -12,
	};
	char want[256];
	struct child c;

	(void)state;
	for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++) {
		const int script[] = { ARA_OK, lost[i], ARA_OK };

		in_child(script, 3, 3, &c);
		assert_int_equal(c.exit_status, ARA_RTM_EXIT_NO_EVIDENCE);
		snprintf(want, sizeof(want),
			 "ara-rtm: RTM_LOG lost an entry (status %d), ending the process: %s\n",
			 lost[i], ara_strerror(lost[i]));
		assert_string_equal(c.err, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(logged),
		cmocka_unit_test(busy_retries),
		cmocka_unit_test(segment_exported),
		cmocka_unit_test(full_exports_and_retries),
		cmocka_unit_test(refused_goes_on),
		cmocka_unit_test(no_rtm_warns_once),
		cmocka_unit_test(nomem_ends_process),
		cmocka_unit_test(other_statuses_end_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
