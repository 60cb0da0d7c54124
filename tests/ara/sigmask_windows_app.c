/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App side of ara_sigmask_windows (sigmask_windows.c, its tracer):
 * prints secure_call's address, then makes CALLS rt_sigprocmask calls
 * through the system call service (ARA_FID_SYSCALL), each right after
 * stopping itself with a raw kill(SIGSTOP), so that the tracer can step
 * into the call and land a SIGUSR1 at one instruction of it. The calls
 * set two masks in turn, one with SIGSYS asked for, so each changes the
 * mask. After each call: the status and result must be 0, the old mask
 * the one before, the thread's mask (the kernel's, by a query) the one
 * asked for without SIGSYS; the handler, which must run once per signal,
 * must see either mask at the interrupted point (the call rolled back, or
 * rolled forward or waited), never a waiting signal in it. At the end it
 * prints the calls, the wrong ones and the signals handled, which the
 * tracer checks.
 *
 * usage: sigmask_windows_app CALLS
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "ara/ara.h"
#include "tracee_stop.h"

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))

static volatile sig_atomic_t handled, seen_wrong;
static uint64_t before, after; /* the masks around the call being made */

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	uint64_t m;

	(void)sig;
	(void)si;
	memcpy(&m, &((ucontext_t *)ctx)->uc_sigmask, sizeof(m));
	if (m != before && m != after)
		seen_wrong++;
	handled++;
}

/* The thread's mask, from the kernel (a query: the filter lets it through). */
static uint64_t thread_mask(void)
{
	uint64_t m = 0;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &m, sizeof(m));
	return m;
}

int main(int argc, char **argv)
{
	/* SIGSYS asked for in one: never blocked. SIGUSR1, the tracer's, never asked for. */
	const uint64_t masks[2] = { BIT(SIGUSR2) | BIT(SIGSYS) | BIT(40), BIT(SIGPIPE) };
	const long calls = argc > 1 ? atol(argv[1]) : 0;
	const long pid = getpid();
	struct sigaction sa;
	long wrong = 0, made = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	if (calls <= 0 || sigaction(SIGUSR1, &sa, NULL) != 0) {
		printf("FAIL: usage: sigmask_windows_app CALLS, under ara-loader\n");
		return 2;
	}
	before = thread_mask();
	printf("secure_call %lx\n", (unsigned long)(uintptr_t)secure_call);
	fflush(stdout);
	for (long i = 0; i < calls; i++) {
		const uint64_t set = masks[i % 2];
		uint64_t old = ~UINT64_C(0), now;
		struct ara_syscall_arg a = {
			.nr = SYS_rt_sigprocmask,
			.args = { SIG_SETMASK, (uintptr_t)&set, (uintptr_t)&old, sizeof(set) },
			.result = -1,
		};
		int st;

		after = set & ~BIT(SIGSYS);
		stop_self(pid);
		st = secure_call(ARA_FID_SYSCALL, &a);
		made++;
		now = thread_mask();
		if (st != ARA_OK || a.result != 0 || old != before || now != after) {
			printf("FAIL: call %ld: status %d, result %lld, old mask 0x%llx (expected "
			       "0x%llx), mask after 0x%llx (expected 0x%llx)\n",
			       i, st, (long long)a.result, (unsigned long long)old,
			       (unsigned long long)before, (unsigned long long)now,
			       (unsigned long long)after);
			wrong++;
		}
		before = now;
	}
	printf("done: %ld calls, %ld wrong, %d signals handled, %d with a wrong mask\n", made, wrong,
	       (int)handled, (int)seen_wrong);
	return wrong || seen_wrong ? 1 : 0;
}
