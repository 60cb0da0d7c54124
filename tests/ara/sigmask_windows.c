/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_sigmask_windows: a signal at each instruction of the system call
 * service's rt_sigprocmask (secure_call(ARA_FID_SYSCALL)), its restartable
 * section on the system-call page included (libara/src/interrupt.c,
 * svc_syscall.c), and the mask right after each call.
 *
 * This program is not an ARA App: it runs sigmask_windows_app under
 * ara-loader as its tracee, as gate_windows does. The App stops itself
 * before each call; the tracer single-steps to secure_call and then j
 * instructions on, and lands a SIGUSR1 there (PTRACE_CONT with the
 * signal), for j = 0, 1, ... until the call returns before j: every
 * instruction of the path, the gate's, the service's and the kernel
 * entry's svc, takes a signal once. It finds the section as the path's
 * svc with x8 = rt_sigprocmask and the two instructions before it. It
 * fails unless the App found every call's results and masks right, its
 * handler ran once per signal, and the section's three instructions each
 * took a signal.
 *
 * usage: sigmask_windows ARA_LOADER [LOADER_ARGS...] APP
 *        (the App gets the number of calls as its argument)
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>

#include "step_tracer.h"

#define CALLS 600 /* more than the path's instructions */
#define SVC0 UINT32_C(0xd4000001)

static uint64_t section_svc; /* the section's svc, once seen */
static long path_len = -1; /* the whole path's instructions, once a call returned before j */
static uint64_t landed[CALLS]; /* where each signal landed */
static long signals;

static void seen(const struct step_regs *r)
{
	if (r->x[8] == SYS_rt_sigprocmask && step_insn_at(r->pc) == SVC0)
		section_svc = r->pc;
}

/* At the App's stop before call number j: steps in j instructions and lands the signal. */
static int one_call(uint64_t secure_call, long j)
{
	uint64_t at;

	if (j >= CALLS)
		return -1;
	/* Once the whole path has been swept, the rest of the calls run untouched. */
	if (path_len >= 0)
		return step_continue();
	switch (step_call(secure_call, j, seen, &at)) {
	case STEP_LANDED:
		landed[j] = at;
		signals++;
		return 0;
	case STEP_RETURNED:
		path_len = (long)at;
		return 0;
	default:
		return -1;
	}
}

static int landed_at(uint64_t pc)
{
	for (long j = 0; j < CALLS; j++)
		if (landed[j] == pc)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	char line[256], calls_arg[16];
	char *args[32];
	long n, made = -1, wrong = -1, handled = -1, seen_wrong = -1;
	int section_hit = 0;
	FILE *app_out;

	if (argc < 3 || argc > 29) {
		fprintf(stderr, "usage: sigmask_windows ARA_LOADER [LOADER_ARGS...] APP\n");
		return 2;
	}
	snprintf(calls_arg, sizeof(calls_arg), "%d", CALLS);
	for (int i = 1; i < argc; i++)
		args[i - 1] = argv[i];
	args[argc - 1] = calls_arg;
	args[argc] = NULL;
	app_out = step_run(args, one_call, &n);
	if (!app_out)
		return 1;
	while (fgets(line, sizeof(line), app_out)) {
		fputs(line, stdout);
		sscanf(line, "done: %ld calls, %ld wrong, %ld signals handled, %ld with a wrong mask", &made,
		       &wrong, &handled, &seen_wrong);
	}
	if (section_svc)
		section_hit = landed_at(section_svc - 8) + landed_at(section_svc - 4) + landed_at(section_svc);
	printf("ara-evidence: sigmask-windows: %ld calls, %ld signals landed at successive "
	       "instructions (the whole path of %ld, the restartable section's 3 among them: %d "
	       "hit), %ld calls with a wrong result or mask, %ld signals handled by the App, %ld "
	       "of them with a wrong mask\n",
	       n, signals, path_len, section_hit, wrong, handled, seen_wrong);
	if (made != CALLS || wrong != 0 || seen_wrong != 0 || handled != signals || path_len < 0 ||
	    section_hit != 3) {
		printf("FAIL: calls %ld, wrong %ld, handled %ld of %ld signals (%ld with a wrong "
		       "mask), path %ld, section instructions hit %d of 3\n",
		       made, wrong, handled, signals, seen_wrong, path_len, section_hit);
		return 1;
	}
	return 0;
}
