/* SPDX-License-Identifier: Apache-2.0 */
/* The DOM0 heap (libara/src/heap.c), hostile uses first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "heap.h"

#define ARENA 65536
static _Alignas(16) unsigned char arena[ARENA];

static struct ara_heap fresh(void)
{
	struct ara_heap h;

	memset(arena, 0xa5, sizeof(arena));
	ara_heap_init(&h, arena, sizeof(arena));
	return h;
}

static void double_free_is_detected(void **state)
{
	struct ara_heap h = fresh();
	void *p = ara_heap_calloc(&h, 1, 100);

	(void)state;
	assert_non_null(p);
	assert_int_equal(ara_heap_free(&h, p), ARA_HEAP_OK);
	assert_int_equal(ara_heap_free(&h, p), ARA_HEAP_CORRUPT);
}

static void foreign_and_interior_pointers_are_refused(void **state)
{
	struct ara_heap h = fresh();
	unsigned char *p = ara_heap_calloc(&h, 1, 64);
	static unsigned char outside[64];

	(void)state;
	assert_non_null(p);
	assert_int_equal(ara_heap_free(&h, outside + 16), ARA_HEAP_CORRUPT);
	assert_int_equal(ara_heap_free(&h, p + 16), ARA_HEAP_CORRUPT);
	assert_int_equal(ara_heap_free(&h, p + 1), ARA_HEAP_CORRUPT);
	assert_int_equal(ara_heap_free(&h, arena), ARA_HEAP_CORRUPT);
	assert_int_equal(ara_heap_free(&h, p), ARA_HEAP_OK);
}

static void corrupted_header_is_detected(void **state)
{
	struct ara_heap h = fresh();
	unsigned char *p = ara_heap_calloc(&h, 1, 64);

	(void)state;
	p[-16] ^= 0x10; /* the size field */
	assert_int_equal(ara_heap_free(&h, p), ARA_HEAP_CORRUPT);
}

static void overflowing_and_empty_requests_fail(void **state)
{
	struct ara_heap h = fresh();

	(void)state;
	assert_null(ara_heap_calloc(&h, SIZE_MAX / 2, 3));
	assert_null(ara_heap_calloc(&h, 0, 8));
	assert_null(ara_heap_calloc(&h, 1, ARENA));
	assert_null(ara_heap_calloc(&h, 1, SIZE_MAX - 8));
}

static void memory_is_zeroed_aligned_and_wiped_on_free(void **state)
{
	struct ara_heap h = fresh();
	unsigned char *p = ara_heap_calloc(&h, 3, 33);

	(void)state;
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % ARA_HEAP_ALIGN, 0);
	for (size_t i = 0; i < 99; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0x5e, 99);
	assert_int_equal(ara_heap_free(&h, p), ARA_HEAP_OK);
	for (size_t i = 32; i < 99; i++) /* past the free-list link */
		assert_int_equal(p[i], 0);
}

static void blocks_do_not_overlap_and_space_is_recovered(void **state)
{
	struct ara_heap h = fresh();
	const size_t total = ara_heap_free_bytes(&h);
	unsigned char *p[40];

	(void)state;
	for (size_t i = 0; i < 40; i++) {
		p[i] = ara_heap_calloc(&h, 1, 17 + i * 13);
		assert_non_null(p[i]);
		memset(p[i], (int)i + 1, 17 + i * 13);
	}
	for (size_t i = 0; i < 40; i++)
		for (size_t j = 0; j < 17 + i * 13; j++)
			assert_int_equal(p[i][j], i + 1);
	/* Free in an order that exercises merging both ways. */
	for (size_t i = 0; i < 40; i += 2)
		assert_int_equal(ara_heap_free(&h, p[i]), ARA_HEAP_OK);
	for (size_t i = 39; i < 40; i -= 2)
		assert_int_equal(ara_heap_free(&h, p[i]), ARA_HEAP_OK);
	assert_int_equal(ara_heap_free_bytes(&h), total);
	assert_non_null(ara_heap_calloc(&h, 1, total - 16)); /* one block again */
}

static void exhaustion_returns_null(void **state)
{
	struct ara_heap h = fresh();
	size_t n = 0;

	(void)state;
	while (ara_heap_calloc(&h, 1, 1000))
		n++;
	assert_true(n > 50 && n < ARENA / 1000);
	assert_null(ara_heap_calloc(&h, 1, 1000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(double_free_is_detected),
		cmocka_unit_test(foreign_and_interior_pointers_are_refused),
		cmocka_unit_test(corrupted_header_is_detected),
		cmocka_unit_test(overflowing_and_empty_requests_fail),
		cmocka_unit_test(memory_is_zeroed_aligned_and_wiped_on_free),
		cmocka_unit_test(blocks_do_not_overlap_and_space_is_recovered),
		cmocka_unit_test(exhaustion_returns_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
