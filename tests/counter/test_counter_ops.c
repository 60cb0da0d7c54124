/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The counters' rules (services/counter/counter_ops.c) on the host: values
 * that only grow, a refused call that changes nothing, no wrap at the end,
 * and no value returned twice by increments racing on threads.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counter_ops.h"

static struct counter_state fresh(void)
{
	struct counter_state s = { .ready = 1 };

	memset(s.epoch, 0xe5, sizeof(s.epoch));
	return s;
}

static enum ara_status inc(struct counter_state *s, uint32_t counter, uint64_t delta,
			   uint64_t *value)
{
	struct ara_counter_arg a = { .counter = counter, .delta = delta, .value = 0xdead };
	enum ara_status st = counter_increment(s, &a);

	*value = a.value;
	return st;
}

static uint64_t value_of(struct counter_state *s, uint32_t counter)
{
	struct ara_counter_arg a = { .counter = counter };

	assert_int_equal(counter_read(s, &a), ARA_OK);
	return a.value;
}

static void increments_grow_and_read_agrees(void **unused)
{
	struct counter_state s = fresh();
	struct ara_counter_arg a = { .counter = 3, .delta = 1 };
	uint64_t v;

	(void)unused;
	assert_int_equal(value_of(&s, 3), 0);
	assert_int_equal(counter_increment(&s, &a), ARA_OK);
	assert_int_equal(a.value, 1);
	assert_memory_equal(a.epoch, s.epoch, sizeof(a.epoch));
	for (uint64_t want = 2; want <= 100; want++) {
		assert_int_equal(inc(&s, 3, 1, &v), ARA_OK);
		assert_int_equal(v, want);
		assert_int_equal(value_of(&s, 3), want);
	}
	/* A block of 1000 numbers: the last is returned, the next call goes past it. */
	assert_int_equal(inc(&s, 3, 1000, &v), ARA_OK);
	assert_int_equal(v, 1100);
	assert_int_equal(inc(&s, 3, 1, &v), ARA_OK);
	assert_int_equal(v, 1101);
	/* The other counters are their own. */
	assert_int_equal(value_of(&s, 0), 0);
	assert_int_equal(value_of(&s, ARA_COUNTERS - 1), 0);
	assert_int_equal(inc(&s, ARA_COUNTERS - 1, 1, &v), ARA_OK);
	assert_int_equal(v, 1);
	assert_int_equal(value_of(&s, 3), 1101);
}

/* Each refusal leaves the value and the answer's fields as they were. */
static void bad_input_refused(void **unused)
{
	struct counter_state s = fresh();
	struct ara_counter_arg a;
	uint64_t v;

	(void)unused;
	assert_int_equal(inc(&s, 5, 7, &v), ARA_OK);
	assert_int_equal(inc(&s, ARA_COUNTERS, 1, &v), ARA_E_NOENT);
	assert_int_equal(v, 0xdead);
	assert_int_equal(inc(&s, UINT32_MAX, 1, &v), ARA_E_NOENT);
	assert_int_equal(inc(&s, 5, 0, &v), ARA_E_INVAL);
	a = (struct ara_counter_arg){ .counter = 5, .flags = 1, .delta = 1 };
	assert_int_equal(counter_increment(&s, &a), ARA_E_INVAL);
	a = (struct ara_counter_arg){ .counter = 5, .flags = 0x80000000u, .delta = 1 };
	assert_int_equal(counter_increment(&s, &a), ARA_E_INVAL);
	a = (struct ara_counter_arg){ .counter = 5, .delta = 1 };
	assert_int_equal(counter_read(&s, &a), ARA_E_INVAL);
	a = (struct ara_counter_arg){ .counter = 5, .flags = 2 };
	assert_int_equal(counter_read(&s, &a), ARA_E_INVAL);
	a = (struct ara_counter_arg){ .counter = ARA_COUNTERS };
	assert_int_equal(counter_read(&s, &a), ARA_E_NOENT);
	assert_int_equal(a.value, 0);
	assert_int_equal(value_of(&s, 5), 7);
}

