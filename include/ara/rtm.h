/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Root of Trust for Measurement (docs/rtm.md): control-flow attestation.
 *
 * Instrumented App code (cmake/AraRtm.cmake) reports every non-deterministic
 * control-flow transfer, before it happens, with RTM_LOG: the destination of
 * an indirect call or jump, or the address a return is about to go to. DOM0
 * appends it to a 1 MiB log segment; a full segment is chained into
 * H <- SHA-256(H || segment) and waits in DOM0 until the App exports it
 * (RTM_EXPORT) for the verifier. RTM_REPORT signs, over a verifier's fresh
 * nonce, the chain value, the counts, the entries of the partial segment and
 * the process's code mappings with the ARA instance key
 * (ara/provision.h). The verifier (ara-verify) recomputes the chain from the
 * exported segments and checks every entry against the targets the App's
 * binaries allow. The log, the chain and the key stay in DOM0: an App can add
 * entries, never remove, reorder or rewrite one.
 *
 * A report marked final (ARA_RTM_REPORT_FINAL) closes the log: DOM0 ends
 * the process at any later RTM_LOG (ARA_EXIT_RTM_CLOSED), so a final
 * report covers every transfer of the run, which a report over a nonce the
 * App knew early would not. The code modules a document names are those
 * of the process when ARA initialised, before any App code ran.
 *
 * In batch mode (RTM_BATCH, after TLSLatch-Batch) DOM0 also signs a
 * checkpoint each time it seals a segment, over the nonce given once when
 * the mode began; the verifier checks the run later, checkpoint by
 * checkpoint, without a round trip per report.
 */
#ifndef ARA_RTM_H
#define ARA_RTM_H

#include <stdint.h>

#include "ara/ara.h"

/*
 * RTM_LOG: the argument is the entry itself, passed by value (not a
 * pointer): ara_rtm_entry(kind, destination). ARA_OK, or
 * ARA_RTM_SEGMENT_READY when this entry found a segment full, which DOM0
 * sealed and which now waits for RTM_EXPORT (the entry is logged in the
 * next); ARA_RTM_LOG_FULL when it found a segment full while the sealed
 * one still waits (not logged: export, then log it again); ARA_E_INVAL for
 * an unknown kind or an address outside user space (not logged, but
 * counted in the report).
 */
#define ARA_FID_RTM_LOG ARA_FID(ARA_MODULE_RTM, 1)    /* uint64_t entry, by value */
#define ARA_FID_RTM_EXPORT ARA_FID(ARA_MODULE_RTM, 2) /* struct ara_rtm_export_arg */
#define ARA_FID_RTM_REPORT ARA_FID(ARA_MODULE_RTM, 3) /* struct ara_rtm_report_arg */
#define ARA_FID_RTM_BATCH ARA_FID(ARA_MODULE_RTM, 4)  /* struct ara_rtm_batch_arg */

enum ara_rtm_kind {
	ARA_RTM_ICALL = 1, /* an indirect call is about to enter destination */
	ARA_RTM_RET = 2,   /* a return is about to go to destination */
	ARA_RTM_IJMP = 3,  /* an indirect jump (IR indirectbr) is about to go to destination */
};

#define ARA_RTM_KIND_SHIFT 56
#define ARA_RTM_ADDR_MASK ((UINT64_C(1) << ARA_RTM_KIND_SHIFT) - 1)
#define ara_rtm_entry(kind, dest) \
	(((uint64_t)(kind) << ARA_RTM_KIND_SHIFT) | ((uint64_t)(uintptr_t)(dest) & ARA_RTM_ADDR_MASK))

#define ARA_RTM_ENTRY_BYTES 8u
#define ARA_RTM_SEGMENT_BYTES (1u << 20)
#define ARA_RTM_SEGMENT_ENTRIES (ARA_RTM_SEGMENT_BYTES / ARA_RTM_ENTRY_BYTES)
#define ARA_RTM_NONCE_BYTES 32u

/*
 * The append's own entry in the gate (entry/gate.S): RTM_LOG's effect and
 * statuses, without a DOM0 stack on its common path (the entry stored in
 * the open segment); whatever else an entry needs (the first, a refused
 * one, a full segment) it does as secure_call(ARA_FID_RTM_LOG, entry).
 */
ARA_NOPLT int ara_rtm_append(uint64_t entry);

/*
 * RTM_EXPORT: copies out the oldest sealed segment not yet exported
 * (ARA_E_NOENT: none waits). In batch mode it also copies out the
 * checkpoint DOM0 signed when it sealed that segment. DOM0 never replaces
 * a segment that waits (RTM_LOG answers ARA_RTM_LOG_FULL instead), so
 * nothing is ever dropped.
 */
struct ara_rtm_export_arg {
	uint64_t segment;	 /* in: ARA_RTM_SEGMENT_BYTES of App memory */
	uint64_t checkpoint;	 /* in: where the checkpoint goes (batch mode) */
	uint32_t checkpoint_cap; /* in: ARA_RTM_CHECKPOINT_MAX is enough */
	uint32_t checkpoint_len; /* out: 0 outside batch mode */
	uint64_t index;		 /* out: the segment's number in the run, from 0 */
};

/*
 * RTM_REPORT: a signed report over nonce (services/rtm/rtm_format.h) into
 * [out, out + out_cap); ARA_RTM_REPORT_MAX bytes always suffice (ARA_E_INVAL
 * if it does not fit). ARA_E_NO_EVIDENCE: this process has no instance key
 * (ARA_EVIDENCE unset, or a forked child). ARA_E_NOTSUP: more code modules,
 * or a longer path, than the format holds.
 */
struct ara_rtm_report_arg {
	uint8_t nonce[ARA_RTM_NONCE_BYTES]; /* in: the verifier's */
	uint64_t out;			    /* in */
	uint32_t out_cap;		    /* in */
	uint32_t out_len;		    /* out */
	uint32_t flags;			    /* in: ARA_RTM_REPORT_FINAL, or 0 */
	uint32_t reserved;		    /* in: 0 */
};
#define ARA_RTM_REPORT_FINAL 0x1u /* the last report: the log closes (above) */

/* RTM_BATCH: from now on, every sealed segment comes with a checkpoint over nonce. */
struct ara_rtm_batch_arg {
	uint8_t nonce[ARA_RTM_NONCE_BYTES]; /* in: the verifier's, given once */
};

/* Upper bounds for the App's buffers (the module table is bounded too). */
#define ARA_RTM_MODULES_MAX 32u
#define ARA_RTM_MODULE_PATH_MAX 256u
#define ARA_RTM_CHECKPOINT_MAX (4096u + ARA_RTM_MODULES_MAX * (32u + ARA_RTM_MODULE_PATH_MAX))
#define ARA_RTM_REPORT_MAX (ARA_RTM_CHECKPOINT_MAX + ARA_RTM_SEGMENT_BYTES)

#endif
