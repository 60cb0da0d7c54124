/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of POR_EL0 value encoding (libara/src/por.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ara/por.h"

/* Linux's initial POR_EL0 (POR_EL0_INIT): key 0 RWX, keys 1..7 no access. */
static void encode_linux_initial_value(void **state)
{
	uint8_t perm[ARA_POR_KEYS] = { ARA_POR_RWX };
	uint64_t por = ~0ull;

	(void)state;
	assert_int_equal(ara_por_encode(perm, &por), 0);
	assert_int_equal(por, 0x7);
}

/* Each key lands in its own nibble, in key order. */
static void encode_places_each_key_in_its_nibble(void **state)
{
	uint8_t perm[ARA_POR_KEYS] = {
		ARA_POR_RWX, ARA_POR_R, ARA_POR_X, ARA_POR_RX,
		ARA_POR_W, ARA_POR_RW, ARA_POR_WX, ARA_POR_NONE,
	};
	uint64_t por = 0;

	(void)state;
	assert_int_equal(ara_por_encode(perm, &por), 0);
	assert_int_equal(por, 0x06543217ull);
	for (unsigned int key = 0; key < ARA_POR_KEYS; key++)
		assert_int_equal(ara_por_perm_of(por, key), perm[key]);
}

/* A reserved encoding is refused and leaves the output untouched. */
static void encode_rejects_reserved_permission(void **state)
{
	uint8_t perm[ARA_POR_KEYS] = { ARA_POR_RWX, 0x8 };
	uint64_t por = 0x1234;

	(void)state;
	assert_int_equal(ara_por_encode(perm, &por), -1);
	assert_int_equal(por, 0x1234);
	perm[1] = ARA_POR_RW;
	perm[7] = 0xff;
	assert_int_equal(ara_por_encode(perm, &por), -1);
	assert_int_equal(por, 0x1234);
}

/* The CPU reads a nibble with bit 3 set as "no access" (Table D8-74). */
static void decode_reserved_grants_nothing(void **state)
{
	(void)state;
	assert_int_equal(ara_por_perm_of(0xf7, 1), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(0x9f, 0), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(0x9f, 1), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(0x57, 1), ARA_POR_RW);
}

static void decode_out_of_range_key_grants_nothing(void **state)
{
	(void)state;
	assert_int_equal(ara_por_perm_of(0x7777777777777777ull, 8), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(0x7777777777777777ull, 15), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(0x77777777ull, 1000), ARA_POR_NONE);
}

/* Setting one key's permission leaves every other nibble as it was. */
static void set_perm_changes_one_key_only(void **state)
{
	uint64_t por = 0x76543210ull;

	(void)state;
	assert_int_equal(ara_por_set_perm(&por, 3, ARA_POR_NONE), 0);
	assert_int_equal(por, 0x76540210ull);
	assert_int_equal(ara_por_set_perm(&por, 0, ARA_POR_RWX), 0);
	assert_int_equal(por, 0x76540217ull);
}

static void set_perm_rejects_bad_key_or_perm(void **state)
{
	uint64_t por = 0x7;

	(void)state;
	assert_int_equal(ara_por_set_perm(&por, ARA_POR_KEYS, ARA_POR_R), -1);
	assert_int_equal(ara_por_set_perm(&por, 1, (enum ara_por_perm)8), -1);
	assert_int_equal(por, 0x7);
}

static void canonical_values(void **state)
{
	(void)state;
	assert_true(ara_por_is_canonical(0));
	assert_true(ara_por_is_canonical(0x77777777ull));
	assert_false(ara_por_is_canonical(0x87777777ull));
	assert_false(ara_por_is_canonical(0x100000000ull));
	assert_false(ara_por_is_canonical(1ull << 63));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(encode_linux_initial_value),
		cmocka_unit_test(encode_places_each_key_in_its_nibble),
		cmocka_unit_test(encode_rejects_reserved_permission),
		cmocka_unit_test(decode_reserved_grants_nothing),
		cmocka_unit_test(decode_out_of_range_key_grants_nothing),
		cmocka_unit_test(set_perm_changes_one_key_only),
		cmocka_unit_test(set_perm_rejects_bad_key_or_perm),
		cmocka_unit_test(canonical_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
