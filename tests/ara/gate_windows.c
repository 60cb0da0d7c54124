/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_gate_windows: a signal at each instruction of a secure_call or an
 * RTM append, not only where a random one happens to land (IV5,
 * libara/src/interrupt.c).
 *
 * This program is not an ARA App: it runs gate_windows_app under
 * ara-loader as its tracee. The App stops itself before each call; from
 * there the tracer single-steps to the entry (secure_call or
 * ara_rtm_append) and then j instructions on, and lands a SIGUSR1 there
 * (PTRACE_CONT with the signal), for j = 0, 1, ... until the call returns
 * before j. So every instruction of the path of a null call, of a
 * value-argument call into a C service, of a call to a fid without a
 * service, of an RTM append on the gate's stackless path and of one the
 * gate passes to secure_call's landing (the gate's pages, and DOM0's code
 * the call runs) takes a signal once. It fails unless every call returned its
 * status, the App's handler ran once per signal, and every gate
 * instruction on each path took a signal.
 *
 * usage: gate_windows ARA_LOADER APP
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
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/gate.h"

#define CALLS 120 /* per kind: more than the longest path's instructions */
#define KINDS 5 /* gate_windows_app.c's; the last two enter through ara_rtm_append */
#define RTM_KIND 3
#define STEP_MAX 5000

struct regs {
	uint64_t x[31], sp, pc, pstate;
};

static pid_t child;
static uint64_t gate; /* page 0 of .ara_gate */
/* Per kind, the gate offsets (0 .. 3 pages) of a whole path, and which took a signal. */
static unsigned char on_path[KINDS][ARA_GATE_TEXT_SIZE / 4], hit[KINDS][ARA_GATE_TEXT_SIZE / 4];

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

static int in_gate(uint64_t pc)
{
	return pc >= gate && pc < gate + ARA_GATE_TEXT_SIZE;
}

/* At the App's stop before call number n: steps in and lands the signal. */
static int one_call(long n, long *signals)
{
	const int kind = (int)(n / CALLS);
	const long j = n % CALLS;
	const uint64_t call = gate + ARA_GATE_DOM1_OFFSET +
			      (kind >= RTM_KIND ? ARA_GATE_RTM_APPEND : ARA_GATE_SECURE_CALL);
	struct regs r = get_regs();
	uint64_t back;
	long steps = 0;

	while (r.pc != call) {
		if (step() != 0 || ++steps > STEP_MAX) {
			printf("FAIL: call %ld: the entry not reached\n", n);
			return -1;
		}
		r = get_regs();
	}
	back = r.x[30];
	for (long i = 0;; i++) {
		if (r.pc == back) /* returned before instruction j: a whole path */
			break;
		if (i == j) {
			if (in_gate(r.pc))
				hit[kind][(r.pc - gate) / 4] = 1;
			(*signals)++;
			return ptrace(PTRACE_CONT, child, 0, SIGUSR1) == 0 ? 0 : -1;
		}
		if (in_gate(r.pc))
			on_path[kind][(r.pc - gate) / 4] = 1;
		if (step() != 0 || i > STEP_MAX) {
			printf("FAIL: call %ld: stopped for something else at step %ld\n", n, i);
			return -1;
		}
		r = get_regs();
	}
	return ptrace(PTRACE_CONT, child, 0, 0) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int out[2], status;
	FILE *app_out;
	char line[256], calls_arg[16];
	long n = 0, signals = 0, made = -1, wrong = -1, handled = -1;
	int execed = 0;
	unsigned int missed = 0, covered = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: gate_windows ARA_LOADER APP\n");
		return 2;
	}
	snprintf(calls_arg, sizeof(calls_arg), "%d", CALLS);
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
		execl(argv[1], argv[1], argv[2], calls_arg, (char *)NULL);
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
			if (!gate) {
				unsigned long sc;

				if (!fgets(line, sizeof(line), app_out) ||
				    sscanf(line, "secure_call %lx", &sc) != 1) {
					printf("FAIL: the App did not say where secure_call is\n");
					kill(child, SIGKILL);
					return 1;
				}
				gate = (sc & ~(uint64_t)(ARA_PAGE_SIZE - 1)) - ARA_GATE_DOM1_OFFSET;
			}
			if (n >= (long)KINDS * CALLS || one_call(n++, &signals) != 0) {
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
		sscanf(line, "done: %ld calls, %ld wrong, %ld signals handled", &made, &wrong, &handled);
	}
	for (int k = 0; k < KINDS; k++)
		for (unsigned int w = 0; w < ARA_GATE_TEXT_SIZE / 4; w++) {
			if (!on_path[k][w])
				continue;
			covered += hit[k][w];
			if (!hit[k][w]) {
				printf("FAIL: kind %d: gate page %u +0x%03x took no signal\n", k,
				       w * 4 / ARA_PAGE_SIZE, w * 4 % ARA_PAGE_SIZE);
				missed++;
			}
		}
	printf("ara-evidence: gate-windows: %ld calls, %ld signals landed at successive "
	       "instructions (%u gate instructions of the null, value, no-service and RTM append "
	       "paths, each interrupted), %ld wrong statuses, %ld signals handled by the App\n",
	       n, signals, covered, wrong, handled);
	if (made != (long)KINDS * CALLS || wrong != 0 || handled != signals || missed || !covered) {
		printf("FAIL: calls %ld, wrong %ld, handled %ld of %ld signals, %u gate "
		       "instructions without a signal\n", made, wrong, handled, signals, missed);
		return 1;
	}
	return 0;
}
