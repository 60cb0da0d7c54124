/* SPDX-License-Identifier: Apache-2.0 */
#include "thread.h"
#include "ara/boot.h"
#include "dom0.h"
#include "sys.h"

#define ESRCH 3

static struct ara_thread *slots;

void ara_threads_init(struct ara_thread *s)
{
	slots = s;
}

/* Moves slot i from thread `from` (0: free) to thread tid, if no one did first. */
static int take(size_t i, int32_t from, int32_t tid)
{
	return __atomic_compare_exchange_n(&slots[i].tid, &from, tid, 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

struct ara_thread *ara_thread_self(void)
{
	const int32_t tid = (int32_t)ara_sys0(__NR_gettid);
	long pid;

	/* Only this thread puts its own ID into a slot. */
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++)
		if (__atomic_load_n(&slots[i].tid, __ATOMIC_ACQUIRE) == tid)
			return &slots[i];
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++)
		if (__atomic_load_n(&slots[i].tid, __ATOMIC_RELAXED) == 0 && take(i, 0, tid))
			return &slots[i];
	/* A slot of a thread that has exited: tgkill(pid, tid, 0) fails with ESRCH. */
	pid = ara_sys0(__NR_getpid);
	for (size_t i = 0; i < ARA_THREAD_SLOTS; i++) {
		int32_t old = __atomic_load_n(&slots[i].tid, __ATOMIC_RELAXED);

		if (old != 0 && ara_sys3(__NR_tgkill, pid, old, 0) == -ESRCH && take(i, old, tid))
			return &slots[i];
	}
	ara_stop(ARA_EXIT_REFUSED, "more live threads take signals than ARA has slots",
		 ARA_THREAD_SLOTS);
}
