/* SPDX-License-Identifier: Apache-2.0 */
/* The decision on a submitted RTM report (report.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/sha256.h>

#include "check.h"
#include "decide_store.h"
#include "modules.h"
#include "verify.h"

/* The record's common part, as ara_decide starts it. */
static void record_start(const struct ara_decide_peer *peer, struct ara_log_record *r)
{
	memset(r, 0, sizeof(*r));
	r->time_ms = peer->now_ms;
	r->session = peer->session;
	snprintf(r->peer, sizeof(r->peer), "%s", peer->name);
}

/*
 * What one REPORT may make the service read of module files, all together:
 * a report names up to its module table's entries, each up to 1 GiB, and
 * max-reports are decided at once. An App and its libraries are megabytes.
 */
#define ARA_REPORT_MODULE_BYTES ((size_t)256 << 20)

/* The run's evidence under ara-verify's checks: the verdict, why in msg. */
static enum ara_rtm_verdict verify(const struct ara_report_ctx *rc,
				   const struct ara_wire_report *rep, const struct ara_wire_attest *a,
				   const uint8_t *nonce, struct ara_rtm_verify_figures *fig, char *msg,
				   size_t cap)
{
	char app_file[4096];
	struct ara_rtm_module_override app = { ARA_RTM_APP_MODULE_PATH, app_file };
	/* The App's checks (modules.h): the attested digest, and full RELRO. */
	struct ara_rtm_modcache mc = { .root = rc->root, .overrides = &app, .noverrides = 1,
				       .app_known = 1, .max_bytes = ARA_REPORT_MODULE_BYTES };
	struct ara_rtm_verify_in in = {
		.key = a->instance_pub,
		.nonce = nonce,
		.app_sha256 = a->digests.app,
		.report = rep->report,
		.report_len = rep->report_len,
		.segments = rep->segments_len ? rep->segments : NULL,
		.segments_len = rep->segments_len,
		/* Our nonce, fresh in this session: a report not marked final covers the run so far. */
		.interim = 1,
	};
	enum ara_rtm_verdict v;
	const uint8_t *d = a->digests.app;

	/* The App file's name is its digest: that file or none is the attested App. */
	int n = snprintf(app_file, sizeof(app_file), "%s/", rc->apps);

	for (size_t i = 0; i < ARA_WIRE_SHA256 && n > 0 && (size_t)n + 2 < sizeof(app_file); i++)
		n += snprintf(app_file + n, sizeof(app_file) - (size_t)n, "%02x", d[i]);
	memcpy(mc.app_sha256, d, sizeof(mc.app_sha256));
	v = ara_rtm_verify(&in, &mc, fig, msg, cap);
	ara_rtm_modcache_free(&mc);
	return v;
}

/* The EAR of the verdict, signed; "" without a key; NULL if it cannot be made. */
static char *ear_token(const struct ara_report_ctx *rc, const struct ara_decide_peer *peer,
		       const struct ara_decide_device *dev, const struct ara_wire_attest *a,
		       const uint8_t *nonce, int ok, const struct ara_rtm_verify_figures *fig,
		       const char *reason)
{
	char policy_id[48];
	struct ara_ear_rtm rtm = { fig->entries, fig->segments, fig->pending, fig->checkpoints,
				   fig->final };
	struct ara_ear_result r = {
		.verifier_build = rc->build,
		.iat = peer->now_ms / 1000,
		.nonce = nonce,
		.status = ok ? ARA_EAR_AFFIRMING : ARA_EAR_CONTRAINDICATED,
		.instance_identity = ARA_EAR_TRUSTWORTHY_INSTANCE, /* the ATTEST passed */
		.executables = ok ? ARA_EAR_APPROVED_RUNTIME : ARA_EAR_CONTRAINDICATED_RUNTIME,
		.app_sha256 = a->digests.app,
		.instance_pub = a->instance_pub,
		.reason = ok ? NULL : reason,
		.rtm = ok ? &rtm : NULL,
		.policy_id = dev->policy_version ? policy_id : NULL,
	};

	snprintf(policy_id, sizeof(policy_id), "policy version %u", dev->policy_version);

	if (!rc->ear) {
		char *none = malloc(1);

		if (none)
			none[0] = '\0';
		return none;
	}
	return ara_ear_sign(&r, rc->ear);
}

