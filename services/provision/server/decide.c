/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision on one session (decide.h): check.c's checks, then the
 * secret sealed to the session's key share, or a REFUSE that tells the
 * peer the reason's kind and the log the reason in full.
 */
#include <stdio.h>
#include <string.h>

#include <mbedtls/platform_util.h>

#include "binding.h"
#include "check.h"
#include "decide.h"
#include "report.h"

/* What the peer is told: the reason's kind, not the policy's values. */
static const char *peer_text(int code)
{
	switch (code) {
	case ARA_REFUSE_MALFORMED: return "the message does not decode";
	case ARA_REFUSE_BACKEND: return "this evidence backend is not accepted";
	case ARA_REFUSE_EVIDENCE: return "the evidence does not verify";
	case ARA_REFUSE_MEASUREMENT: return "a measured digest is not the expected one";
	case ARA_REFUSE_STALE: return "the evidence is too old";
	case ARA_REFUSE_SESSION: return "the session signature does not verify";
	case ARA_REFUSE_SECRET: return "no such secret";
	default: return "the provisioner failed";
	}
}

static void record_start(const struct ara_decide_peer *peer, struct ara_decision *out)
{
	struct ara_log_record *r = &out->record;

	memset(r, 0, sizeof(*r));
	r->time_ms = peer->now_ms;
	r->session = peer->session;
	snprintf(r->peer, sizeof(r->peer), "%s", peer->name);
}

/* The REFUSE into out->reply and the refusal into its record. */
static int refuse(int code, const char *why, struct ara_decision *out)
{
	out->code = code;
	out->record.decision = ARA_DECISION_REFUSED;
	out->record.code = code;
	snprintf(out->record.reason, sizeof(out->record.reason), "%s", why);
	if (ara_wire_encode_refuse((uint16_t)code, peer_text(code), out->reply, sizeof(out->reply),
				   &out->reply_len) != ARA_WIRE_OK)
		out->reply_len = 0;
	return code;
}

int ara_decide_refuse(const struct ara_decide_peer *peer, int code, const char *why,
		      struct ara_decision *out)
{
	record_start(peer, out);
	return refuse(code, why, out);
}

/*
 * Seals the secret to the session's key share: the DELIVER into out->reply,
 * signed over the whole session with the provisioner's key if it has one.
 */
static int seal(const struct ara_decide_ctx *ctx, const uint8_t *challenge, size_t challenge_len,
		const uint8_t *attest, size_t attest_len, const struct ara_wire_attest *a,
		const struct ara_policy_secret *secret, struct ara_decision *out)
{
	uint8_t ikm[32], sk_e[ARA_HPKE_NSK], enc[ARA_HPKE_NPK], info[ARA_HPKE_INFO_BYTES];
	uint8_t ct[ARA_WIRE_SECRET_MAX + ARA_HPKE_NT];
	struct ara_hpke_ctx hpke;
	int ok;

	memset(&hpke, 0, sizeof(hpke));
	ok = ctx->random(ikm, sizeof(ikm)) == 0 &&
	     ara_hpke_derive_keypair(ikm, sizeof(ikm), sk_e, enc) == 0 &&
	     ara_provision_hpke_info(challenge, challenge_len, attest, attest_len, info) == 0 &&
	     ara_hpke_setup_base_s(a->share_pub, sk_e, info, sizeof(info), enc, &hpke) == 0 &&
	     ara_hpke_seal(&hpke, a->name, a->name_len, secret->value, secret->len, ct) == 0 &&
	     ara_wire_encode_deliver(enc, ct, secret->len + ARA_HPKE_NT, ctx->key != NULL,
				     out->reply, sizeof(out->reply), &out->reply_len) == ARA_WIRE_OK &&
	     (!ctx->key || ara_provision_sign_deliver(ctx->key->sk, info, out->reply,
						      out->reply_len) == 0);
	mbedtls_platform_zeroize(ikm, sizeof(ikm));
	mbedtls_platform_zeroize(sk_e, sizeof(sk_e));
	ara_hpke_ctx_wipe(&hpke);
	return ok ? 0 : -1;
}

/*
 * The checks with the store's policy, AK and secret: the secret opened
 * into *stored and *d the record of its delivery, which ara_decide claims
 * with the audit record, in one commit, before the DELIVER goes out.
 */
static int check_with_store(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
			    const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
			    size_t attest_len, struct ara_wire_attest *a,
			    struct ara_decide_device *dev, struct ara_store_delivery *d,
			    struct ara_policy_secret *stored, char *why, size_t cap)
{
	const struct ara_policy *policy;
	int code = ara_decide_store_policy(ctx->store, attest, attest_len, &policy, dev, why, cap);

	if (code || (code = ara_check_instance(policy, challenge, challenge_len, attest, attest_len,
					      peer->now_ms / 1000, a, why, cap)))
		return code;
	d->time_ms = (int64_t)peer->now_ms;
	d->session = peer->session;
	snprintf(d->peer, sizeof(d->peer), "%s", peer->name);
	snprintf(d->secret, sizeof(d->secret), "%.*s", (int)a->name_len, (const char *)a->name);
	memcpy(d->instance_pub, a->instance_pub, sizeof(d->instance_pub));
	memcpy(d->app, a->digests.app, sizeof(d->app));
	return ara_decide_store_secret(ctx->store, dev, d, stored, why, cap);
}

