/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks with tasks that share the App's memory and die inside ARA
 * (docs/security.md, class 6; libara/src/dom0/clone.c). DOM0's state (its claimed
 * stacks, locks, heap) lives in that memory; a task killed or ended inside
 * ARA leaves what it held taken or half-changed. A thread dies with its
 * whole thread group; any other such task would leave its group running
 * on that state. Each attack runs against libara and against the
 * no-clone-guard variant (tests/variants), where it must get through:
 *
 *   clone_vm_task         clone(CLONE_VM) without CLONE_THREAD or CLONE_VFORK
 *                         (and vfork with CLONE_PARENT), refused with EPERM.
 *                         Unprotected: tasks killed while they call ARA leave
 *                         DOM0's call stacks taken, until secure_call answers
 *                         ARA_E_BUSY to a process with one thread.
 *   vfork_killed_inside   vfork children killed by a sibling thread while
 *                         they call ARA, over and over: ARA ends the whole
 *                         process at the first (the parent's thread group is
 *                         all that is left sharing the memory). Unprotected:
 *                         the parent runs on until it meets ARA_E_BUSY.
 *   vfork_child_thread    a vfork child makes a thread (CLONE_VM |
 *                         CLONE_THREAD): it would belong to the child's
 *                         thread group, which can end and kill it inside
 *                         ARA while the parent sees a clean exit; refused
 *                         with EPERM. Unprotected: the thread is made.
 *   vfork_rlimit_staging  a vfork child sets limits of its own
 *                         (RLIMIT_MEMLOCK 0, with every future mapping
 *                         locked, and without CAP_IPC_LOCK) and makes a step
 *                         ARA documents as unable to fail fail (the exec
 *                         staging window's mmap: dom0/code_map.c): ARA ends the
 *                         child there, holding the staging lock, and then the
 *                         whole process. Unprotected: the parent runs on.
 *
 * The verdicts come from what the programs observe (an answer, a wait
 * status); an alarm only turns a hang into a reported failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "attack.h"

#define TASKS_MAX 2000 /* killed tasks before an attack that loses no stack gives up */
#define SAFETY_ALARM 240 /* seconds: a hang becomes a reported failure */
#define CHILD_STACK (64 * 1024)

long raw_clone(uint64_t flags, void *stack_top, int32_t *ptid, uint64_t tls, int32_t *ctid,
	       void (*fn)(void *), void *arg);

/* What a calling task and the task that watches it share. */
struct caller {
	int pid;
	long calls;
};

static struct caller caller;
static unsigned char child_stack[CHILD_STACK] __attribute__((aligned(16)));

/* Calls ARA for ever, counting; pid first, so that a killer knows whom. */
static __attribute__((noreturn)) void call_for_ever(void)
{
	__atomic_store_n(&caller.pid, (int)syscall(SYS_getpid), __ATOMIC_RELEASE);
	for (;;) {
		secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE);
		__atomic_add_fetch(&caller.calls, 1, __ATOMIC_RELEASE);
	}
}

static void call_for_ever_fn(void *arg)
{
	(void)arg;
	call_for_ever();
}

static void exit_at_once(void *arg)
{
	(void)arg;
}

