/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-process DOM0 state page (live.h), and its rebuild in a forked child.
 */
#include "live.h"

/* Where the heap is; libara's static data, the same in a child. */
static void *heap_base;
static size_t heap_size;

void ara_live_init(struct ara_live *page, void *base, size_t size)
{
	heap_base = base;
	heap_size = size;
	ara_live = page;
	ara_heap_init(&page->heap, base, size);
	__atomic_store_n(&page->state, ARA_LIVE_READY, __ATOMIC_RELEASE);
}

void ara_live_ensure(void)
{
	uint32_t unset = ARA_LIVE_UNSET;

	if (__atomic_load_n(&ara_live->state, __ATOMIC_ACQUIRE) == ARA_LIVE_READY)
		return;
	/*
	 * A forked child: one thread rebuilds, the others wait (the heap's
	 * rebuild is a few stores). The pages are already zero, the lock free.
	 */
	if (__atomic_compare_exchange_n(&ara_live->state, &unset, ARA_LIVE_BUILDING, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		ara_heap_init(&ara_live->heap, heap_base, heap_size);
		ara_live->forked = 1; /* the modules' forked hooks (modules.c) */
		__atomic_store_n(&ara_live->state, ARA_LIVE_READY, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&ara_live->state, __ATOMIC_ACQUIRE) != ARA_LIVE_READY)
		__asm__ volatile("yield");
}
