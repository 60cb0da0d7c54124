/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DOM0 heap instance: ara_heap over DOM0 pages, serialised by a spin
 * lock (threads may be in DOM0 at once; there is no futex without libc, and
 * heap sections are short). A corrupted heap is fatal: DOM0 cannot trust its
 * own state any more.
 */
#include "ara/boot.h"
#include "dom0.h"
#include "heap.h"
#include "sys.h"

static struct ara_heap dom0_heap;
static int dom0_heap_lock;

static void lock(void)
{
	while (__atomic_exchange_n(&dom0_heap_lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&dom0_heap_lock, __ATOMIC_RELAXED))
			__asm__ volatile("yield");
}

static void unlock(void)
{
	__atomic_store_n(&dom0_heap_lock, 0, __ATOMIC_RELEASE);
}

void ara_dom0_heap_init(void *base, size_t size)
{
	ara_heap_init(&dom0_heap, base, size);
}

void *ara_dom0_calloc(size_t n, size_t size)
{
	void *p;

	lock();
	p = ara_heap_calloc(&dom0_heap, n, size);
	unlock();
	return p;
}

void ara_dom0_free(void *p)
{
	enum ara_heap_result r;

	lock();
	r = ara_heap_free(&dom0_heap, p);
	unlock();
	if (r != ARA_HEAP_OK) {
		struct ara_msg m = { .len = 0 };

		ara_msg_str(&m, "ara: DOM0 heap corrupted; stopping the process\n");
		ara_msg_emit(&m);
		ara_sys_exit_group(ARA_EXIT_DOM0_CORRUPT);
	}
}
