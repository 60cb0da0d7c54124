/* SPDX-License-Identifier: Apache-2.0 */
#include "thread.h"
#include "ara/boot.h"
#include "ara/gate.h"
#include "dom0.h"
#include "kernel.h"
#include "live.h"
#include "sys.h"

#define IDS_SIZE ((ARA_THREAD_SLOTS * sizeof(struct ara_thread_id) + ARA_PAGE_SIZE - 1) & ~(uint64_t)(ARA_PAGE_SIZE - 1))

static struct ara_thread_id *ids;
static struct ara_thread *slots;
static uint64_t sigstacks;

#define SLOTS_SIZE ((ARA_THREAD_SLOTS * sizeof(struct ara_thread) + ARA_PAGE_SIZE - 1) & ~(uint64_t)(ARA_PAGE_SIZE - 1))

uint64_t ara_threads_size(void)
{
	return SLOTS_SIZE + IDS_SIZE;
}

uint64_t ara_threads_kept_size(void)
{
	return IDS_SIZE;
}

void ara_threads_init(uint64_t base, uint64_t stacks)
{
	slots = (struct ara_thread *)(uintptr_t)base;
	ids = (struct ara_thread_id *)(uintptr_t)(base + SLOTS_SIZE);
	sigstacks = stacks;
}

struct ara_sigstack *ara_thread_app_stack(const struct ara_thread *t)
{
	return &ids[t - slots].app_stack;
}

void ara_thread_id(const struct ara_thread *t, int32_t *tid, int32_t *pid)
{
	const size_t i = (size_t)(t - slots);

	*tid = __atomic_load_n(&ids[i].tid, __ATOMIC_RELAXED);
	*pid = ids[i].pid;
}

/* Moves slot i from thread `from` (0: free) to thread tid of pid, if no one did first. */
static bool take(size_t i, int32_t from, int32_t tid, int32_t pid)
{
	if (!__atomic_compare_exchange_n(&ids[i].tid, &from, tid, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	ids[i].pid = pid;
	return true;
}

/* Slot i's thread (tid > 0) has exited: tgkill(pid, tid, 0) fails with ESRCH. */
static bool dead(size_t i, int32_t tid)
{
	return ara_sys3(__NR_tgkill, ids[i].pid, tid, 0) == -ESRCH;
}

static struct ara_thread *find(int32_t tid, int32_t pid)
{
	/* Only this thread puts its own ID into a slot. */
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++)
		if (__atomic_load_n(&ids[i].tid, __ATOMIC_ACQUIRE) == tid && ids[i].pid == pid)
			return &slots[i];
	return NULL;
}

struct ara_thread *ara_thread_self(uint64_t frame_at)
{
	const int32_t tid = (int32_t)ara_sys0(__NR_gettid);
	const int32_t pid = (int32_t)ara_sys0(__NR_getpid);
	struct ara_thread *t = find(tid, pid);
	uint64_t i;

	/*
	 * Only a forked child's thread is not registered: the slots hold
	 * another process's threads (wiped, threads_pid is 0).
	 */
	if (t || frame_at < sigstacks || __atomic_load_n(&ara_live->threads_pid, __ATOMIC_ACQUIRE) == pid)
		return t;
	i = (frame_at - sigstacks) / ARA_SIGSTACK_SIZE;
	if (i >= ARA_THREAD_SLOTS)
		return NULL;
	/*
	 * Not registered: the one thread of a forked child, in ARA for the
	 * first time (its first clone comes through here too). Its signal
	 * stack, which the kernel just wrote to, is its parent thread's, at
	 * the same address in its own memory, and so is the slot that goes
	 * with it, App sigaltstack included (a child keeps it). Every slot
	 * belongs to a task of its parent's, none of which runs in this memory.
	 */
	for (size_t j = 0; j < ARA_THREAD_SLOTS; j++)
		if (j != i && __atomic_load_n(&ids[j].tid, __ATOMIC_RELAXED) != 0)
			__atomic_store_n(&ids[j].tid, 0, __ATOMIC_RELAXED);
	int32_t old = __atomic_load_n(&ids[i].tid, __ATOMIC_RELAXED);
	if (!take(i, old, tid, pid))
		return NULL;
	__atomic_store_n(&ara_live->threads_pid, pid, __ATOMIC_RELEASE);
	return &slots[i];
}

/* A new thread's slot: no App sigaltstack yet, nothing of a dead thread's execve. */
static struct ara_thread *reset(struct ara_thread *t)
{
	*ara_thread_app_stack(t) = (struct ara_sigstack){ .ss_flags = SS_DISABLE };
	ara_execve_release(t);
	__atomic_store_n(&t->exec_window, 0, __ATOMIC_RELAXED);
	t->app_pdeath_signal = 0;
	return t;
}

struct ara_thread *ara_thread_reserve(void)
{
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++)
		if (__atomic_load_n(&ids[i].tid, __ATOMIC_RELAXED) == 0 &&
		    take(i, 0, ARA_TID_RESERVED, 0))
			return reset(&slots[i]);
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++) {
		int32_t old = __atomic_load_n(&ids[i].tid, __ATOMIC_RELAXED);

		if (old > 0 && dead(i, old) && take(i, old, ARA_TID_RESERVED, 0))
			return reset(&slots[i]);
	}
	return NULL;
}

