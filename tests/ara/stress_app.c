/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Many threads in ARA at once, while the process forks and remaps memory:
 * DOM0's shared state (stack bitmap, heap lock, dispatch table) must keep
 * every result right.
 *
 * Phase 1: 8 threads make 100,000 checked echo calls each; meanwhile one
 * thread forks children that make their own checked calls, one maps and
 * unmaps memory (every 16th round a small JIT: code written, made
 * executable through ARA, called), and one sends SIGUSR1 one at a time, by
 * kill() and pthread_kill(), to the callers (nearly always inside a
 * secure_call) and the remapper; each is counted by its handler, which must
 * run with DOM2's row, and must not change a result. Every 8th time it
 * first sends the caller a SIGSYS (ARA's signal, dropped: a thread that
 * makes it wait inside a call takes it again at once and never leaves;
 * the SIGUSR1 after it then goes unhandled). ARA's counts of the
 * signals it held inside a call, or took after rolling the call back or
 * forward, are printed (ARA_FID_INFO); some must have waited: the
 * callers go on past CALLS_PER_THREAD (up to MORE_CALLS times as many)
 * until ARA has held a signal inside a call and rolled one forward, for a
 * short call makes that rare. Phase 2: 96 threads make value calls (each on a DOM0 stack) at once, more than
 * ARA's DOM0 stacks; a call that gets ARA_E_BUSY is retried, and each must
 * still end with ARA_OK. With --expect-busy (run against the one-stack
 * variant) some calls must have got ARA_E_BUSY; the children, forked while
 * the parent's callers nearly always hold that one stack, must still get
 * ARA_OK at once: the stack bitmap is on a page a child gets zeroed, since
 * the threads that held stacks at the fork do not exist in it.
 *
 * usage: stress_app [--expect-busy] [CALLS_PER_THREAD]
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "por_sysreg.h"

#define CALLERS 8
#define CROWD 96
#define CROWD_CALLS 2000
#define MORE_CALLS 50

static uint64_t calls_per_thread = 100000;
static atomic_int callers_done;
static atomic_uint_fast64_t wrong, busy, forks, remaps, jits, sent, sent_sigsys;
static atomic_uint_fast64_t handled; /* by the SIGUSR1 handler */
static pthread_t remapper_thread, callers[CALLERS];

/* mov w0, #42; ret */
static const uint32_t answer42[] = { 0x52800540, 0xd65f03c0 };

static atomic_int finished[CALLERS];
static atomic_int signalling_done;
static atomic_int held_inside; /* ARA has held a signal inside a call and rolled one forward */

static void *caller(void *p)
{
	uint64_t id = (uint64_t)(uintptr_t)p;

	for (uint64_t i = 0; i < calls_per_thread || (!held_inside && i < MORE_CALLS * calls_per_thread);
	     i++) {
		struct ara_echo_arg a = { .in = (id << 48) ^ (i * 0x9e3779b97f4a7c15ull), .out = 0 };
		int st;

		while ((st = secure_call(ARA_FID_ECHO, &a)) == ARA_E_BUSY)
			busy++;
		if (st != ARA_OK || a.out != ara_echo_expect(a.in) || por_el0_read() != ARA_POR_DOM2)
			wrong++;
	}
	finished[id] = 1;
	callers_done++;
	/*
	 * Stay until the signaller has stopped: a signal sent just before
	 * `finished` was set would otherwise die with the thread.
	 */
	while (!signalling_done)
		usleep(1000);
	return NULL;
}

/* Forks until the callers finish; each child checks calls of its own. */
static void *forker(void *p)
{
	(void)p;
	while (callers_done < CALLERS) {
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			for (uint64_t i = 0; i < 100; i++) {
				struct ara_echo_arg a = { .in = i, .out = 0 };

				if (secure_call(ARA_FID_ECHO, &a) != ARA_OK || a.out != ara_echo_expect(i))
					_exit(1);
			}
			_exit(0);
		}
		pid_t got = -1;

		/* This thread takes SIGUSR1 too; the handler has no SA_RESTART. */
		while (pid > 0 && (got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			continue;
		if (pid < 0 || got != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			wrong++;
		forks++;
	}
	return NULL;
}

/* Runs with DOM2's row, and may call into ARA itself. */
static void on_sigusr1(int sig)
{
	int st;

	(void)sig;
	if (por_el0_read() != ARA_POR_DOM2)
		wrong++;
	while ((st = secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE)) == ARA_E_BUSY)
		busy++;
	if (st != ARA_OK)
		wrong++;
	handled++;
}

/* Code written, made executable (trapped, copied, scanned by ARA), called. */
static int jit_round(void)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (m == MAP_FAILED)
		return 0;
	memcpy(m, answer42, sizeof(answer42));
	__builtin___clear_cache(m, (char *)m + sizeof(answer42));
	ok = mprotect(m, 4096, PROT_READ | PROT_EXEC) == 0 && ((int (*)(void))m)() == 42;
	munmap(m, 4096);
	jits++;
	return ok;
}

/* Maps and unmaps until the callers finish, taking SIGUSR1 meanwhile. */
static void *remapper(void *p)
{
	(void)p;
	while (callers_done < CALLERS) {
		void *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED || (((volatile char *)m)[4096] = 1, munmap(m, 1 << 20)) != 0)
			wrong++;
		if (remaps % 16 == 0 && !jit_round())
			wrong++;
		remaps++;
	}
	/*
	 * Stay until the signaller has stopped, as the callers do: it sends
	 * this thread signals until the callers finish, and one sent just
	 * as this loop ended would otherwise die with the thread.
	 */
	while (!signalling_done)
		usleep(1000);
	return NULL;
}

