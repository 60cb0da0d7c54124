/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTS_CENC_OPEN, _DECRYPT, _CLOSE (ara/rts.h, docs/rts.md), in DOM0.
 *
 * A session holds one content key, found by its key ID among the
 * provisioned secrets under "cenc-<hex>" only (ara_cenc_key_name: never a
 * chunk stream's "kid-<hex>", for DECRYPT is an encryption oracle under its
 * key), as an AES key schedule and nowhere else; CLOSE wipes it. DECRYPT
 * copies the subsample map and the sample into buffers made for that call
 * (with plain loads and stores: ara_direct_*, as the stream's chunks),
 * checks the map against the sample before it decrypts anything, and
 * copies out only the whole clear sample; the buffers are wiped before they
 * are freed.
 */
#include "ara/rts.h"
#include "ara/service.h"
#include "cenc_sample.h"
#include "slots.h"

struct ara_cenc_session {
	struct ara_rts_slot slot; /* first: slots.c */
	mbedtls_aes_context aes;
};

/* The open sessions; NULL if there are none (made by the first OPEN). */
static struct ara_cenc_session *sessions(struct ara_rts_state *rts)
{
	return rts ? rts->cenc : NULL;
}

/* Claims a free session (id 0), or takes an open one by id. */
static struct ara_cenc_session *grab(struct ara_rts_state *rts, struct ara_cenc_session *t,
				     uint32_t id)
{
	return (struct ara_cenc_session *)ara_rts_slot_grab(rts, t, ARA_RTS_CENC_SESSIONS, sizeof(*t),
							    id, &rts->cenc_generation);
}

static void release(struct ara_rts_state *rts, struct ara_cenc_session *s,
		    enum ara_rts_slot_state to)
{
	if (to == ARA_RTS_SLOT_FREE) {
		mbedtls_aes_free(&s->aes); /* zeroizes the key schedule */
		s->slot.id = 0;
	}
	ara_rts_slot_set(rts, &s->slot, to);
}

/* Opens a session under key (len bytes: 16 for AES-128); the caller wipes key. */
static enum ara_status open_session(struct ara_rts_state *rts, struct ara_cenc_session *t,
				    const uint8_t *key, size_t len, uint32_t *id)
{
	struct ara_cenc_session *s;
	int r;

	if (!(s = grab(rts, t, 0)))
		return ARA_E_BUSY;
	mbedtls_aes_init(&s->aes);
	/* 'cenc' is AES-128; CTR runs the cipher forwards, so decryption uses the encryption key. */
	r = len == 16 && mbedtls_aes_setkey_enc(&s->aes, key, 128) == 0;
	if (!r) {
		release(rts, s, ARA_RTS_SLOT_FREE);
		return ARA_E_INVAL; /* a secret of that name that is no AES-128 key */
	}
	*id = s->slot.id;
	release(rts, s, ARA_RTS_SLOT_ACTIVE);
	return ARA_OK;
}

static enum ara_status cenc_open(void *arg)
{
	struct ara_rts_cenc_open_arg *a = arg;
	char name[ARA_CENC_KEY_NAME_BYTES];
	uint8_t key[32];
	size_t len = sizeof(key);
	struct ara_rts_state *rts;
	struct ara_cenc_session *t;
	enum ara_status st;

	if (!(rts = ara_rts_state()) ||
	    !(t = ara_rts_slots(rts, &rts->cenc, ARA_RTS_CENC_SESSIONS, sizeof(struct ara_cenc_session))))
		return ARA_E_NOMEM;
	ara_cenc_key_name(a->key_id, name);
	/* The key handed to the RTS (slots.c); ARA_E_NOENT if none was. */
	if ((st = ara_handed(&ara_rts_module, (const uint8_t *)name, sizeof(name), key, &len)) == ARA_OK)
		st = open_session(rts, t, key, len, &a->session);
	ara_memzero(key, sizeof(key));
	return st;
}

/* Decrypts the sample a names under s's key and copies it out; ARA_OK or why not. */
static enum ara_status decrypt_sample(struct ara_cenc_session *s, struct ara_rts_cenc_decrypt_arg *a)
{
	struct ara_cenc_subsample *map = NULL;
	uint8_t *sample;
	enum ara_status st;

	/* Bounds first: they size the copies. */
	if (a->in_len == 0 || a->in_len > ARA_RTS_CENC_SAMPLE_MAX ||
	    a->subsample_count > ARA_RTS_CENC_SUBSAMPLES_MAX || (a->iv_len != 8 && a->iv_len != 16) ||
	    a->out_cap < a->in_len)
		return ARA_E_INVAL;
	if (a->subsample_count &&
	    !(map = ara_dom0_calloc(a->subsample_count, sizeof(*map))))
		return ARA_E_NOMEM;
	if (!(sample = ara_dom0_calloc(1, a->in_len))) {
		ara_dom0_free(map);
		return ARA_E_NOMEM;
	}
	st = map ? ara_direct_from_app(map, a->subsamples, a->subsample_count * sizeof(*map))
		 : ARA_OK;
	if (st == ARA_OK && ara_cenc_map_check(map, a->subsample_count, a->in_len))
		st = ARA_E_INVAL;
	if (st == ARA_OK)
		st = ara_direct_from_app(sample, a->in, a->in_len);
	if (st == ARA_OK && ara_cenc_decrypt(&s->aes, a->iv, a->iv_len, map, a->subsample_count,
					     sample, a->in_len))
		st = ARA_E_INTERNAL;
	if (st == ARA_OK)
		st = ara_direct_to_app(a->out, sample, a->in_len);
	if (st == ARA_OK)
		a->out_len = a->in_len;
	ara_memzero(sample, a->in_len);
	ara_dom0_free(sample);
	ara_dom0_free(map);
	return st;
}

static enum ara_status cenc_decrypt(void *arg)
{
	struct ara_rts_cenc_decrypt_arg *a = arg;
	struct ara_rts_state *rts = ara_rts_state();
	struct ara_cenc_session *t = sessions(rts), *s;
	enum ara_status st;

	if (!t || a->session == 0 || !(s = grab(rts, t, a->session)))
		return ARA_E_NOENT;
	st = decrypt_sample(s, a);
	release(rts, s, ARA_RTS_SLOT_ACTIVE);
	return st;
}

static enum ara_status cenc_close(void *arg)
{
	struct ara_rts_cenc_close_arg *a = arg;
	struct ara_rts_state *rts = ara_rts_state();
	struct ara_cenc_session *t = sessions(rts), *s;

	if (!t || a->session == 0 || !(s = grab(rts, t, a->session)))
		return ARA_E_NOENT;
	release(rts, s, ARA_RTS_SLOT_FREE);
	return ARA_OK;
}

ARA_SERVICE(svc_rts_cenc_open, .fid = ARA_FID_RTS_CENC_OPEN, .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rts_cenc_open_arg), .name = "rts_cenc_open",
	    .module = &ara_rts_module, .handler = cenc_open);
ARA_SERVICE(svc_rts_cenc_decrypt, .fid = ARA_FID_RTS_CENC_DECRYPT,
	    .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD, .arg_size = sizeof(struct ara_rts_cenc_decrypt_arg),
	    .name = "rts_cenc_decrypt", .module = &ara_rts_module, .handler = cenc_decrypt);
ARA_SERVICE(svc_rts_cenc_close, .fid = ARA_FID_RTS_CENC_CLOSE, .flags = ARA_SVC_IN | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rts_cenc_close_arg), .name = "rts_cenc_close",
	    .module = &ara_rts_module, .handler = cenc_close);