void ara_thread_unreserve(struct ara_thread *t)
{
	__atomic_store_n(&ids[t - slots].tid, 0, __ATOMIC_RELEASE);
}

void ara_thread_bind(struct ara_thread *t)
{
	const int32_t tid = (int32_t)ara_sys0(__NR_gettid);

	const int32_t pid = (int32_t)ara_sys0(__NR_getpid);

	/* A thread that has exited may have had this ID: its slot is free now. */
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++) {
		int32_t old = tid;

		if (ids[i].pid == pid)
			__atomic_compare_exchange_n(&ids[i].tid, &old, 0, 0, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
	}
	ids[t - slots].pid = pid;
	__atomic_store_n(&ids[t - slots].tid, tid, __ATOMIC_RELEASE);
}

struct ara_thread *ara_thread_calling(void)
{
	return find((int32_t)ara_sys0(__NR_gettid), (int32_t)ara_sys0(__NR_getpid));
}

void ara_thread_exec_window(bool open)
{
	struct ara_thread *t = ara_thread_calling();

	if (t)
		__atomic_store_n(&t->exec_window, open, __ATOMIC_RELEASE);
}

struct ara_sigstack ara_thread_sigstack(const struct ara_thread *t)
{
	const uint64_t i = (uint64_t)(t - slots);

	return (struct ara_sigstack){
		.ss_sp = sigstacks + i * ARA_SIGSTACK_SIZE,
		.ss_flags = (int32_t)SS_AUTODISARM,
		.ss_size = ARA_SIGSTACK_SIZE,
	};
}

bool ara_thread_frame_on_sigstack(const struct ara_thread *t, uint64_t frame_at)
{
	const struct ara_sigstack ss = ara_thread_sigstack(t);

#ifdef ARA_TEST_VARIANT_STALE_SIGSTACK
	/* Test-only (tests/variants): anywhere on the stack. */
	return frame_at >= ss.ss_sp && frame_at <= ss.ss_sp + ss.ss_size - sizeof(struct ara_rt_sigframe);
#else
	return frame_at == ss.ss_sp + ss.ss_size - ARA_FRAME_RECORD_SIZE - sizeof(struct ara_rt_sigframe);
#endif
}

void ara_thread_arm(const struct ara_thread *t)
{
#ifdef ARA_TEST_VARIANT_NO_SIGNAL_STACK
	/* Test-only (tests/variants): the kernel writes frames at the App's sp. */
	(void)t;
#else
	const struct ara_sigstack ss = ara_thread_sigstack(t);
	long r = ara_sys2(__NR_sigaltstack, &ss, NULL);

	if (r != 0)
		ara_stop(ARA_EXIT_REFUSED, "sigaltstack of ARA's signal stack failed", r);
#endif
}
