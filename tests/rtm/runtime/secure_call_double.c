/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TEST DOUBLE of secure_call, ara_rtm_append and ara_rtm_flush_segments
 * (secure_call_double.h).
 */
#include "secure_call_double.h"

#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"

static int script[DOUBLE_SCRIPT_MAX];
static size_t scripted, calls, flushes;
static uint32_t last_fid;
static uint64_t last_arg;

void double_script(const int *statuses, size_t n)
{
	for (size_t i = 0; i < n && i < DOUBLE_SCRIPT_MAX; i++)
		script[i] = statuses[i];
	scripted = n < DOUBLE_SCRIPT_MAX ? n : DOUBLE_SCRIPT_MAX;
	calls = flushes = 0;
	last_fid = 0;
	last_arg = 0;
}

int secure_call(uint32_t fid, void *arg)
{
	last_fid = fid;
	last_arg = (uint64_t)(uintptr_t)arg;
	return calls < scripted ? script[calls++] : (calls++, ARA_OK);
}

/* The gate's append answers as RTM_LOG does: one call of the double. */
int ara_rtm_append(uint64_t entry)
{
	return secure_call(ARA_FID_RTM_LOG, (void *)(uintptr_t)entry);
}

int ara_rtm_flush_segments(void)
{
	flushes++;
	return ARA_OK;
}

size_t double_calls(void)
{
	return calls;
}

uint32_t double_last_fid(void)
{
	return last_fid;
}

uint64_t double_last_arg(void)
{
	return last_arg;
}

size_t double_flushes(void)
{
	return flushes;
}
