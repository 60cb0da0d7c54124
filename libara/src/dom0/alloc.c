/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DOM0 heap instance: ara_heap over DOM0 pages, serialised by a spin
 * lock (threads may be in DOM0 at once; there is no futex without libc, and
 * heap sections are short). Both live on the per-process state page
 * (live.h), so a forked child starts with an empty heap and a free lock. A
 * corrupted heap is fatal: DOM0 cannot trust its own state any more.
 */
#include "ara/boot.h"
#include "dom0.h"
#include "heap.h"
#include "live.h"
#include "sys.h"

void *ara_dom0_calloc(size_t n, size_t size)
{
	void *p;

	ara_live_ensure(); /* first use in a forked child: an empty heap */
	ara_live_lock(&ara_live->heap_lock);
	p = ara_heap_calloc(&ara_live->heap, n, size);
	ara_live_unlock(&ara_live->heap_lock);
	return p;
}

void ara_dom0_free(void *p)
{
	enum ara_heap_result r;

	ara_live_ensure();
	ara_live_lock(&ara_live->heap_lock);
	r = ara_heap_free(&ara_live->heap, p);
	ara_live_unlock(&ara_live->heap_lock);
	if (r != ARA_HEAP_OK) {
		struct ara_msg m = { .len = 0 };

		ara_msg_str(&m, "ara: DOM0 heap corrupted; stopping the process\n");
		ara_msg_emit(&m);
		ara_sys_exit_group(ARA_EXIT_DOM0_CORRUPT);
	}
}
