/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks with a vfork child that outlives its parent (docs/security.md,
 * class 6; libara/src/dom0/vfork.h). The kernel's wait for a vfork child
 * is killable: the parent's process can be killed (or ended by ARA) while
 * the child, which shares DOM0's state, runs on alone, with no one left to
 * check how it leaves. ARA ties the child to its parent thread with the
 * parent-death signal SIGKILL; each attack tries to outlive the parent all
 * the same, and calls ARA afterwards:
 *
 *   vfork_parent_killed   the child does nothing special. Unprotected
 *                         (no-clone-guard, no tie): it survives.
 *   vfork_pdeath_cleared  the child clears its parent-death signal with
 *                         prctl(PR_SET_PDEATHSIG, 0), which ARA keeps for
 *                         the child's execve. Unprotected (no-pdeath-lock,
 *                         the prctl made at once): it survives.
 *   vfork_parent_exec     the vfork parent is a second thread, and the first
 *                         thread executes a program (this one again, with
 *                         exec_target, which exits at once): the kernel
 *                         ends the parent thread (de_thread) and the process
 *                         goes on in a new memory, leaving the child alone
 *                         in the old one. Unprotected (no-clone-guard): it
 *                         survives.
 *   vfork_setuid_pdeath   the child changes its user IDs, which clears the
 *                         signal in the kernel (commit_creds); ARA dropped
 *                         CAP_SETUID, and the real, effective and saved IDs
 *                         are one (clone.c says why), so there is nothing to
 *                         move to. Unprotected (no-privilege-drop): it
 *                         survives.
 *
 * The judge is the attack's first process R, a child subreaper: its child
 * A makes the vfork child C, which tells R when it runs; R kills A
 * (SIGKILL; or A executes a program), reaps it, tells C to go on, and then
 * reads C's report or the end of its pipe, and reaps C (handed to R). A
 * report is the leak; C killed by SIGKILL without one is the defence.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "attack.h"

#define SAFETY_ALARM 240 /* seconds: a hang becomes a reported failure */

enum setup { SETUP_NONE, SETUP_PDEATH_CLEARED, SETUP_SETUID, SETUP_SIBLING_EXEC };

/* C's pipe ends, and, for A's first thread, whether C runs (C sets it: shared memory). */
struct child_fds {
	enum setup setup;
	int ready, go, report;
};

static int child_running;
static const char *self; /* argv[0]: this program, which vfork_parent_exec executes */

/* C to R, once it runs (its setup done). */
struct ready {
	int pid;
	long setup_rc;
	int setup_errno;
	int pdeath; /* PR_GET_PDEATHSIG after the setup */
};