/* The report and its verdict in the store; 0, or -1 with why. */
static int keep(const struct ara_decide_ctx *ctx, const struct ara_decide_device *dev,
		const struct ara_wire_report *rep, const struct ara_log_record *r, const char *ear,
		char *why, size_t cap)
{
	struct ara_store_report row = { .time_ms = (int64_t)r->time_ms, .session = r->session,
					.verified = r->decision == ARA_DECISION_VERIFIED,
					.entries = r->rtm_entries, .final = r->rtm_final,
					.report = rep->report, .report_len = rep->report_len,
					.ear = ear };

	snprintf(row.peer, sizeof(row.peer), "%s", r->peer);
	snprintf(row.detail, sizeof(row.detail), "%s", r->reason);
	memcpy(row.instance_pub, r->instance, sizeof(row.instance_pub));
	memcpy(row.app, r->app, sizeof(row.app));
	return ara_decide_store_report(ctx->store, dev, &row, r->revoke, why, cap);
}

int ara_report_decide(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
		      const uint8_t *challenge, size_t challenge_len, const uint8_t *msg,
		      size_t len, struct ara_decide_device *dev, struct ara_decision *out)
{
	const struct ara_policy *policy = ctx->policy;
	struct ara_log_record *r = &out->record;
	struct ara_rtm_verify_figures fig;
	struct ara_wire_report rep;
	struct ara_wire_attest a;
	const uint8_t *nonce;
	char why[320], verdict[1024], *token;
	const char *reason;
	enum ara_rtm_verdict v;
	int code;

	if (ara_wire_decode_report(msg, len, &rep) != ARA_WIRE_OK ||
	    ara_wire_decode_challenge(challenge, challenge_len, &nonce) != ARA_WIRE_OK)
		return ara_decide_refuse(peer, ARA_REFUSE_MALFORMED, "the REPORT does not decode", out);
	code = ctx->store ? ara_decide_store_policy(ctx->store, rep.attest, rep.attest_len, &policy,
						    dev, why, sizeof(why)) :
			    0;
	if (!code)
		code = ara_check_instance(policy, challenge, challenge_len, rep.attest,
					  rep.attest_len, peer->now_ms / 1000, &a, why, sizeof(why));
	if (code)
		return ara_decide_refuse(peer, code, why, out);
	if (!ctx->reports)
		return ara_decide_refuse(peer, ARA_REFUSE_INTERNAL,
					 "RTM reports are not verified here (no App files given)",
					 out);
	v = verify(ctx->reports, &rep, &a, nonce, &fig, verdict, sizeof(verdict));
	if (v == ARA_RTM_VERDICT_ERROR) /* the provisioner's files: not held against the device */
		return ara_decide_refuse(peer, ARA_REFUSE_INTERNAL, verdict, out);
	reason = strncmp(verdict, "REJECTED: ", 10) == 0 ? verdict + 10 : verdict;
	token = ear_token(ctx->reports, peer, dev, &a, nonce, v == ARA_RTM_VERDICT_OK, &fig, reason);
	if (!token)
		return ara_decide_refuse(peer, ARA_REFUSE_INTERNAL, "cannot make the EAR", out);
	code = ara_wire_encode_verdict(v == ARA_RTM_VERDICT_OK ? ARA_WIRE_VERDICT_ACCEPTED :
								 ARA_WIRE_VERDICT_REJECTED,
				       verdict, token, out->reply, sizeof(out->reply),
				       &out->reply_len);
	if (code != ARA_WIRE_OK) {
		free(token);
		return ara_decide_refuse(peer, ARA_REFUSE_INTERNAL, "cannot encode the VERDICT", out);
	}
	record_start(peer, r);
	out->code = 0;
	r->decision = v == ARA_RTM_VERDICT_OK ? ARA_DECISION_VERIFIED : ARA_DECISION_REJECTED;
	snprintf(r->reason, sizeof(r->reason), "%.*s", (int)sizeof(r->reason) - 1,
		 v == ARA_RTM_VERDICT_OK ? verdict : reason);
	r->attested = 1;
	memcpy(r->instance, a.instance_pub, sizeof(r->instance));
	memcpy(r->app, a.digests.app, sizeof(r->app));
	r->rtm_entries = fig.entries;
	r->rtm_final = fig.final;
	r->revoke = v != ARA_RTM_VERDICT_OK && policy->rtm_rejected_revokes;
	mbedtls_sha256(rep.report, rep.report_len, r->report_sha256, 0);
	/* No record, no verdict: the App may submit again. */
	code = ctx->store ? keep(ctx, dev, &rep, r, token, why, sizeof(why)) : 0;
	free(token);
	if (code) {
		char line[sizeof(r->reason)];

		snprintf(line, sizeof(line), "the report cannot be kept: %.280s", why);
		return ara_decide_refuse(peer, ARA_REFUSE_INTERNAL, line, out);
	}
	return 0;
}