/* Waits until the task in caller has called ARA at least once; returns its pid. */
static int caller_started(void)
{
	while (__atomic_load_n(&caller.pid, __ATOMIC_ACQUIRE) == 0 ||
	       __atomic_load_n(&caller.calls, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	return __atomic_load_n(&caller.pid, __ATOMIC_ACQUIRE);
}

static void caller_reset(void)
{
	__atomic_store_n(&caller.calls, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&caller.pid, 0, __ATOMIC_RELEASE);
}

/* Unprotected: tasks sharing the memory, killed as they call ARA, until ARA_E_BUSY. */
static int exhaust_with_clone_vm(void)
{
	for (int i = 1; i <= TASKS_MAX; i++) {
		int status;
		long pid;

		caller_reset();
		pid = raw_clone(CLONE_VM | SIGCHLD, child_stack + CHILD_STACK, NULL, 0, NULL,
				call_for_ever_fn, NULL);
		if (pid < 0) {
			printf("FAIL: clone(CLONE_VM) task %d: %s\n", i, strerror((int)-pid));
			return 1;
		}
		kill((pid_t)caller_started(), SIGKILL);
		waitpid((pid_t)pid, &status, __WALL);
		if (secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE) == ARA_E_BUSY) {
			printf("LEAK: DOM0 stacks lost: secure_call answers ARA_E_BUSY to a process with "
			       "one thread, after %d tasks sharing its memory were killed calling ARA\n",
			       i);
			return 1;
		}
	}
	printf("FAIL: %d tasks sharing the memory killed, no DOM0 stack lost\n", TASKS_MAX);
	return 1;
}

static int clone_vm_task(void)
{
	static const struct {
		uint64_t flags;
		const char *what;
	} shapes[] = {
		{ CLONE_VM | SIGCHLD, "clone(CLONE_VM) without CLONE_THREAD or CLONE_VFORK" },
		{ CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | SIGCHLD,
		  "clone(CLONE_VM | CLONE_SIGHAND) without CLONE_THREAD" },
		{ CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, "vfork with CLONE_PARENT" },
	};
	int failed = 0;

	alarm(SAFETY_ALARM);
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		long pid = raw_clone(shapes[i].flags, child_stack + CHILD_STACK, NULL, 0, NULL,
				     exit_at_once, NULL);

		if (pid > 0 && !(shapes[i].flags & CLONE_PARENT))
			waitpid((pid_t)pid, NULL, __WALL);
		if (pid < 0)
			errno = (int)-pid;
		failed |= attack_refused(shapes[i].what, pid < 0 ? -1 : pid, EPERM);
	}
	if (failed)
		return exhaust_with_clone_vm();
	return 0;
}

/*
 * Runs attack in a process of its own (ARA may end it whole) and judges
 * its end: ended by ARA (ARA_EXIT_DOM0_CORRUPT) is the defence; an exit
 * of its own carries its verdict.
 */
static int in_own_process(int (*attack)(void), const char *what)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		printf("FAIL: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		alarm(SAFETY_ALARM);
		_exit(attack());
	}
	if (waitpid(pid, &status, 0) != pid) {
		printf("FAIL: waitpid: %s\n", strerror(errno));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == ARA_EXIT_DOM0_CORRUPT) {
		printf("ara-evidence: %s: ARA ended the whole process (status %d)\n", what,
		       WEXITSTATUS(status));
		return 0;
	}
	if (WIFSIGNALED(status))
		printf("FAIL: %s: the process ended by signal %d%s\n", what, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
	else if (WEXITSTATUS(status) != 1)
		printf("FAIL: %s: the process exited with %d\n", what, WEXITSTATUS(status));
	return 1;
}

/* A sibling thread: kills each vfork child once it has called ARA. */
static void *kill_each_caller(void *arg)
{
	(void)arg;
	for (;;) {
		int pid = caller_started();

		kill(pid, SIGKILL);
		while (__atomic_load_n(&caller.pid, __ATOMIC_ACQUIRE) == pid)
			sched_yield();
	}
	return NULL;
}

static int vfork_killed_inside_run(void)
{
	pthread_t killer;

	caller_reset();
	if (pthread_create(&killer, NULL, kill_each_caller, NULL) != 0) {
		printf("FAIL: pthread_create\n");
		return 2;
	}
	for (int i = 1; i <= TASKS_MAX; i++) {
		pid_t pid;

		pid = vfork();
		if (pid == 0)
			call_for_ever();
		if (pid < 0) {
			printf("FAIL: vfork %d: %s\n", i, strerror(errno));
			return 2;
		}
		waitpid(pid, NULL, 0);
		caller_reset();
		if (secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE) == ARA_E_BUSY) {
			printf("LEAK: DOM0 stacks lost: secure_call answers ARA_E_BUSY after %d vfork "
			       "children were killed calling ARA\n",
			       i);
			return 1;
		}
	}
	printf("FAIL: %d vfork children killed, no DOM0 stack lost\n", TASKS_MAX);
	return 2;
}

static int vfork_killed_inside(void)
{
	return in_own_process(vfork_killed_inside_run, "vfork children killed calling ARA");
}

