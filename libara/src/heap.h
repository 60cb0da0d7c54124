/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DOM0's heap: first fit over one region, free list in address order,
 * neighbours merged on free. Every block carries a check word bound to its
 * address and state, so a corrupted header or a double free is detected
 * (and reported to the caller, which treats it as fatal). Freed memory is
 * wiped before it is reused. No locking here: the DOM0 wrapper serialises.
 * Pure code, shared by DOM0 and the host unit tests.
 */
#ifndef ARA_HEAP_H
#define ARA_HEAP_H

#include <stddef.h>
#include <stdint.h>

#define ARA_HEAP_ALIGN 16u

struct ara_heap_free; /* a free block's header */

struct ara_heap {
	uintptr_t base, end;
	struct ara_heap_free *free_list;
};

enum ara_heap_result { ARA_HEAP_OK = 0, ARA_HEAP_CORRUPT = -1 };

/* Manages [base, base + size); base is aligned up and size down. */
void ara_heap_init(struct ara_heap *h, void *base, size_t size);

/* Zeroed memory for n * size bytes, or NULL (also on overflow or n*size 0). */
void *ara_heap_calloc(struct ara_heap *h, size_t n, size_t size);

/*
 * Wipes and frees p (NULL: nothing). ARA_HEAP_CORRUPT if p is not a live
 * block of this heap (outside it, misaligned, bad check word, double free).
 */
enum ara_heap_result ara_heap_free(struct ara_heap *h, void *p)
	__attribute__((warn_unused_result));

/* Bytes currently free (for tests and statistics). */
size_t ara_heap_free_bytes(const struct ara_heap *h);

#endif