static int decide(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
		  const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
		  size_t attest_len, struct ara_decide_device *dev, struct ara_store_delivery *d,
		  struct ara_decision *out)
{
	const struct ara_policy_secret *secret = NULL;
	struct ara_policy_secret stored;
	struct ara_log_record *r = &out->record;
	struct ara_wire_attest a;
	char why[320];
	size_t total;
	uint8_t type;
	int code;

	if (ara_wire_peek(attest, attest_len, &type, &total) == ARA_WIRE_OK && type == ARA_WIRE_REPORT)
		return ara_report_decide(ctx, peer, challenge, challenge_len, attest, attest_len, dev,
					 out);
	if (ctx->store) {
		code = check_with_store(ctx, peer, challenge, challenge_len, attest, attest_len, &a,
					dev, d, &stored, why, sizeof(why));
		secret = &stored;
	} else {
		code = ara_check_attest(ctx->policy, challenge, challenge_len, attest, attest_len,
					peer->now_ms / 1000, &a, &secret, why, sizeof(why));
	}
	if (code == 0 || code == ARA_REFUSE_SECRET) { /* decoded and attested */
		snprintf(r->secret, sizeof(r->secret), "%.*s", (int)a.name_len,
			 (const char *)a.name);
		r->attested = 1;
		memcpy(r->instance, a.instance_pub, sizeof(r->instance));
		memcpy(r->app, a.digests.app, sizeof(r->app));
	}
	if (code == 0 &&
	    seal(ctx, challenge, challenge_len, attest, attest_len, &a, secret, out))
		code = refuse(ARA_REFUSE_INTERNAL, "sealing the secret failed", out);
	else if (code)
		refuse(code, why, out);
	else {
		out->code = 0;
		r->decision = ARA_DECISION_DELIVERED;
		r->secret_len = secret->len;
	}
	mbedtls_platform_zeroize(&stored, sizeof(stored));
	return code;
}

/* The record as the audit log keeps it, with the delivery's claim (decide_store.h). */
static int audit(const struct ara_decide_ctx *ctx, const struct ara_decide_device *dev,
		 struct ara_store_delivery *delivery, const struct ara_log_record *r, char *why,
		 size_t cap)
{
	struct ara_store_audit a = { .time_ms = (int64_t)r->time_ms, .session = r->session };

	snprintf(a.peer, sizeof(a.peer), "%s", r->peer);
	snprintf(a.decision, sizeof(a.decision), "%s",
		 r->decision == ARA_DECISION_DELIVERED ? "delivered" :
		 r->decision == ARA_DECISION_UNSENT    ? "unsent" :
		 r->decision == ARA_DECISION_VERIFIED  ? "rtm-verified" :
		 r->decision == ARA_DECISION_REJECTED  ? "rtm-rejected" :
							 "refused");
	snprintf(a.reason, sizeof(a.reason), "%s",
		 r->decision == ARA_DECISION_REFUSED ? ara_refusal_name(r->code) : "");
	snprintf(a.detail, sizeof(a.detail), "%s", r->reason);
	snprintf(a.secret, sizeof(a.secret), "%s", r->secret);
	return ara_decide_store_audit(ctx->store, dev, delivery, &a, why, cap);
}

int ara_decide_audit(const struct ara_decide_ctx *ctx, const struct ara_log_record *r,
		     char *why, size_t cap)
{
	static const struct ara_decide_device none;

	return ctx->store ? audit(ctx, &none, NULL, r, why, cap) : 0;
}

int ara_decide(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
	       const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
	       size_t attest_len, struct ara_decision *out)
{
	struct ara_store_delivery claim;
	struct ara_decide_device dev;
	char why[ARA_STORE_WHY_MAX + 64];
	int code, kept;

	memset(&dev, 0, sizeof(dev));
	memset(&claim, 0, sizeof(claim));
	record_start(peer, out);
	code = decide(ctx, peer, challenge, challenge_len, attest, attest_len, &dev, &claim, out);
	if (!ctx->store)
		return code;
	kept = audit(ctx, &dev, out->record.decision == ARA_DECISION_DELIVERED ? &claim : NULL,
		     &out->record, why, sizeof(why));
	if (kept == 1) {
		/* Another session (here or on another instance) has the once-only version. */
		mbedtls_platform_zeroize(out->reply, sizeof(out->reply));
		out->record.secret_len = 0;
		code = refuse(ARA_REFUSE_SECRET, why, out);
		kept = audit(ctx, &dev, NULL, &out->record, why, sizeof(why));
	}
	if (kept == 0)
		return code;
	/* No record, no secret: a DELIVER goes out only once its audit record is kept. */
	mbedtls_platform_zeroize(out->reply, sizeof(out->reply));
	{
		char reason[sizeof(out->record.reason)];

		snprintf(reason, sizeof(reason), "the audit record cannot be kept: %.270s", why);
		record_start(peer, out);
		return refuse(ARA_REFUSE_INTERNAL, reason, out);
	}
}
