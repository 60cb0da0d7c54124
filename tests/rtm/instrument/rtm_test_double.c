/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TEST DOUBLE of the RTM runtime: the hooks the pass inserts record
 * ara_rtm_entry(kind, dest) in an array. Compiled without the plugin, as
 * the real runtime is. Single-threaded tests only.
 */
#include "rtm_test_double.h"

#include "ara/rtm.h"

void __ara_rtm_icall(void *dest);
void __ara_rtm_ijmp(void *dest);
void __ara_rtm_ret(void *dest);

static uint64_t entries[RTM_DOUBLE_CAPACITY];
static size_t count;

static void record(enum ara_rtm_kind kind, void *dest)
{
	if (count < RTM_DOUBLE_CAPACITY)
		entries[count] = ara_rtm_entry(kind, dest);
	count++;
}

void __ara_rtm_icall(void *dest)
{
	record(ARA_RTM_ICALL, dest);
}

void __ara_rtm_ijmp(void *dest)
{
	record(ARA_RTM_IJMP, dest);
}

void __ara_rtm_ret(void *dest)
{
	record(ARA_RTM_RET, dest);
}

void rtm_double_reset(void)
{
	count = 0;
}

size_t rtm_double_count(void)
{
	return count;
}

uint64_t rtm_double_entry(size_t i)
{
	return i < RTM_DOUBLE_CAPACITY ? entries[i] : 0;
}
