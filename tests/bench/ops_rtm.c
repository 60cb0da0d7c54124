/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's hot path: one logged transfer, as instrumented code makes it,
 * through the runtime's hook for a return (__ara_rtm_ret,
 * services/rtm/runtime/hooks.c): the gate's append (ara_rtm_append,
 * RTM_LOG with the entry by value) and, every 131072 entries, the
 * runtime's export of the sealed 1 MiB segment (RTM_EXPORT, then a write to
 * the file ARA_RTM_SEGMENTS names: here a memfd, emptied at the end). Its
 * cost next to a null secure_call and to a round trip to another process
 * (a logger outside the App's process) is the paper's argument for an
 * in-process RTM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara_rtm_runtime.h"
#include "bench_ops.h"

static int segments_fd = -1;

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
	char path[64];

	segments_fd = memfd_create("ara_bench-segments", MFD_CLOEXEC);
	if (segments_fd < 0) {
		fprintf(stderr, "ara_bench: memfd_create: %s\n", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", segments_fd);
	if (setenv("ARA_RTM_SEGMENTS", path, 1)) {
		fprintf(stderr, "ara_bench: setenv ARA_RTM_SEGMENTS: %s\n", strerror(errno));
		return -1;
	}
	return rtm_log_run(1);
}

/* The exported segments (some MiB by now) are not kept. */
static int rtm_log_teardown(void)
{
	if (ftruncate(segments_fd, 0)) {
		fprintf(stderr, "ara_bench: emptying the segments' memfd: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

const struct bench_op bench_op_rtm_log = {
	.name = "rtm_log",
	.what = "one RTM-logged transfer through the runtime's hook, the segment exported to a file when full",
	.setup = rtm_log_setup,
	.run = rtm_log_run,
	.teardown = rtm_log_teardown,
};
