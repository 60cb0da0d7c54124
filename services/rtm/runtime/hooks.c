/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hooks the RTM's pass plugin inserts before every indirect call,
 * indirect jump and return of instrumented code (docs/rtm.md,
 * "Instrumentation"). Each logs one entry with RTM_LOG, the entry passed by
 * value. DOM0 serialises the log, so the hooks take no lock; this file is
 * never instrumented itself.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara_rtm_runtime.h"
#include "runtime_internal.h"

void ara_rtm_warn(const char *what, const char *why)
{
	/* Best effort: a failed write to stderr has nowhere to be reported. */
	if (write(STDERR_FILENO, "ara-rtm: ", 9) < 0 || write(STDERR_FILENO, what, strlen(what)) < 0 ||
	    write(STDERR_FILENO, ": ", 2) < 0 || write(STDERR_FILENO, why, strlen(why)) < 0 ||
	    write(STDERR_FILENO, "\n", 1) < 0)
		return;
}

static void log_entry(enum ara_rtm_kind kind, void *dest)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;

	for (;;) {
		int status = secure_call(ARA_FID_RTM_LOG, (void *)(uintptr_t)ara_rtm_entry(kind, dest));

		switch (status) {
		case ARA_OK:
			return;
		case ARA_E_INVAL: /* not logged, but counted as refused in every report */
			return;
		case ARA_E_BUSY: /* every DOM0 stack is in use: the entry must not be lost */
			sched_yield();
			continue;
		case ARA_RTM_SEGMENT_READY:
			/* Exported now: the next sealed segment would replace it.
			 * A failure is on stderr already. */
			(void)ara_rtm_flush_segments();
			return;
		default:
			/* No RTM in this process (e.g. not under ara-loader): no report either. */
			if (!atomic_flag_test_and_set(&warned))
				ara_rtm_warn("RTM_LOG failed, this run cannot be attested",
					     ara_strerror(status));
			return;
		}
	}
}

void __ara_rtm_icall(void *dest)
{
	log_entry(ARA_RTM_ICALL, dest);
}

void __ara_rtm_ijmp(void *dest)
{
	log_entry(ARA_RTM_IJMP, dest);
}

void __ara_rtm_ret(void *dest)
{
	log_entry(ARA_RTM_RET, dest);
}
