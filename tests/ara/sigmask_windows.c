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
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/gate.h"

#define CALLS 600 /* more than the path's instructions */
#define STEP_MAX 5000
#define SVC0 UINT32_C(0xd4000001)

struct regs {
	uint64_t x[31], sp, pc, pstate;
};

static pid_t child;
static uint64_t call_at; /* secure_call */
static uint64_t section_svc; /* the section's svc, once seen */
static long path_len = -1; /* the whole path's instructions, once a call returned before j */
static uint64_t landed[CALLS]; /* where each signal landed */

static void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	kill(child, SIGKILL);
	exit(1);
}

static struct regs get_regs(void)
{
	struct regs r;
	struct iovec io = { &r, sizeof(r) };

	if (ptrace(PTRACE_GETREGSET, child, (void *)NT_PRSTATUS, &io) != 0)
		die("PTRACE_GETREGSET");
	return r;
}

/* The instruction at pc (ptrace reads any page, DOM0's too). */
static uint32_t insn_at(uint64_t pc)
{
	long w;

	errno = 0;
	w = ptrace(PTRACE_PEEKTEXT, child, (void *)(uintptr_t)(pc & ~UINT64_C(7)), 0);
	if (errno)
		die("PTRACE_PEEKTEXT");
	return (uint32_t)((uint64_t)w >> ((pc & 4) * 8));
}

/* One instruction; 0, or -1 if the tracee stopped for something else. */
static int step(void)
{
	int status;

	if (ptrace(PTRACE_SINGLESTEP, child, 0, 0) != 0)
		die("PTRACE_SINGLESTEP");
	if (waitpid(child, &status, 0) != child)
		die("waitpid");
	return WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP ? 0 : -1;
}

/* At the App's stop before call number j: steps in j instructions and lands the signal. */
static int one_call(long j, long *signals)
{
	struct regs r = get_regs();
	uint64_t back;
	long steps = 0;

	while (r.pc != call_at) {
		if (step() != 0 || ++steps > STEP_MAX) {
			printf("FAIL: call %ld: secure_call not reached\n", j);
			return -1;
		}
		r = get_regs();
	}
	back = r.x[30];
	for (long i = 0;; i++) {
		if (r.pc == back) { /* returned before instruction j: the whole path */
			path_len = i;
			break;
		}
		if (i == j) {
			landed[j] = r.pc;
			(*signals)++;
			return ptrace(PTRACE_CONT, child, 0, SIGUSR1) == 0 ? 0 : -1;
		}
		if (r.x[8] == SYS_rt_sigprocmask && insn_at(r.pc) == SVC0)
			section_svc = r.pc;
		if (step() != 0 || i > STEP_MAX) {
			printf("FAIL: call %ld: stopped for something else at step %ld\n", j, i);
			return -1;
		}
		r = get_regs();
	}
	return ptrace(PTRACE_CONT, child, 0, 0) == 0 ? 0 : -1;
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
	int out[2], status, execed = 0;
	FILE *app_out;
	char line[256], calls_arg[16];
	char *args[32];
	long n = 0, signals = 0, made = -1, wrong = -1, handled = -1, seen_wrong = -1;
	int section_hit = 0;

	if (argc < 3 || argc > 29) {
		fprintf(stderr, "usage: sigmask_windows ARA_LOADER [LOADER_ARGS...] APP\n");
		return 2;
	}
	snprintf(calls_arg, sizeof(calls_arg), "%d", CALLS);
	for (int i = 1; i < argc; i++)
		args[i - 1] = argv[i];
	args[argc - 1] = calls_arg;
	args[argc] = NULL;
	if (pipe(out) != 0)
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
			_exit(127);
		raise(SIGSTOP);
		execv(args[0], args);
		_exit(127);
	}
	close(out[1]);
	app_out = fdopen(out[0], "r");
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		die("the child's first stop");
	if (ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL) != 0)
		die("PTRACE_SETOPTIONS");
	if (ptrace(PTRACE_CONT, child, 0, 0) != 0)
		die("PTRACE_CONT");
	while (waitpid(child, &status, 0) == child) {
		int sig;

		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		sig = WSTOPSIG(status);
		if (sig == SIGTRAP && (status >> 16) == PTRACE_EVENT_EXEC) {
			execed = 1;
			sig = 0;
		} else if (sig == SIGSTOP && execed) {
			if (!call_at) {
				unsigned long sc;

				if (!fgets(line, sizeof(line), app_out) ||
				    sscanf(line, "secure_call %lx", &sc) != 1) {
					printf("FAIL: the App did not say where secure_call is\n");
					kill(child, SIGKILL);
					return 1;
				}
				call_at = sc;
			}
			if (n >= CALLS) {
				printf("FAIL: more calls than %d\n", CALLS);
				kill(child, SIGKILL);
				return 1;
			}
			/* Once the whole path has been swept, the rest of the calls run untouched. */
			if (path_len >= 0) {
				n++;
				if (ptrace(PTRACE_CONT, child, 0, 0) != 0)
					die("PTRACE_CONT");
			} else if (one_call(n++, &signals) != 0) {
				printf("FAIL: at call %ld\n", n);
				kill(child, SIGKILL);
				return 1;
			}
			continue;
		}
		/* Any other signal (ARA queues a waiting one again): delivered as it came. */
		if (ptrace(PTRACE_CONT, child, 0, sig) != 0)
			die("PTRACE_CONT");
	}
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