/*
 * Sends SIGUSR1 one at a time until the callers finish: to the process, to
 * the remapper, and to each caller in turn; waits for each to be handled
 * before the next, so none merge. (A caller that has finished is not sent
 * one: its thread may be gone.)
 */
static int send_one(uint64_t n)
{
	const uint64_t target = n % (CALLERS + 2);

	if (target == CALLERS)
		return kill(getpid(), SIGUSR1);
	if (target == CALLERS + 1)
		return pthread_kill(remapper_thread, SIGUSR1);
	if (atomic_load(&finished[target]))
		return kill(getpid(), SIGUSR1);
	if (n % 8 == 0) {
		int e = pthread_kill(callers[target], SIGSYS);

		if (e != 0)
			return e;
		sent_sigsys++;
	}
	return pthread_kill(callers[target], SIGUSR1);
}

/* Whether ARA has held a signal inside a call and rolled one forward (ARA_FID_INFO). */
static int signals_held_inside(void)
{
	struct ara_info_arg info = { 0 };
	int st;

	while ((st = secure_call(ARA_FID_INFO, &info)) == ARA_E_BUSY)
		busy++;
	return st == ARA_OK && info.signals_waited > 0 && info.calls_rolled_forward > 0;
}

static void *signaller(void *p)
{
	(void)p;
	while (callers_done < CALLERS) {
		uint64_t before = handled;
		struct timespec start, now;

		if (send_one(sent) != 0)
			wrong++;
		sent++;
		/*
		 * A minute: against the one-stack variant, the handler's own call
		 * competes for the one stack with every caller.
		 */
		clock_gettime(CLOCK_MONOTONIC, &start);
		do {
			usleep(100);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (handled == before && now.tv_sec - start.tv_sec < 60);
		if (handled == before) { /* lost, or its thread stuck: the run cannot end */
			printf("FAIL: signal %" PRIu64 " not handled within a minute\n", (uint64_t)sent);
			_exit(1);
		}
		if (!held_inside && signals_held_inside())
			held_inside = 1;
	}
	signalling_done = 1;
	return NULL;
}

static void *crowd_member(void *p)
{
	(void)p;
	for (int i = 0; i < CROWD_CALLS; i++) {
		int st;

		while ((st = secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE)) == ARA_E_BUSY)
			busy++;
		if (st != ARA_OK)
			wrong++;
	}
	return NULL;
}

static int run(void *(*fn)(void *), pthread_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)(uintptr_t)i))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t helpers[2], crowd[CROWD];
	struct ara_info_arg info = { 0 };
	uint64_t busy_phase1;
	int expect_busy = argc > 1 && strcmp(argv[1], "--expect-busy") == 0;
	struct sigaction sa = { .sa_handler = on_sigusr1 };

	if (argc > 1 + expect_busy)
		calls_per_thread = strtoull(argv[1 + expect_busy], NULL, 0);
	if (sigaction(SIGUSR1, &sa, NULL)) {
		perror("signal set-up");
		return 1;
	}
	if (run(caller, callers, CALLERS) || run(forker, &helpers[0], 1) ||
	    run(remapper, &remapper_thread, 1) || run(signaller, &helpers[1], 1)) {
		perror("pthread_create");
		return 1;
	}
	for (int i = 0; i < CALLERS; i++)
		pthread_join(callers[i], NULL);
	pthread_join(helpers[0], NULL);
	pthread_join(remapper_thread, NULL);
	pthread_join(helpers[1], NULL);
	busy_phase1 = busy;

	if (run(crowd_member, crowd, CROWD)) {
		perror("pthread_create");
		return 1;
	}
	for (int i = 0; i < CROWD; i++)
		pthread_join(crowd[i], NULL);

	if (secure_call(ARA_FID_INFO, &info) != ARA_OK)
		wrong++;
	printf("ara-evidence: stress: signals inside a call: %" PRIu64 " held to its way out, %" PRIu64
	       " calls rolled back, %" PRIu64 " rolled forward\n",
	       info.signals_waited, info.calls_rolled_back, info.calls_rolled_forward);
	printf("ara-evidence: stress: %d threads x %" PRIu64 " echo calls alongside %" PRIu64
	       " forks (children checked), %" PRIu64 " map/unmap rounds (%" PRIu64 " JIT) and %" PRIu64
	       " signals (%" PRIu64 " handled; %" PRIu64 " SIGSYS to callers, dropped), then %d threads x %d value calls: %" PRIu64
	       " ARA_E_BUSY retried (%" PRIu64 " in the crowd), %" PRIu64 " wrong\n",
	       CALLERS, calls_per_thread, (uint64_t)forks, (uint64_t)remaps, (uint64_t)jits,
	       (uint64_t)sent, (uint64_t)handled, (uint64_t)sent_sigsys, CROWD, CROWD_CALLS, (uint64_t)busy,
	       (uint64_t)busy - busy_phase1, (uint64_t)wrong);
	if (expect_busy && busy == 0) {
		printf("FAIL: no call got ARA_E_BUSY: the busy path was not exercised\n");
		return 1;
	}
	if (forks == 0 || jits == 0 || sent == 0 || sent_sigsys == 0 || handled != sent) {
		printf("FAIL: forks, JIT rounds and signals must all have happened, every signal handled\n");
		return 1;
	}
	if (info.signals_waited == 0 || info.calls_rolled_forward == 0) {
		printf("FAIL: no signal was held inside a call (or one held was not delivered at its way out)\n");
		return 1;
	}
	return wrong ? 1 : 0;
}