/* In the vfork child: its own limits and credentials, then code made executable. */
static __attribute__((noreturn)) void staging_under_limits(void *code)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2];
	struct rlimit lim;

	/* Every later mapping of the memory locked (shared), within a limit of this task's. */
	if (syscall(SYS_mlockall, MCL_FUTURE) != 0 || syscall(SYS_getrlimit, RLIMIT_MEMLOCK, &lim) != 0)
		syscall(SYS_exit, 70);
	lim.rlim_cur = 0;
	if (syscall(SYS_setrlimit, RLIMIT_MEMLOCK, &lim) != 0)
		syscall(SYS_exit, 71);
	/* CAP_IPC_LOCK would lift the limit: out of this task's effective set. */
	if (syscall(SYS_capget, &hdr, caps) != 0)
		syscall(SYS_exit, 72);
	caps[0].effective = caps[1].effective = 0;
	if (syscall(SYS_capset, &hdr, caps) != 0)
		syscall(SYS_exit, 73);
	/* ARA stages a copy: its mmap in the staging window meets the limit. */
	syscall(SYS_exit, mprotect(code, 4096, PROT_READ | PROT_EXEC) == 0 ? 74 : 75);
	__builtin_unreachable();
}

static int vfork_rlimit_staging_run(void)
{
	const uint32_t ret = 0xd65f03c0; /* ret */
	void *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status = 0;
	pid_t pid;

	if (code == MAP_FAILED) {
		printf("FAIL: mmap: %s\n", strerror(errno));
		return 2;
	}
	memcpy(code, &ret, sizeof(ret));
	pid = vfork();
	if (pid == 0)
		staging_under_limits(code);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("FAIL: vfork or waitpid: %s\n", strerror(errno));
		return 2;
	}
	munlockall(); /* the memory's mappings unlocked again */
	if (WIFEXITED(status) && WEXITSTATUS(status) == ARA_EXIT_DOM0_CORRUPT) {
		printf("LEAK: a step ARA documents as unable to fail failed in a vfork child under its "
		       "own limits (ARA ended it, status %d), and its parent runs on in the memory it "
		       "left half-changed\n",
		       WEXITSTATUS(status));
		return 1;
	}
	printf("FAIL: the vfork child's staging did not fail (wait status 0x%x)\n", status);
	return 2;
}

static unsigned char thread_stack[CHILD_STACK] __attribute__((aligned(16)));
static long vfork_thread_result;

/* In a vfork child: a thread of the child's own thread group. */
static void make_thread(void *arg)
{
	(void)arg;
	vfork_thread_result = raw_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
						CLONE_SYSVSEM,
					thread_stack + CHILD_STACK, NULL, 0, NULL, exit_at_once, NULL);
}

static int vfork_child_thread(void)
{
	int status;
	long pid = raw_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, child_stack + CHILD_STACK, NULL, 0, NULL,
			     make_thread, NULL);

	if (pid < 0) {
		printf("FAIL: vfork: %s\n", strerror((int)-pid));
		return 1;
	}
	waitpid((pid_t)pid, &status, __WALL);
	if (vfork_thread_result == -EPERM) {
		printf("ara-evidence: a vfork child's clone(CLONE_VM | CLONE_THREAD) was refused with "
		       "EPERM\n");
		return 0;
	}
	if (vfork_thread_result > 0) {
		printf("a vfork child's thread (%ld) was not refused\n", vfork_thread_result);
		return 1;
	}
	printf("FAIL: a vfork child's clone(CLONE_VM | CLONE_THREAD) returned %ld\n", vfork_thread_result);
	return 1;
}

static int vfork_rlimit_staging(void)
{
	return in_own_process(vfork_rlimit_staging_run, "a vfork child's limits failing ARA's staging");
}

int main(int argc, char **argv)
{
	static const struct attack_entry attacks[] = {
		{ "clone_vm_task", clone_vm_task },
		{ "vfork_killed_inside", vfork_killed_inside },
		{ "vfork_child_thread", vfork_child_thread },
		{ "vfork_rlimit_staging", vfork_rlimit_staging },
	};

	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
