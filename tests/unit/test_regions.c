/* SPDX-License-Identifier: Apache-2.0 */
/* Range checks on App pointers (libara/src/regions.c), hostile cases first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "regions.h"

static struct ara_region_set two_ranges(void)
{
	struct ara_region_set s = { .n = 0 };

	assert_int_equal(ara_regions_add(&s, 0x10000, 0x20000, 0), 0);
	assert_int_equal(ara_regions_add(&s, 0x40000, 0x41000, 1), 0);
	return s;
}

static void ranges_touching_protected_memory_are_refused(void **state)
{
	struct ara_region_set s = two_ranges();

	(void)state;
	assert_false(ara_range_is_app(&s, 0x10000, 1));
	assert_false(ara_range_is_app(&s, 0x1ffff, 1));
	assert_false(ara_range_is_app(&s, 0xfff8, 16));    /* straddles the start */
	assert_false(ara_range_is_app(&s, 0x1fff8, 16));   /* straddles the end */
	assert_false(ara_range_is_app(&s, 0x0, 0x100000)); /* covers both */
	assert_false(ara_range_is_app(&s, 0x40800, 8));
}

static void wrapping_tagged_and_kernel_addresses_are_refused(void **state)
{
	struct ara_region_set s = two_ranges();

	(void)state;
	assert_false(ara_range_is_app(&s, UINT64_MAX - 7, 16));
	assert_false(ara_range_is_app(&s, 0x50000, UINT64_MAX));
	assert_false(ara_range_is_app(&s, 0x5a00000000050000ull, 8)); /* tag: aliases 0x50000 */
	assert_false(ara_range_is_app(&s, 0x5a00000000010000ull, 8)); /* tag: aliases DOM0 */
	assert_false(ara_range_is_app(&s, 0xffff000000001000ull, 8));
	assert_false(ara_range_is_app(&s, ARA_USER_ADDR_LIMIT - 8, 16));
}

static void app_ranges_are_accepted(void **state)
{
	struct ara_region_set s = two_ranges();

	(void)state;
	assert_true(ara_range_is_app(&s, 0xfff0, 16)); /* ends exactly at the start */
	assert_true(ara_range_is_app(&s, 0x20000, 0x20000));
	assert_true(ara_range_is_app(&s, 0x41000, 4096));
	assert_true(ara_range_is_app(&s, ARA_USER_ADDR_LIMIT - 8, 8));
	assert_true(ara_range_is_app(&s, 0x10000, 0)); /* nothing is accessed */
}

/* The hull's quick answer: ranges added in any order, App memory between them. */
static void the_hull_follows_every_range(void **state)
{
	struct ara_region_set s = { .n = 0 };

	(void)state;
	assert_int_equal(ara_regions_add(&s, 0x40000, 0x41000, 0), 0);
	assert_int_equal(ara_regions_add(&s, 0x10000, 0x20000, 0), 0);
	assert_int_equal(ara_regions_add(&s, 0x80000, 0x81000, 2), 0);
	assert_false(ara_range_is_app(&s, 0x10000, 8));
	assert_false(ara_range_is_app(&s, 0x40ff8, 8));
	assert_false(ara_range_is_app(&s, 0x80ff8, 8));
	assert_false(ara_range_is_app(&s, 0x8000, 0x9000)); /* reaches the lowest */
	assert_true(ara_range_is_app(&s, 0x30000, 0x1000)); /* inside the hull, in no range */
	assert_true(ara_range_is_app(&s, 0x8000, 0x8000));  /* ends at the hull */
	assert_true(ara_range_is_app(&s, 0x81000, 8));      /* starts at its end */
}

static void bad_regions_are_not_added(void **state)
{
	struct ara_region_set s = { .n = 0 };

	(void)state;
	assert_int_equal(ara_regions_add(&s, 0x2000, 0x2000, 0), -1);
	assert_int_equal(ara_regions_add(&s, 0x3000, 0x2000, 0), -1);
	for (unsigned int i = 0; i < ARA_REGIONS_MAX; i++)
		assert_int_equal(ara_regions_add(&s, i * 0x1000 + 0x1000, i * 0x1000 + 0x1800, 0), 0);
	assert_int_equal(ara_regions_add(&s, 0x900000, 0x901000, 0), -1);
	assert_false(ara_regions_overlap(&s, 0x900000, 0x1000)); /* the refused one is absent */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranges_touching_protected_memory_are_refused),
		cmocka_unit_test(wrapping_tagged_and_kernel_addresses_are_refused),
		cmocka_unit_test(app_ranges_are_accepted),
		cmocka_unit_test(the_hull_follows_every_range),
		cmocka_unit_test(bad_regions_are_not_added),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
