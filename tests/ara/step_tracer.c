/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "step_tracer.h"

#define STEP_MAX 5000 /* instructions to the entry, and of a path */

static pid_t child;

static __attribute__((noreturn)) void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	kill(child, SIGKILL);
	exit(1);
}

struct step_regs step_regs(void)
{
	struct step_regs r;
	struct iovec io = { &r, sizeof(r) };

	if (ptrace(PTRACE_GETREGSET, child, (void *)NT_PRSTATUS, &io) != 0)
		die("PTRACE_GETREGSET");
	return r;
}

uint32_t step_insn_at(uint64_t pc)
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

int step_continue(void)
{
	if (ptrace(PTRACE_CONT, child, 0, 0) == 0)
		return 0;
	printf("FAIL: PTRACE_CONT: %s\n", strerror(errno));
	return -1;
}

enum step_result step_call(uint64_t entry, long j, void (*seen)(const struct step_regs *r),
			   uint64_t *at)
{
	struct step_regs r = step_regs();
	uint64_t back;
	long steps = 0;

	while (r.pc != entry) {
		if (step() != 0 || ++steps > STEP_MAX) {
			printf("FAIL: the call's entry not reached\n");
			return STEP_FAILED;
		}
		r = step_regs();
	}
	back = r.x[30];
	for (long i = 0;; i++) {
		if (r.pc == back) { /* returned before instruction j: the whole path */
			*at = (uint64_t)i;
			return step_continue() == 0 ? STEP_RETURNED : STEP_FAILED;
		}
		if (i == j) {
			*at = r.pc;
			if (ptrace(PTRACE_CONT, child, 0, SIGUSR1) == 0)
				return STEP_LANDED;
			printf("FAIL: PTRACE_CONT with SIGUSR1: %s\n", strerror(errno));
			return STEP_FAILED;
		}
		if (seen)
			seen(&r);
		if (step() != 0 || i > STEP_MAX) {
			printf("FAIL: stopped for something else at step %ld\n", i);
			return STEP_FAILED;
		}
		r = step_regs();
	}
}

/* The tracee: stdout to the pipe, traced from its exec on. */
static __attribute__((noreturn)) void tracee(char *const argv[], const int out[2])
{
	dup2(out[1], 1);
	close(out[0]);
	close(out[1]);
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
		_exit(127);
	raise(SIGSTOP);
	execv(argv[0], argv);
	_exit(127);
}

FILE *step_run(char *const argv[], int (*at_stop)(uint64_t secure_call, long n), long *calls)
{
	int out[2], status, execed = 0;
	uint64_t secure_call = 0;
	char line[256];
	FILE *app_out;

	*calls = 0;
	if (pipe(out) != 0)
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0)
		tracee(argv, out);
	close(out[1]);
	app_out = fdopen(out[0], "r");
	if (!app_out)
		die("fdopen");
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
			if (!secure_call) {
				unsigned long sc;

				if (!fgets(line, sizeof(line), app_out) ||
				    sscanf(line, "secure_call %lx", &sc) != 1) {
					printf("FAIL: the App did not say where secure_call is\n");
					kill(child, SIGKILL);
					return NULL;
				}
				secure_call = sc;
			}
			if (at_stop(secure_call, (*calls)++) != 0) {
				printf("FAIL: at call %ld\n", *calls);
				kill(child, SIGKILL);
				return NULL;
			}
			continue;
		}
		/* Any other signal (ARA queues a waiting one again): delivered as it came. */
		if (ptrace(PTRACE_CONT, child, 0, sig) != 0)
			die("PTRACE_CONT");
	}
	return app_out;
}
