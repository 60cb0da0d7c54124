/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table 1 (libara/include/ara/domains.h): the rows the gate switches
 * between are the ones the per-key permissions say, computed independently
 * with ara_por_encode, and the rows keep the isolation properties the
 * design relies on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ara/domains.h"
#include "ara/por.h"

static const unsigned int service_keys[] = { ARA_PKEY_PROVISION, ARA_PKEY_RTS, ARA_PKEY_RTM,
					      ARA_PKEY_EXTRA };

/* own: a service domain's key with RW, or 0 for none; services: RW on every service key. */
static uint64_t encode(unsigned int on_dom0, unsigned int on_dom1, unsigned int on_dom2,
		       unsigned int own, int services)
{
	uint8_t perm[ARA_POR_KEYS] = { 0 };
	uint64_t por = 0;

	perm[ARA_PKEY_DOM0] = (uint8_t)on_dom0;
	perm[ARA_PKEY_DOM1] = (uint8_t)on_dom1;
	perm[ARA_PKEY_DOM2] = (uint8_t)on_dom2;
	for (unsigned int i = 0; services && i < sizeof(service_keys) / sizeof(service_keys[0]); i++)
		perm[service_keys[i]] = ARA_POR_RW;
	if (own)
		perm[own] = ARA_POR_RW;
	assert_int_equal(ara_por_encode(perm, &por), 0);
	return por;
}

static void rows_match_an_independent_encoding(void **state)
{
	(void)state;
	assert_int_equal(ARA_POR_DOM0, encode(ARA_POR_RWX, ARA_POR_RX, ARA_POR_RW, 0, 1));
	assert_int_equal(ARA_POR_DOM1, encode(ARA_POR_NONE, ARA_POR_X, ARA_POR_RWX, 0, 0));
	assert_int_equal(ARA_POR_DOM2, encode(ARA_POR_NONE, ARA_POR_X, ARA_POR_RWX, 0, 0));
	for (unsigned int i = 0; i < sizeof(service_keys) / sizeof(service_keys[0]); i++)
		assert_int_equal(ARA_POR_SERVICE(service_keys[i]),
				 encode(ARA_POR_X, ARA_POR_R, ARA_POR_RW, service_keys[i], 0));
	for (int d = 0; d < ARA_DOMAINS; d++)
		assert_true(ara_por_is_canonical(ara_domain_table[d].por));
}

static void the_app_row_grants_nothing_of_dom0_and_only_execute_of_dom1(void **state)
{
	(void)state;
	assert_int_equal(ara_por_perm_of(ARA_POR_LEAVE, ARA_PKEY_DOM0), ARA_POR_NONE);
	assert_int_equal(ara_por_perm_of(ARA_POR_LEAVE, ARA_PKEY_DOM1), ARA_POR_X);
	/* The key held for execute-only code stays closed in every row. */
	for (int d = 0; d < ARA_DOMAINS; d++)
		assert_int_equal(ara_por_perm_of(ara_domain_table[d].por, ARA_PKEY_XO), ARA_POR_NONE);
	for (unsigned int i = 0; i < sizeof(service_keys) / sizeof(service_keys[0]); i++)
		assert_int_equal(ara_por_perm_of(ARA_POR_LEAVE, service_keys[i]), ARA_POR_NONE);
}

/* A service domain: its own key; the core's code to execute, never its data; no other service's key. */
static void a_service_row_grants_its_own_key_and_nothing_of_another(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < sizeof(service_keys) / sizeof(service_keys[0]); i++) {
		const uint64_t row = ARA_POR_SERVICE(service_keys[i]);

		assert_int_equal(ara_por_perm_of(row, ARA_PKEY_DOM0), ARA_POR_X);
		assert_int_equal(ara_por_perm_of(row, ARA_PKEY_DOM1), ARA_POR_R);
		assert_int_equal(ara_por_perm_of(row, service_keys[i]), ARA_POR_RW);
		for (unsigned int j = 0; j < sizeof(service_keys) / sizeof(service_keys[0]); j++)
			if (j != i)
				assert_int_equal(ara_por_perm_of(row, service_keys[j]), ARA_POR_NONE);
	}
}

static void dom0_never_executes_app_code_but_can_leave_through_dom1(void **state)
{
	(void)state;
	assert_false(ara_por_perm_of(ARA_POR_ENTER, ARA_PKEY_DOM2) & ARA_POR_X);
	assert_true(ara_por_perm_of(ARA_POR_ENTER, ARA_PKEY_DOM1) & ARA_POR_X);
	assert_int_equal(ara_por_perm_of(ARA_POR_ENTER, ARA_PKEY_DOM0), ARA_POR_RWX);
}

static void the_table_names_each_domains_key(void **state)
{
	(void)state;
	assert_int_equal(ara_domain_table[ARA_DOM0].pkey, ARA_PKEY_DOM0);
	assert_int_equal(ara_domain_table[ARA_DOM1].pkey, ARA_PKEY_DOM1);
	assert_int_equal(ara_domain_table[ARA_DOM2].pkey, 0); /* the default key */
	assert_int_equal(ara_domain_table[ARA_DOM0].por, ARA_POR_ENTER);
	assert_int_equal(ara_domain_table[ARA_DOM2].por, ARA_POR_LEAVE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_match_an_independent_encoding),
		cmocka_unit_test(the_app_row_grants_nothing_of_dom0_and_only_execute_of_dom1),
		cmocka_unit_test(dom0_never_executes_app_code_but_can_leave_through_dom1),
		cmocka_unit_test(a_service_row_grants_its_own_key_and_nothing_of_another),
		cmocka_unit_test(the_table_names_each_domains_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
