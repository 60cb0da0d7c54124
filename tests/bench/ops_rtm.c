/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's hot path: one logged transfer, as instrumented code makes it,
 * through the runtime's hook for a return (__ara_rtm_ret,
 * services/rtm/runtime/hooks.S): the gate's append (ara_rtm_append,
 * RTM_LOG with the entry by value) and, every 131072 entries, the
 * runtime's export of the sealed 1 MiB segment: RTM_EXPORT, then its write
 * to the file ARA_RTM_SEGMENTS names, here /dev/null. What a file system
 * then does to keep the segment depends on where the App keeps its
 * evidence, not on ARA (docs/performance.md, "Figures"). Its cost next to
 * a null secure_call and to a round trip to another process (a logger
 * outside the App's process) is the paper's argument for an in-process
 * RTM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/rtm_runtime.h"
#include "bench_ops.h"

static int rtm_log_run(uint64_t n)
{
	/* The hook ends the process on any status it cannot handle. */
	for (uint64_t i = 0; i < n; i++)
		__ara_rtm_ret((void *)(uintptr_t)(0x400000 + 4 * (i & 0xffff)));
	return 0;
}

/* Before the first entry: the runtime opens ARA_RTM_SEGMENTS at its first export. */
static int rtm_log_setup(void)
{
	if (setenv("ARA_RTM_SEGMENTS", "/dev/null", 1)) {
		fprintf(stderr, "ara_bench: setenv ARA_RTM_SEGMENTS: %s\n", strerror(errno));
		return -1;
	}
	return rtm_log_run(1);
}

static int no_teardown(void)
{
	return 0;
}

const struct bench_op bench_op_rtm_log = {
	.name = "rtm_log",
	.what = "one RTM-logged transfer through the runtime's hook, each full segment exported",
	.setup = rtm_log_setup,
	.run = rtm_log_run,
	.teardown = no_teardown,
};
