/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TEST DOUBLE of the RTM runtime (services/rtm/runtime/), for the pass's
 * unit test: the hooks record the entries they would log, in memory,
 * instead of calling ARA.
 */
#ifndef RTM_TEST_DOUBLE_H
#define RTM_TEST_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#define RTM_DOUBLE_CAPACITY 65536u

/* Forgets every recorded entry. */
void rtm_double_reset(void);

/* Entries recorded since the last reset (beyond the capacity, only counted). */
size_t rtm_double_count(void);

/* The i-th recorded entry (ara_rtm_entry(kind, dest)), i < capacity. */
uint64_t rtm_double_entry(size_t i);

#endif
