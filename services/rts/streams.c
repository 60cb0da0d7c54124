/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTS_STREAM_OPEN, _CHUNK, _CLOSE (ara/rts.h, docs/rts.md), in DOM0.
 *
 * A chunk is copied into DOM0, opened there, and only a chunk that verified
 * is copied out; the index comes from the stream's own count, never from
 * the App, so reordered or replayed chunks do not open. A stream that
 * failed once stays failed. The content key lives only in the stream's GCM
 * context, which closing wipes.
 */
#include "ara/rts.h"
#include "ara/service.h"
#include "chunk_format.h"
#include "slots.h"

struct ara_rts_stream {
	struct ara_rts_slot slot; /* first: slots.c */
	int failed, ended;
	uint32_t next; /* index of the next chunk */
	struct ara_rts_header header;
	mbedtls_gcm_context gcm;
	uint8_t in[ARA_RTS_CHUNK_MAX + ARA_RTS_TAG_BYTES];
	uint8_t out[ARA_RTS_CHUNK_MAX];
};

/* The open streams; NULL if there are none (made by the first OPEN). */
static struct ara_rts_stream *streams(struct ara_rts_state *rts)
{
	return rts ? rts->streams : NULL;
}

/* Claims a free stream (id 0), or takes an open one by id. */
static struct ara_rts_stream *grab(struct ara_rts_state *rts, struct ara_rts_stream *t, uint32_t id)
{
	return (struct ara_rts_stream *)ara_rts_slot_grab(rts, t, ARA_RTS_STREAMS, sizeof(*t), id,
							  &rts->streams_generation);
}

static void release(struct ara_rts_state *rts, struct ara_rts_stream *s, enum ara_rts_slot_state to)
{
	if (to == ARA_RTS_SLOT_FREE) {
		mbedtls_gcm_free(&s->gcm); /* zeroizes the key schedule */
		ara_memzero((uint8_t *)s + sizeof(s->slot.state), sizeof(*s) - sizeof(s->slot.state));
	}
	ara_rts_slot_set(rts, &s->slot, to);
}

/*
 * The stream's key, handed to the RTS (ara_handover, slots.c), as s's GCM
 * context. ARA_OK, or why not.
 */
static enum ara_status set_key(struct ara_rts_stream *s)
{
	char name[ARA_RTS_KEY_NAME_BYTES];
	uint8_t key[32];
	size_t len = sizeof(key);
	enum ara_status st;
	int r;

	ara_rts_key_name(s->header.key_id, name);
	/* ARA_E_INVAL: a secret of that name that is too long for a content key. */
	if ((st = ara_handed(&ara_rts_module, (const uint8_t *)name, sizeof(name), key, &len)) == ARA_OK) {
		mbedtls_gcm_init(&s->gcm);
		r = (len == 16 || len == 32) &&
		    mbedtls_gcm_setkey(&s->gcm, MBEDTLS_CIPHER_ID_AES, key, (unsigned int)len * 8) == 0;
		if (!r)
			st = ARA_E_INVAL; /* a secret of that name that is no AES key */
	}
	ara_memzero(key, sizeof(key));
	return st;
}

static enum ara_status stream_open(void *arg)
{
	struct ara_rts_open_arg *a = arg;
	uint8_t header[ARA_RTS_HEADER_BYTES];
	struct ara_rts_state *rts;
	struct ara_rts_stream *t, *s;
	enum ara_status st;

	if (a->header_len != sizeof(header))
		return ARA_E_BADMSG;
	if ((st = ara_copy_from_app(header, a->header, sizeof(header))) != ARA_OK)
		return st;
	if (!(rts = ara_rts_state()) ||
	    !(t = ara_rts_slots(rts, &rts->streams, ARA_RTS_STREAMS, sizeof(struct ara_rts_stream))))
		return ARA_E_NOMEM;
	if (!(s = grab(rts, t, 0)))
		return ARA_E_BUSY;
	if (ara_rts_header_decode(header, sizeof(header), &s->header)) {
		release(rts, s, ARA_RTS_SLOT_FREE);
		return ARA_E_BADMSG;
	}
	if ((st = set_key(s)) != ARA_OK) {
		release(rts, s, ARA_RTS_SLOT_FREE);
		return st;
	}
	a->stream = s->slot.id;
	release(rts, s, ARA_RTS_SLOT_ACTIVE);
	return ARA_OK;
}

/* Opens the next chunk of s from a->in into s->out; ARA_OK or why not. */
static enum ara_status open_chunk(struct ara_rts_stream *s, struct ara_rts_chunk_arg *a)
{
	enum ara_status st;

	if (s->failed || s->ended)
		return ARA_E_BADMSG;
	if (a->in_len <= ARA_RTS_TAG_BYTES || a->in_len > s->header.chunk_size + ARA_RTS_TAG_BYTES)
		return ARA_E_BADMSG;
	if (a->out_cap < a->in_len - ARA_RTS_TAG_BYTES)
		return ARA_E_INVAL;
	/*
	 * Plain loads and stores (ara_direct_*): a chunk's copies through the
	 * kernel cost more than its decryption (docs/performance.md).
	 */
	if ((st = ara_direct_from_app(s->in, a->in, a->in_len)) != ARA_OK)
		return st;
	if (ara_rts_open(&s->gcm, &s->header, s->next, a->final != 0, s->in, a->in_len, s->out))
		return ARA_E_BADMSG;
	a->out_len = a->in_len - ARA_RTS_TAG_BYTES;
	st = ara_direct_to_app(a->out, s->out, a->out_len);
	ara_memzero(s->out, a->out_len);
	if (st == ARA_OK) {
		s->next++;
		s->ended = a->final != 0;
	}
	return st;
}

static enum ara_status stream_chunk(void *arg)
{
	struct ara_rts_chunk_arg *a = arg;
	struct ara_rts_state *rts = ara_rts_state();
	struct ara_rts_stream *t = streams(rts), *s;
	enum ara_status st;

	if (!t || a->stream == 0 || !(s = grab(rts, t, a->stream)))
		return ARA_E_NOENT;
	st = open_chunk(s, a);
	if (st == ARA_E_BADMSG)
		s->failed = 1;
	release(rts, s, ARA_RTS_SLOT_ACTIVE);
	return st;
}

static enum ara_status stream_close(void *arg)
{
	struct ara_rts_close_arg *a = arg;
	struct ara_rts_state *rts = ara_rts_state();
	struct ara_rts_stream *t = streams(rts), *s;
	int whole;

	if (!t || a->stream == 0 || !(s = grab(rts, t, a->stream)))
		return ARA_E_NOENT;
	whole = s->ended && !s->failed;
	release(rts, s, ARA_RTS_SLOT_FREE);
	return whole ? ARA_OK : ARA_E_BADMSG;
}

ARA_SERVICE(svc_rts_open, .fid = ARA_FID_RTS_STREAM_OPEN, .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rts_open_arg), .name = "rts_stream_open",
	    .module = &ara_rts_module, .handler = stream_open);
ARA_SERVICE(svc_rts_chunk, .fid = ARA_FID_RTS_STREAM_CHUNK, .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rts_chunk_arg), .name = "rts_stream_chunk",
	    .module = &ara_rts_module, .handler = stream_chunk);
ARA_SERVICE(svc_rts_close, .fid = ARA_FID_RTS_STREAM_CLOSE, .flags = ARA_SVC_IN | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rts_close_arg), .name = "rts_stream_close",
	    .module = &ara_rts_module, .handler = stream_close);