static void no_state_or_no_epoch_refused(void **unused)
{
	struct counter_state s = fresh();
	struct ara_counter_arg a = { .counter = 0, .delta = 1 };

	(void)unused;
	assert_int_equal(counter_increment(NULL, &a), ARA_E_NOMEM);
	assert_int_equal(counter_read(NULL, &(struct ara_counter_arg){ 0 }), ARA_E_NOMEM);
	s.ready = 0;
	assert_int_equal(counter_increment(&s, &a), ARA_E_NOMEM);
	assert_int_equal(counter_read(&s, &(struct ara_counter_arg){ 0 }), ARA_E_NOMEM);
	assert_int_equal(s.value[0], 0);
}

static void never_wraps(void **unused)
{
	struct counter_state s = fresh();
	uint64_t v;

	(void)unused;
	assert_int_equal(inc(&s, 1, UINT64_MAX - 2, &v), ARA_OK);
	assert_int_equal(inc(&s, 1, 3, &v), ARA_E_SECURITY);
	assert_int_equal(inc(&s, 1, UINT64_MAX, &v), ARA_E_SECURITY);
	assert_int_equal(value_of(&s, 1), UINT64_MAX - 2);
	assert_int_equal(inc(&s, 1, 2, &v), ARA_OK); /* up to the end itself */
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(inc(&s, 1, 1, &v), ARA_E_SECURITY);
	assert_int_equal(value_of(&s, 1), UINT64_MAX);
	/* The largest block at once, on a counter at 0. */
	assert_int_equal(inc(&s, 2, UINT64_MAX, &v), ARA_OK);
	assert_int_equal(v, UINT64_MAX);
}

#define RACERS 4
#define RACE_CALLS 100000

struct racer {
	struct counter_state *s;
	pthread_barrier_t *start;
	uint64_t got[RACE_CALLS];
};

static void *race(void *p)
{
	struct racer *r = p;

	pthread_barrier_wait(r->start); /* all at once, or they would not race */
	for (int i = 0; i < RACE_CALLS; i++) {
		struct ara_counter_arg a = { .counter = 9, .delta = 1 };

		if (counter_increment(r->s, &a) != ARA_OK)
			a.value = 0; /* no counter value is 0: the check below fails */
		r->got[i] = a.value;
	}
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every value 1 .. RACERS * RACE_CALLS returned once. */
static void racing_increments_never_repeat(void **unused)
{
	struct counter_state s = fresh();
	struct racer *r = calloc(RACERS, sizeof(*r));
	uint64_t *all = calloc(RACERS * RACE_CALLS, sizeof(*all));
	pthread_barrier_t start;
	pthread_t t[RACERS];

	(void)unused;
	assert_non_null(r);
	assert_non_null(all);
	assert_int_equal(pthread_barrier_init(&start, NULL, RACERS), 0);
	for (int i = 0; i < RACERS; i++) {
		r[i].s = &s;
		r[i].start = &start;
		assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
	}
	for (int i = 0; i < RACERS; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		/* Each thread sees its own values grow. */
		for (int k = 1; k < RACE_CALLS; k++)
			assert_true(r[i].got[k] > r[i].got[k - 1]);
		memcpy(all + i * RACE_CALLS, r[i].got, sizeof(r[i].got));
	}
	qsort(all, RACERS * RACE_CALLS, sizeof(*all), by_value);
	for (uint64_t k = 0; k < RACERS * RACE_CALLS; k++)
		assert_int_equal(all[k], k + 1);
	assert_int_equal(value_of(&s, 9), RACERS * RACE_CALLS);
	pthread_barrier_destroy(&start);
	free(all);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(increments_grow_and_read_agrees),
		cmocka_unit_test(bad_input_refused),
		cmocka_unit_test(no_state_or_no_epoch_refused),
		cmocka_unit_test(never_wraps),
		cmocka_unit_test(racing_increments_never_repeat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
