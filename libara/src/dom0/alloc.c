/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DOM0 heaps: ara_heap over the pages of the domain that runs (the
 * core's, or a service domain's own, domain.h), serialised by a spin lock
 * (threads may be in DOM0 at once; there is no futex without libc, and heap
 * sections are short). Both live on the domain's per-process page (live.h,
 * domain.h), so a forked child starts with an empty heap and a free lock. A
 * corrupted heap is fatal: DOM0 cannot trust its own state any more.
 */
#include "ara/boot.h"
#include "dom0.h"
#include "domain.h"
#include "heap.h"
#include "live.h"
#include "sys.h"

/* The running domain's heap and its lock (first use in a forked child: an empty heap). */
static struct ara_heap *running_heap(int **lock)
{
	const enum ara_domain_id d = ara_domain_running();
	struct ara_domain_home *home;

	if (d == ARA_DOM0) {
		ara_live_ensure();
		*lock = &ara_live->heap_lock;
		return &ara_live->heap;
	}
	if (!(home = ara_domain_home(d)))
		ara_fatal("a service domain without a heap; domain", d);
	*lock = &home->lock;
	return &home->heap;
}

void *ara_dom0_calloc(size_t n, size_t size)
{
	int *lock;
	struct ara_heap *heap = running_heap(&lock);
	void *p;

	ara_lock(lock);
	p = ara_heap_calloc(heap, n, size);
	ara_unlock(lock);
	return p;
}

void ara_dom0_free(void *p)
{
	int *lock;
	struct ara_heap *heap = running_heap(&lock);
	enum ara_heap_result r;

	ara_lock(lock);
	r = ara_heap_free(heap, p);
	ara_unlock(lock);
	if (r != ARA_HEAP_OK) {
		struct ara_msg m = { .len = 0 };

		ara_msg_str(&m, "ara: DOM0 heap corrupted; stopping the process\n");
		ara_msg_emit(&m);
		ara_sys_exit_group(ARA_EXIT_DOM0_CORRUPT);
	}
}
