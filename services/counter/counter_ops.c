/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The counters' rules (counter_ops.h). Calls run on many threads at once
 * without a lock: an increment is one compare-and-swap from the value it
 * checked, so two calls never return the same value and a refused one
 * changes nothing.
 */
#include <stddef.h>

#include "counter_ops.h"

/* The checks both calls share; the counter, or NULL with *st. */
static uint64_t *counter_of(struct counter_state *s, const struct ara_counter_arg *a,
			    enum ara_status *st)
{
	*st = ARA_OK;
	if (!s || !s->ready)
		*st = ARA_E_NOMEM;
	else if (a->counter >= ARA_COUNTERS)
		*st = ARA_E_NOENT;
	else if (a->flags)
		*st = ARA_E_INVAL;
	return *st == ARA_OK ? &s->value[a->counter] : NULL;
}

static void answer(const struct counter_state *s, struct ara_counter_arg *a, uint64_t value)
{
	a->value = value;
	__builtin_memcpy(a->epoch, s->epoch, sizeof(a->epoch));
}

enum ara_status counter_increment(struct counter_state *s, struct ara_counter_arg *a)
{
	enum ara_status st;
	uint64_t *c = counter_of(s, a, &st);
	uint64_t old;

	if (!c)
		return st;
	if (a->delta == 0)
		return ARA_E_INVAL;
	old = __atomic_load_n(c, __ATOMIC_RELAXED);
	do {
		/* Never wrap: a wrapped counter would issue its first values again. */
		if (a->delta > UINT64_MAX - old)
			return ARA_E_SECURITY;
	} while (!__atomic_compare_exchange_n(c, &old, old + a->delta, 1, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	answer(s, a, old + a->delta);
	return ARA_OK;
}

enum ara_status counter_read(struct counter_state *s, struct ara_counter_arg *a)
{
	enum ara_status st;
	uint64_t *c = counter_of(s, a, &st);

	if (!c)
		return st;
	if (a->delta)
		return ARA_E_INVAL;
	answer(s, a, __atomic_load_n(c, __ATOMIC_RELAXED));
	return ARA_OK;
}
