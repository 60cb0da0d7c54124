/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's decision on a submitted RTM report (docs/provisioning.md,
 * "RTM reports"): the REPORT's ATTEST must pass the policy as a session's
 * would (check.c), which makes its instance key and App digest trusted;
 * the report, over this session's nonce and signed by that key, is then
 * verified with ara-verify's checks (services/rtm/verify) against the
 * module files the provisioner holds. The reply is a VERDICT carrying a
 * signed EAR (docs/ear.md), or a REFUSE when nothing could be decided.
 */
#ifndef ARA_PROVISION_REPORT_H
#define ARA_PROVISION_REPORT_H

#include "decide.h"
#include "ear.h"

/* What the provisioner needs to verify reports (decide.h's ctx->reports). */
struct ara_report_ctx {
	/*
	 * The App files, each named by its SHA-256 in lower-case hex: the
	 * attested App's is the file of the report's App module.
	 */
	const char *apps;
	const char *root;	       /* other modules: ROOT + the report's path; NULL: the path */
	const struct ara_ear_key *ear; /* signs the VERDICT's EAR; NULL: the VERDICT has none */
	const char *build;	       /* the EAR's verifier build: "ara-provision VERSION" */
};

/*
 * Decides a session whose message is a REPORT (msg, len bytes, whole),
 * as ara_decide does an ATTEST: out->reply is the VERDICT or REFUSE,
 * out->record says ARA_DECISION_VERIFIED or _REJECTED (a verdict) or
 * _REFUSED (none). With a store, the policy and the device (*dev) are the
 * store's as for an ATTEST, and the report is kept with its verdict (and
 * the device revoked when the policy says rtm-rejected revoke) before
 * the VERDICT may go out. Returns 0 for a verdict, else the refusal's code.
 */
int ara_report_decide(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
		      const uint8_t *challenge, size_t challenge_len, const uint8_t *msg,
		      size_t len, struct ara_decide_device *dev, struct ara_decision *out);

#endif
