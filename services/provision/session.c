/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PROVISION_BEGIN and PROVISION_FINISH (ara/provision.h): the device side
 * of a provisioning session, in DOM0.
 *
 * Every message arrives through the App, which may have changed it: each is
 * copied into DOM0 with its length bounded first, then decoded, and only
 * the session's own state decides what it may do. The key share's private
 * half never leaves the session slot and is wiped when the session ends.
 * Where the manifest pins the provisioner's key (the boot block's
 * provisioner_pub), a DELIVER is opened only after its signature over the
 * whole transcript verifies with that key: a false provisioner's secret is
 * never opened, let alone kept.
 */
#include "ara/service.h"
#include "instance.h"
#include "p256.h"

#define CHALLENGE_LEN (ARA_WIRE_HEADER + ARA_WIRE_NONCE)
/* An ATTEST body but for its name and evidence (wire.h, docs/provisioning.md). */
#define ARA_ATTEST_FIXED                                                                      \
	(1u + 3u + 8u + ARA_WIRE_POINT + 5u * ARA_WIRE_SHA256 + ARA_WIRE_POINT + 1u + 4u +   \
	 ARA_WIRE_SIG)

/* The ATTEST for a session, in a DOM0 buffer; signed by the instance key. */
static enum ara_status write_attest(const struct ara_instance *in, struct ara_session *s,
				    const uint8_t *challenge, const uint8_t share_pub[ARA_HPKE_NPK],
				    uint8_t *msg, size_t cap, size_t *len)
{
	struct ara_wire_attest a = {
		.backend = in->backend,
		.issued_at = in->issued_at,
		.instance_pub = in->pub,
		.digests = in->digests,
		.share_pub = share_pub,
		.name = s->name,
		.name_len = s->name_len,
		.evidence = in->evidence,
		.evidence_len = in->evidence_len,
	};
	uint8_t hash[32], sig[ARA_WIRE_SIG];

	if (ara_wire_encode_attest(&a, msg, cap, len) != ARA_WIRE_OK)
		return ARA_E_INTERNAL;
	if (ara_provision_session_hash(challenge, CHALLENGE_LEN, msg, a.signed_len, hash) ||
	    ara_p256_sign(in->sk, hash, sig))
		return ARA_E_INTERNAL;
	ara_wire_set_sig(msg, *len, sig);
	if (ara_provision_hpke_info(challenge, CHALLENGE_LEN, msg, *len, s->info))
		return ARA_E_INTERNAL;
	return ARA_OK;
}

/* Fills a claimed session: its share, name and ATTEST, copied to the App. */
static enum ara_status fill_session(const struct ara_instance *in, struct ara_session *s,
				    struct ara_provision_begin_arg *a, const uint8_t *challenge)
{
	uint8_t ikm[32], share_pub[ARA_HPKE_NPK];
	/* The message's exact size: the DOM0 heap is shared by every service. */
	size_t cap = ARA_WIRE_HEADER + ARA_ATTEST_FIXED + s->name_len + in->evidence_len, len = 0;
	uint8_t *msg;
	enum ara_status st;
	int r;

	if (ara_random_bytes(ikm, sizeof(ikm)))
		return ARA_E_INTERNAL;
	r = ara_hpke_derive_keypair(ikm, sizeof(ikm), s->share_sk, share_pub);
	ara_memzero(ikm, sizeof(ikm));
	if (r)
		return ARA_E_INTERNAL;
	msg = ara_dom0_calloc(1, cap);
	if (!msg)
		return ARA_E_NOMEM;
	st = write_attest(in, s, challenge, share_pub, msg, cap, &len);
	if (st == ARA_OK && len > a->attest_cap)
		st = ARA_E_INVAL;
	if (st == ARA_OK)
		st = ara_copy_to_app(a->attest, msg, len);
	ara_dom0_free(msg); /* public bytes only: nothing to wipe */
	a->attest_len = (uint32_t)len;
	return st;
}

static enum ara_status begin(void *arg)
{
	struct ara_provision_begin_arg *a = arg;
	struct ara_instance *in = ara_instance();
	uint8_t challenge[CHALLENGE_LEN];
	const uint8_t *nonce;
	struct ara_session *s;
	enum ara_status st;

