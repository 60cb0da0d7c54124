/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify's decision over one run (docs/rtm.md, "Verification"): the
 * documents (a report, or checkpoints, or both), the chain over the
 * exported segments, and every logged entry against the targets its
 * module's binary allows. Checks run in a fixed order and stop at the
 * first failure, which the message names in one line.
 */
#ifndef ARA_RTM_VERIFY_H
#define ARA_RTM_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "modules.h"
#include "rtm_format.h"

struct ara_rtm_verify_in {
	const uint8_t *key;	   /* ARA_RTM_PUB_BYTES: the instance key, the trust anchor */
	const uint8_t *nonce;	   /* ARA_RTM_NONCE_BYTES: the verifier's (or the batch's) */
	const uint8_t *app_sha256; /* ARA_RTM_HASH_BYTES, or NULL: not checked */
	const uint8_t *report;	   /* or NULL (then checkpoints are given) */
	size_t report_len;
	const uint8_t *segments; /* concatenated segments in index order; NULL: none */
	size_t segments_len;
	const uint8_t *checkpoints; /* concatenated checkpoints; NULL: not batch mode */
	size_t checkpoints_len;
	/*
	 * Accept evidence that covers the run only up to some point: a report
	 * not marked final (the verifier knows its nonce was fresh when it
	 * asked), or checkpoints without a final report. 0: the run must end
	 * with a final report.
	 */
	int interim;
};

enum ara_rtm_verdict {
	ARA_RTM_VERDICT_OK = 0,
	ARA_RTM_VERDICT_REJECTED = 1,
	ARA_RTM_VERDICT_ERROR = 2, /* no decision: a module could not be read or parsed */
};

/* What an accepted run's evidence covers: the figures of the "OK:" line. */
struct ara_rtm_verify_figures {
	uint64_t entries;   /* every entry checked: the segments' and the pending ones */
	uint64_t segments;  /* sealed segments given */
	uint32_t pending;   /* the report's pending entries; 0 without a report */
	size_t checkpoints; /* checkpoints given; 0 without any */
	int final;	    /* 1: the evidence ends with a final report (the whole run) */
};

/*
 * The verdict, with msg (up to cap bytes, NUL-terminated) saying
 * "OK: ...", "REJECTED: ..." or what stopped the decision; on OK, *fig
 * (if not NULL) holds the figures, otherwise it is zeroed.
 */
enum ara_rtm_verdict ara_rtm_verify(const struct ara_rtm_verify_in *in, struct ara_rtm_modcache *mc,
				    struct ara_rtm_verify_figures *fig, char *msg, size_t cap);

#endif
