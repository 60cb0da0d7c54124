/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's App-side runtime (docs/rtm.md, "Instrumentation"): the hooks
 * the pass plugin calls (__ara_rtm_icall/ijmp/ret) and what an App calls to
 * hand its evidence to a verifier.
 *
 * Sealed log segments (and, in batch mode, their checkpoints) are appended,
 * in order, to the files named by the environment variables
 * ARA_RTM_SEGMENTS and ARA_RTM_CHECKPOINTS, opened at the first export. A
 * segment exported with no ARA_RTM_SEGMENTS is discarded (with a warning
 * on stderr) and the verifier then refuses the run.
 *
 * Each function returns ARA_OK, an enum ara_status from ARA, or
 * ARA_RTM_IO_ERROR when a file could not be written (errno says why; the
 * runtime names the file on stderr).
 */
#ifndef ARA_RTM_RUNTIME_H
#define ARA_RTM_RUNTIME_H

#include <stdint.h>

#include "ara/rtm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARA_RTM_IO_ERROR (-1)

/*
 * The evidence of a whole run, at exit (exit_evidence.c): with
 * ARA_RTM_NONCE=<64 hex digits> in the environment, when the program (not
 * a child it forked) exits
 * the runtime exports the segments still waiting, writes the final report
 * over that nonce to the file ARA_RTM_REPORT names, and the instance's ATTEST
 * for a CHALLENGE of the same nonce to ARA_RTM_ATTEST (ara-verify --attest).
 * With ARA_RTM_BATCH=1 as well, batch mode over that nonce starts before
 * main. If it cannot, the process ends with this status instead of the
 * program's; so it does when a hook's RTM_LOG fails in a way that loses an
 * entry (hooks.S, hooks.c): a run whose log misses a transfer must not go on.
 */
#define ARA_RTM_EXIT_NO_EVIDENCE 97

/*
 * Exports the sealed segments waiting in DOM0, then writes a signed report
 * over the verifier's nonce into [out, out + cap) (ARA_RTM_REPORT_MAX is
 * always enough; ARA_E_INVAL if cap is too small). *len is its length.
 */
int ara_rtm_report(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
		   uint32_t *len);

/*
 * The same, marked final: DOM0 closes the log, and ends the process at any
 * later logged transfer (ARA_EXIT_RTM_CLOSED), so that the report covers
 * the whole run. For the very end of a run.
 */
int ara_rtm_report_final(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
			 uint32_t *len);

/* Batch mode from now on: every sealed segment comes with a checkpoint over nonce. */
int ara_rtm_batch(const uint8_t nonce[ARA_RTM_NONCE_BYTES]);

/* Exports every sealed segment waiting in DOM0 (ARA_OK when none waits). */
int ara_rtm_flush_segments(void);

/* The hooks the pass plugin inserts (never called by hand). */
void __ara_rtm_icall(void *dest);
void __ara_rtm_ijmp(void *dest);
void __ara_rtm_ret(void *dest);

#ifdef __cplusplus
}
#endif

#endif
