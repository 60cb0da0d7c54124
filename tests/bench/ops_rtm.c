/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's hot path: one logged transfer, as the instrumentation's hooks
 * make it (services/rtm/runtime/hooks.c): the gate's append
 * (ara_rtm_append, RTM_LOG with the entry by value), and, every 131072
 * entries, the export of the sealed 1 MiB segment that the runtime would
 * write to a file (here: kept in memory). Its cost next
 * to a null secure_call and to a round trip to another process (a logger
 * outside the App's process) is the paper's argument for an in-process RTM.
 */
#include <stdio.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "bench_ops.h"

static uint8_t segment[ARA_RTM_SEGMENT_BYTES];

static int export_segment(void)
{
	struct ara_rtm_export_arg e = { .segment = (uintptr_t)segment };
	int st = secure_call(ARA_FID_RTM_EXPORT, &e);

	if (st != ARA_OK) {
		fprintf(stderr, "ara_bench: RTM_EXPORT: %s (%d)\n", ara_strerror(st), st);
		return -1;
	}
	return 0;
}

static int rtm_log_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t entry = ara_rtm_entry(ARA_RTM_RET, 0x400000 + 4 * (i & 0xffff));
		int st = ara_rtm_append(entry);

		if (st == ARA_RTM_SEGMENT_READY) {
			if (export_segment())
				return -1;
		} else if (st != ARA_OK) {
			fprintf(stderr, "ara_bench: append number %llu: %s (%d)%s\n",
				(unsigned long long)i, ara_strerror(st), st,
				st == ARA_E_NOFUNC ? ": this libara has no RTM" : "");
			return -1;
		}
	}
	return 0;
}

static int rtm_log_setup(void)
{
	return rtm_log_run(1);
}

static int no_teardown(void)
{
	return 0;
}

const struct bench_op bench_op_rtm_log = {
	.name = "rtm_log",
	.what = "one RTM-logged transfer: RTM_LOG by value, the segment exported when full",
	.setup = rtm_log_setup,
	.run = rtm_log_run,
	.teardown = no_teardown,
};