	if (!in)
		return ARA_E_NO_EVIDENCE;
	if (a->challenge_len != CHALLENGE_LEN)
		return ARA_E_BADMSG;
	if (a->name_len == 0 || a->name_len > ARA_WIRE_NAME_MAX)
		return ARA_E_INVAL;
	st = ara_copy_from_app(challenge, a->challenge, CHALLENGE_LEN);
	if (st != ARA_OK)
		return st;
	if (ara_wire_decode_challenge(challenge, CHALLENGE_LEN, &nonce) != ARA_WIRE_OK)
		return ARA_E_BADMSG;
	s = ara_session_claim(in);
	if (!s)
		return ARA_E_BUSY;
	s->name_len = a->name_len;
	st = ara_copy_from_app(s->name, a->name, a->name_len);
	if (st == ARA_OK && !ara_wire_name_ok(s->name, s->name_len))
		st = ARA_E_INVAL;
	if (st == ARA_OK)
		st = fill_session(in, s, a, challenge);
	if (st != ARA_OK) {
		ara_session_release(in, s, ARA_SLOT_FREE);
		return st;
	}
	a->session = s->id;
	ara_session_release(in, s, ARA_SLOT_ACTIVE);
	return ARA_OK;
}

/* Opens a DELIVER with the session's share and keeps the secret. */
static enum ara_status open_delivery(struct ara_instance *in, const struct ara_session *s,
				     const uint8_t *reply, size_t len, uint32_t *handle)
{
	struct ara_wire_deliver d;
	struct ara_hpke_ctx ctx;
	uint8_t secret[ARA_WIRE_SECRET_MAX];
	size_t secret_len;
	enum ara_status st = ARA_E_BADMSG;

	if (ara_wire_decode_deliver(reply, len, &d) != ARA_WIRE_OK)
		return ARA_E_BADMSG;
#ifndef ARA_TEST_VARIANT_NO_PROVISIONER_CHECK /* test-only (tests/variants): no check */
	if (ara_measured()->provisioner_pub[0] &&
	    ara_provision_verify_deliver(ara_measured()->provisioner_pub, s->info, reply, &d))
		return ARA_E_PROVISIONER;
#endif
	secret_len = d.ct_len - ARA_HPKE_NT;
	if (ara_hpke_setup_base_r(d.enc, s->share_sk, s->info, sizeof(s->info), &ctx) == 0 &&
	    ara_hpke_open(&ctx, s->name, s->name_len, d.ct, d.ct_len, secret) == 0)
		st = ara_secret_store(in, s->name, s->name_len, secret, secret_len, handle);
	ara_hpke_ctx_wipe(&ctx);
	ara_memzero(secret, sizeof(secret));
	return st;
}

static enum ara_status finish(void *arg)
{
	struct ara_provision_finish_arg *a = arg;
	struct ara_instance *in = ara_instance();
	struct ara_wire_refuse refusal;
	struct ara_session *s;
	uint8_t reply[ARA_WIRE_DELIVER_MAX]; /* the largest reply FINISH reads */
	enum ara_status st;

	if (!in)
		return ARA_E_NO_EVIDENCE;
	s = ara_session_take(in, a->session);
	if (!s)
		return ARA_E_NOENT;
	/* One reply per session, whatever it holds: no retries to learn from. */
	if (a->reply_len > sizeof(reply))
		st = ARA_E_BADMSG;
	else
		st = ara_copy_from_app(reply, a->reply, a->reply_len);
	if (st == ARA_OK) {
		if (ara_wire_decode_refuse(reply, a->reply_len, &refusal) == ARA_WIRE_OK)
			st = ARA_E_REFUSED;
		else
			st = open_delivery(in, s, reply, a->reply_len, &a->handle);
	}
	ara_session_release(in, s, ARA_SLOT_FREE);
	return st;
}

ARA_SERVICE(svc_provision_begin, .fid = ARA_FID_PROVISION_BEGIN,
	    .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD, .arg_size = sizeof(struct ara_provision_begin_arg),
	    .name = "provision_begin", .module = &ara_provision_module, .handler = begin);
ARA_SERVICE(svc_provision_finish, .fid = ARA_FID_PROVISION_FINISH,
	    .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD, .arg_size = sizeof(struct ara_provision_finish_arg),
	    .name = "provision_finish", .module = &ara_provision_module, .handler = finish);
