/* SPDX-License-Identifier: Apache-2.0 */
#include "heap.h"

#include <string.h>

/* Every block, free or in use, starts with this 16-byte header. */
struct ara_heap_block {
	size_t size;  /* whole block, header included; multiple of ARA_HEAP_ALIGN */
	uint64_t check;
};

struct ara_heap_free {
	struct ara_heap_block hdr;
	struct ara_heap_free *next; /* address order */
};

#define HDR sizeof(struct ara_heap_block)
#define MIN_BLOCK sizeof(struct ara_heap_free)
#define CHECK_USED UINT64_C(0x4152412d55534544) /* "ARA-USED" */
#define CHECK_FREE UINT64_C(0x4152412d46524545) /* "ARA-FREE" */

_Static_assert(sizeof(struct ara_heap_block) == ARA_HEAP_ALIGN, "header keeps payload aligned");
_Static_assert(sizeof(struct ara_heap_free) <= 2 * ARA_HEAP_ALIGN, "a free block fits 32 bytes");

static uint64_t check_word(const void *blk, size_t size, uint64_t state)
{
	return state ^ (uint64_t)(uintptr_t)blk ^ ((uint64_t)size << 17);
}

/*
 * Zeroes [p, p + n) with memset (DOM0's own, string.c, 64 bytes a step: a
 * volatile byte loop cost 4 instructions a byte, 33,000 for a 4 KiB sample
 * allocated and freed); the barrier makes the stores observable, so the
 * compiler cannot drop them as dead.
 */
static void wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

static void set_free(struct ara_heap_free *f, size_t size, struct ara_heap_free *next)
{
	f->hdr.size = size;
	f->hdr.check = check_word(f, size, CHECK_FREE);
	f->next = next;
}

void ara_heap_init(struct ara_heap *h, void *base, size_t size)
{
	uintptr_t b = ((uintptr_t)base + ARA_HEAP_ALIGN - 1) & ~(uintptr_t)(ARA_HEAP_ALIGN - 1);
	uintptr_t e = ((uintptr_t)base + size) & ~(uintptr_t)(ARA_HEAP_ALIGN - 1);

	h->base = b;
	h->end = e;
	h->free_list = NULL;
	if (e > b && e - b >= MIN_BLOCK) {
		h->free_list = (struct ara_heap_free *)b;
		set_free(h->free_list, e - b, NULL);
	}
}

void *ara_heap_calloc(struct ara_heap *h, size_t n, size_t size)
{
	size_t bytes, need;
	struct ara_heap_free **link;

	if (__builtin_mul_overflow(n, size, &bytes) || bytes == 0 ||
	    bytes > h->end - h->base)
		return NULL;
	need = (bytes + HDR + ARA_HEAP_ALIGN - 1) & ~(size_t)(ARA_HEAP_ALIGN - 1);
	if (need < MIN_BLOCK)
		need = MIN_BLOCK;

	for (link = &h->free_list; *link; link = &(*link)->next) {
		struct ara_heap_free *f = *link;
		struct ara_heap_block *blk = &f->hdr;
		size_t have = f->hdr.size;

		if (have < need)
			continue;
		if (have - need >= MIN_BLOCK) { /* split: the tail stays free */
			struct ara_heap_free *rest = (struct ara_heap_free *)((uintptr_t)f + need);

			set_free(rest, have - need, f->next);
			*link = rest;
		} else {
			need = have;
			*link = f->next;
		}
		blk->size = need;
		blk->check = check_word(blk, need, CHECK_USED);
		wipe(blk + 1, need - HDR); /* free blocks are wiped; this also clears the list link */
		return blk + 1;
	}
	return NULL;
}

static int is_live_block(const struct ara_heap *h, const struct ara_heap_block *blk)
{
	uintptr_t b = (uintptr_t)blk;

	if (b < h->base || b >= h->end || (b & (ARA_HEAP_ALIGN - 1)))
		return 0;
	if (blk->size < MIN_BLOCK || blk->size > h->end - b || (blk->size & (ARA_HEAP_ALIGN - 1)))
		return 0;
	return blk->check == check_word(blk, blk->size, CHECK_USED);
}

enum ara_heap_result ara_heap_free(struct ara_heap *h, void *p)
{
	struct ara_heap_block *blk;
	struct ara_heap_free *f, *prev = NULL, *next;
	size_t size;

	if (!p)
		return ARA_HEAP_OK;
	if ((uintptr_t)p < h->base + HDR)
		return ARA_HEAP_CORRUPT;
	blk = (struct ara_heap_block *)p - 1;
	if (!is_live_block(h, blk))
		return ARA_HEAP_CORRUPT;
	size = blk->size;
	wipe(p, size - HDR);

	for (next = h->free_list; next && (uintptr_t)next < (uintptr_t)blk; next = next->next)
		prev = next;
	f = (struct ara_heap_free *)blk;
	set_free(f, size, next);
	if (next && (uintptr_t)f + f->hdr.size == (uintptr_t)next) { /* merge forward */
		set_free(f, f->hdr.size + next->hdr.size, next->next);
		wipe(next, sizeof(*next));
	}
	if (prev && (uintptr_t)prev + prev->hdr.size == (uintptr_t)f) { /* merge backward */
		set_free(prev, prev->hdr.size + f->hdr.size, f->next);
		wipe(f, sizeof(*f));
	} else if (prev) {
		prev->next = f;
	} else {
		h->free_list = f;
	}
	return ARA_HEAP_OK;
}

size_t ara_heap_free_bytes(const struct ara_heap *h)
{
	size_t total = 0;

	for (const struct ara_heap_free *f = h->free_list; f; f = f->next)
		total += f->hdr.size;
	return total;
}
