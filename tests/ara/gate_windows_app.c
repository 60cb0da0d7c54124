/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App side of ara_gate_windows (gate_windows.c, its tracer): prints
 * secure_call's address, then makes calls (secure_call, and the RTM's
 * append: an entry, and a refused one), each right after stopping
 * itself with a raw kill(SIGSTOP), so that the tracer can step into the
 * call and land a SIGUSR1 at one instruction of it. Every call must return
 * its status whatever instruction the signal interrupted, and the handler
 * must run once per signal: at the end it prints the calls, the statuses
 * that were wrong and the signals handled, which the tracer checks.
 *
 * usage: gate_windows_app CALLS   (CALLS calls of each of the five kinds)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "tracee_stop.h"

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(int argc, char **argv)
{
	/* fid 0: the RTM's append (ara_rtm_append) of the entry in arg. */
	const struct {
		uint64_t fid;
		uint64_t arg;
		int want;
	} kinds[] = {
		{ ARA_FID_NULL, 0, ARA_OK },
		{ ARA_FID_VALUE, ARA_VALUE_PROBE, ARA_OK },
		{ ARA_FID(0x7777, 1), 0, ARA_E_NOFUNC },
		{ 0, ara_rtm_entry(ARA_RTM_RET, 0x400abc), ARA_OK },
		{ 0, ara_rtm_entry(0, 0x400abc), ARA_E_INVAL }, /* the regular path */
	};
	const long calls = argc > 1 ? atol(argv[1]) : 0;
	const long pid = getpid();
	struct sigaction sa;
	long wrong = 0, made = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (calls <= 0 || sigaction(SIGUSR1, &sa, NULL) != 0) {
		printf("FAIL: usage: gate_windows_app CALLS, under ara-loader\n");
		return 2;
	}
	/* The log made before, so that every append of the fourth kind can take the gate's path. */
	if (ara_rtm_append(ara_rtm_entry(ARA_RTM_RET, 0x400abc)) != ARA_OK) {
		printf("FAIL: the first RTM append\n");
		return 2;
	}
	printf("secure_call %lx\n", (unsigned long)(uintptr_t)secure_call);
	fflush(stdout);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (long i = 0; i < calls; i++) {
			int st;

			stop_self(pid);
			st = kinds[k].fid ? secure_call((uint32_t)kinds[k].fid,
							(void *)(uintptr_t)kinds[k].arg)
					  : ara_rtm_append(kinds[k].arg);
			made++;
			if (st != kinds[k].want) {
				printf("FAIL: call %ld of fid 0x%llx: status %d, expected %d\n", i,
				       (unsigned long long)kinds[k].fid, st, kinds[k].want);
				wrong++;
			}
		}
	printf("done: %ld calls, %ld wrong, %d signals handled\n", made, wrong, (int)handled);
	return wrong ? 1 : 0;
}
