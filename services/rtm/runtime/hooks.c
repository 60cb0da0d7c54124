/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The slow path of the hooks the RTM's pass plugin inserts before every
 * indirect call, indirect jump and return of instrumented code (hooks.S,
 * docs/rtm.md, "Instrumentation"): what a hook does with any status of the
 * gate's append but ARA_OK. This file is never instrumented itself.
 *
 * The hooks fail closed: an entry DOM0 neither logged nor counted (any
 * status but those handled below, e.g. ARA_E_NOMEM when DOM0 cannot make
 * the log at the first LOG) ends the process at once, for a later LOG
 * could start a log that verifies while this transfer is in none. Only a
 * process where no RTM_LOG can ever succeed (no ARA, or a libara without
 * the RTM) goes on, warned once: it can never be attested.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "runtime_internal.h"

_Static_assert(ARA_RTM_HOOK_KIND_SHIFT == ARA_RTM_KIND_SHIFT, "hooks.S's entry layout");
_Static_assert(ARA_RTM_HOOK_ICALL == ARA_RTM_ICALL && ARA_RTM_HOOK_RET == ARA_RTM_RET &&
		       ARA_RTM_HOOK_IJMP == ARA_RTM_IJMP,
	       "hooks.S's kinds");

void ara_rtm_warn(const char *what, const char *why)
{
	/* Best effort: a failed write to stderr has nowhere to be reported. */
	if (write(STDERR_FILENO, "ara-rtm: ", 9) < 0 || write(STDERR_FILENO, what, strlen(what)) < 0 ||
	    write(STDERR_FILENO, ": ", 2) < 0 || write(STDERR_FILENO, why, strlen(why)) < 0 ||
	    write(STDERR_FILENO, "\n", 1) < 0)
		return;
}

/*
 * Ends the process on a status that lost an entry, with one line on stderr
 * that names it: its number as well, for an unknown status has no text.
 */
__attribute__((noreturn)) static void lost_entry(int status)
{
	char what[64] = "RTM_LOG lost an entry (status ";
	size_t n = strlen(what);
	unsigned v = status < 0 ? 0u - (unsigned)status : (unsigned)status;
	char digits[12];
	size_t d = 0;

	do
		digits[d++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (status < 0)
		what[n++] = '-';
	while (d > 0)
		what[n++] = digits[--d];
	memcpy(what + n, "), ending the process", sizeof("), ending the process"));
	ara_rtm_warn(what, ara_strerror(status));
	/* _exit: no atexit handler (exit_evidence.c) may write a report of this run. */
	_exit(ARA_RTM_EXIT_NO_EVIDENCE);
}

/*
 * Every status but ARA_OK from the gate's append, for entry, until the
 * entry is logged or refused: the hooks' slow path (hooks.S; its argument
 * order is the registers the hooks have them in).
 */
void ara_rtm_log_slow(int status, uint64_t entry)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;

	for (;; status = ara_rtm_append(entry)) {
		switch (status) {
		case ARA_OK:
			return;
		case ARA_E_INVAL: /* not logged, but counted as refused in every report */
			return;
		case ARA_E_BUSY: /* every DOM0 stack is in use: the entry must not be lost */
			sched_yield();
			continue;
		case ARA_RTM_SEGMENT_READY:
			/* Exported now, before the next segment fills. A failure is
			 * on stderr already. */
			(void)ara_rtm_flush_segments();
			return;
		case ARA_RTM_LOG_FULL: { /* not logged until the sealed segment is exported */
			int flushed = ara_rtm_flush_segments();

			/* A file that could not be written still let DOM0's copy go. */
			if (flushed != ARA_OK && flushed != ARA_RTM_IO_ERROR)
				lost_entry(flushed);
			continue;
		}
		case ARA_E_NOT_READY: /* not under ara-loader */
		case ARA_E_NOFUNC:    /* a libara without the RTM */
			/* No RTM in this process: no report either. */
			if (!atomic_flag_test_and_set(&warned))
				ara_rtm_warn("RTM_LOG failed, this run cannot be attested",
					     ara_strerror(status));
			return;
		default: /* not logged, not counted: the run must not go on looking attestable */
			lost_entry(status);
		}
	}
}