/* In the vfork child (App code; raw system calls only): the setup, then wait, then ARA. */
static __attribute__((noreturn)) void child(enum setup setup, int ready_fd, int go_fd, int report_fd)
{
	struct ready r = { 0 };
	int secure = 0;
	char go;

	if (setup == SETUP_PDEATH_CLEARED) {
		r.setup_rc = syscall(SYS_prctl, PR_SET_PDEATHSIG, 0, 0, 0, 0);
	} else if (setup == SETUP_SETUID) {
		const long to = syscall(SYS_getuid) == 65534 ? 65533 : 65534;

		r.setup_rc = syscall(SYS_setresuid, to, to, to);
	}
	r.setup_errno = r.setup_rc < 0 ? errno : 0;
	syscall(SYS_prctl, PR_GET_PDEATHSIG, &r.pdeath, 0, 0, 0);
	r.pid = (int)syscall(SYS_getpid);
	if (write(ready_fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		syscall(SYS_exit_group, 80);
	__atomic_store_n(&child_running, 1, __ATOMIC_RELEASE);
	/* R kills the parent's process here, then says go. */
	if (read(go_fd, &go, 1) != 1)
		syscall(SYS_exit_group, 81);
	secure = secure_call(ARA_FID_NULL, NULL);
	if (write(report_fd, &secure, sizeof(secure)) != (ssize_t)sizeof(secure))
		syscall(SYS_exit_group, 82);
	syscall(SYS_exit_group, 0);
	__builtin_unreachable();
}

static void *vfork_in_thread(void *arg)
{
	const struct child_fds *f = arg;

	if (vfork() == 0)
		child(f->setup, f->ready, f->go, f->report);
	return NULL; /* the child left before the first thread executed */
}

/*
 * A: the vfork parent, killed while it waits; or, for SETUP_SIBLING_EXEC,
 * a second thread is, and this one executes exec_target once the child runs.
 */
static __attribute__((noreturn)) void parent(enum setup setup, int ready_fd, int go_fd, int report_fd)
{
	static struct child_fds f;
	pthread_t thread;
	pid_t pid;

	if (setup == SETUP_SIBLING_EXEC) {
		f = (struct child_fds){ setup, ready_fd, go_fd, report_fd };
		if (pthread_create(&thread, NULL, vfork_in_thread, &f) != 0)
			_exit(93);
		while (!__atomic_load_n(&child_running, __ATOMIC_ACQUIRE))
			sched_yield();
		execl(self, self, "exec_target", (char *)NULL);
		_exit(94);
	}
	pid = vfork();
	if (pid == 0)
		child(setup, ready_fd, go_fd, report_fd);
	_exit(pid < 0 ? 90 : 91); /* the child left before R killed this process */
}

static int orphan(enum setup setup, const char *what)
{
	int ready_p[2], go_p[2], report_p[2], status, secure;
	struct ready r;
	ssize_t n;
	pid_t a;

	alarm(SAFETY_ALARM);
	signal(SIGPIPE, SIG_IGN); /* a dead C closed the go pipe's end */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || pipe(ready_p) || pipe(go_p) || pipe(report_p)) {
		printf("FAIL: set-up: %s\n", strerror(errno));
		return 1;
	}
	fflush(stdout);
	a = fork();
	if (a < 0) {
		printf("FAIL: fork: %s\n", strerror(errno));
		return 1;
	}
	if (a == 0) {
		close(ready_p[0]);
		close(go_p[1]);
		close(report_p[0]);
		parent(setup, ready_p[1], go_p[0], report_p[1]);
	}
	close(ready_p[1]);
	close(go_p[0]);
	close(report_p[1]);
	if (read(ready_p[0], &r, sizeof(r)) != (ssize_t)sizeof(r)) {
		waitpid(a, &status, 0);
		printf("FAIL: %s: the vfork child did not start (its parent's wait status 0x%x)\n", what,
		       status);
		return 1;
	}
	if (setup == SETUP_PDEATH_CLEARED || setup == SETUP_SETUID)
		printf("ara-evidence: %s: the vfork child's call returned %ld (%s), its parent-death "
		       "signal is now %d\n",
		       what, r.setup_rc, r.setup_rc < 0 ? strerror(r.setup_errno) : "no error", r.pdeath);
	if (setup == SETUP_SIBLING_EXEC) {
		/* A executes exec_target, which exits 0. */
		if (waitpid(a, &status, 0) != a || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			printf("FAIL: %s: the vfork parent's process did not execute exec_target (wait "
			       "status 0x%x)\n",
			       what, status);
			return 1;
		}
	} else {
		kill(a, SIGKILL);
		if (waitpid(a, &status, 0) != a || !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			printf("FAIL: %s: the vfork parent did not die by SIGKILL (wait status 0x%x)\n",
			       what, status);
			return 1;
		}
	}
	/* The child is R's now (the subreaper); its signal, if any, is on its way. */
	(void)!write(go_p[1], "g", 1);
	n = read(report_p[0], &secure, sizeof(secure));
	if (waitpid(r.pid, &status, 0) != r.pid) {
		printf("FAIL: %s: the vfork child %d is not R's to reap: %s\n", what, r.pid,
		       strerror(errno));
		return 1;
	}
	if (n == (ssize_t)sizeof(secure)) {
		printf("LEAK: %s: a vfork child outlived its parent (thread) and called ARA alone in "
		       "the memory it shared (secure_call answered %d)\n",
		       what, secure);
		return 1;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		printf("ara-evidence: %s: the vfork child died with its parent (SIGKILL), before "
		       "running App code again\n",
		       what);
		return 0;
	}
	printf("FAIL: %s: the vfork child ended otherwise (wait status 0x%x)\n", what, status);
	return 1;
}

static int vfork_parent_killed(void)
{
	return orphan(SETUP_NONE, "vfork parent killed");
}

static int vfork_pdeath_cleared(void)
{
	return orphan(SETUP_PDEATH_CLEARED, "prctl(PR_SET_PDEATHSIG, 0) in a vfork child");
}

static int vfork_parent_exec(void)
{
	return orphan(SETUP_SIBLING_EXEC, "another thread of the vfork parent's executed a program");
}

static int vfork_setuid_pdeath(void)
{
	return orphan(SETUP_SETUID, "setresuid in a vfork child");
}

/* Not an attack: the program vfork_parent_exec's first thread executes. */
static int exec_target(void)
{
	return 0;
}

int main(int argc, char **argv)
{
	static const struct attack_entry attacks[] = {
		{ "vfork_parent_killed", vfork_parent_killed },
		{ "vfork_pdeath_cleared", vfork_pdeath_cleared },
		{ "vfork_parent_exec", vfork_parent_exec },
		{ "vfork_setuid_pdeath", vfork_setuid_pdeath },
		{ "exec_target", exec_target },
	};

	self = argv[0];
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
