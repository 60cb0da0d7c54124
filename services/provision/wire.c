/* SPDX-License-Identifier: Apache-2.0 */
/* The provisioning wire format, version 1: see wire.h and docs/provisioning.md. */
#include <string.h>

#include "wire.h"

#include "ara/bytes.h"

/* A bounded reader: every take checks the bytes left first. */
struct rd {
	const uint8_t *p;
	size_t left;
};

static const uint8_t *take(struct rd *r, size_t n)
{
	const uint8_t *p = r->p;

	if (n > r->left)
		return NULL;
	r->p += n;
	r->left -= n;
	return p;
}

static int take_u8(struct rd *r, uint8_t *v)
{
	const uint8_t *p = take(r, 1);

	if (!p)
		return -1;
	*v = p[0];
	return 0;
}

static int take_u16(struct rd *r, uint16_t *v)
{
	const uint8_t *p = take(r, 2);

	if (!p)
		return -1;
	*v = ara_get_be16(p);
	return 0;
}

static int take_u32(struct rd *r, uint32_t *v)
{
	const uint8_t *p = take(r, 4);

	if (!p)
		return -1;
	*v = ara_get_be32(p);
	return 0;
}

static int take_u64(struct rd *r, uint64_t *v)
{
	uint32_t hi, lo;

	if (take_u32(r, &hi) || take_u32(r, &lo))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static int take_copy(struct rd *r, uint8_t *dst, size_t n)
{
	const uint8_t *p = take(r, n);

	if (!p)
		return -1;
	memcpy(dst, p, n);
	return 0;
}

/* A bounded writer: an overflow sets bad and writes nothing more. */
struct wr {
	uint8_t *p;
	size_t cap, len;
	int bad;
};

static void put(struct wr *w, const void *src, size_t n)
{
	if (w->bad || n > w->cap - w->len) {
		w->bad = 1;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put_u8(struct wr *w, uint8_t v)
{
	put(w, &v, 1);
}

static void put_u16(struct wr *w, uint16_t v)
{
	uint8_t b[2];

	ara_put_be16(b, v);
	put(w, b, sizeof(b));
}

static void put_u32(struct wr *w, uint32_t v)
{
	uint8_t b[4];

	ara_put_be32(b, v);
	put(w, b, sizeof(b));
}

static void put_u64(struct wr *w, uint64_t v)
{
	put_u32(w, (uint32_t)(v >> 32));
	put_u32(w, (uint32_t)v);
}

/* The header, with the body's length still to come (fixed by finish()). */
static void put_header(struct wr *w, enum ara_wire_type type, uint16_t flags)
{
	put(w, ARA_WIRE_MAGIC, 4);
	put_u8(w, ARA_WIRE_VERSION);
	put_u8(w, (uint8_t)type);
	put_u16(w, flags);
	put_u32(w, 0);
}

static int finish(struct wr *w, size_t *written)
{
	size_t body = w->len - ARA_WIRE_HEADER;

	if (w->bad)
		return ARA_WIRE_E_SPACE;
	ara_put_be32(w->p + 8, (uint32_t)body);
	*written = w->len;
	return ARA_WIRE_OK;
}

int ara_wire_name_ok(const uint8_t *name, size_t len)
{
	if (len == 0 || len > ARA_WIRE_NAME_MAX)
		return 0;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

int ara_wire_peek(const uint8_t *msg, size_t len, uint8_t *type, size_t *total)
{
	struct rd r = { msg, len };
	const uint8_t *magic;
	uint8_t version;
	uint16_t flags;
	uint32_t body;

	magic = take(&r, 4);
	if (!magic || take_u8(&r, &version) || take_u8(&r, type) || take_u16(&r, &flags) ||
	    take_u32(&r, &body))
		return ARA_WIRE_E_SHORT;
	if (memcmp(magic, ARA_WIRE_MAGIC, 4) != 0)
		return ARA_WIRE_E_MAGIC;
	if (version != ARA_WIRE_VERSION)
		return ARA_WIRE_E_VERSION;
	if ((flags & ~(*type == ARA_WIRE_DELIVER ? ARA_WIRE_F_SIGNED : 0u)) ||
	    body > (*type == ARA_WIRE_REPORT ? ARA_WIRE_REPORT_BODY_MAX : ARA_WIRE_BODY_MAX))
		return ARA_WIRE_E_FIELD;
	*total = ARA_WIRE_HEADER + (size_t)body;
	return ARA_WIRE_OK;
}

/* The body of a message of type want that is exactly len bytes long. */
static int open_body(const uint8_t *msg, size_t len, enum ara_wire_type want, struct rd *body)
{
	uint8_t type;
	size_t total;
	int r = ara_wire_peek(msg, len, &type, &total);

	if (r != ARA_WIRE_OK)
		return r;
	if (type != want)
		return ARA_WIRE_E_TYPE;
	if (len < total)
		return ARA_WIRE_E_SHORT;
	if (len > total)
		return ARA_WIRE_E_LONG;
	body->p = msg + ARA_WIRE_HEADER;
	body->left = total - ARA_WIRE_HEADER;
	return ARA_WIRE_OK;
}

/* A body must be used up: trailing bytes are an error, not padding. */
static int close_body(const struct rd *body)
{
	return body->left == 0 ? ARA_WIRE_OK : ARA_WIRE_E_LONG;
}

int ara_wire_decode_challenge(const uint8_t *msg, size_t len, const uint8_t **nonce)
{
	struct rd b;
	int r = open_body(msg, len, ARA_WIRE_CHALLENGE, &b);

	if (r != ARA_WIRE_OK)
		return r;
	*nonce = take(&b, ARA_WIRE_NONCE);
	if (!*nonce)
		return ARA_WIRE_E_SHORT;
	return close_body(&b);
}

int ara_wire_decode_attest(const uint8_t *msg, size_t len, struct ara_wire_attest *a)
{
	struct rd b;
	const uint8_t *reserved;
	uint8_t name_len;
	uint32_t evidence_len;
	struct ara_wire_digests *d = &a->digests;
	int r = open_body(msg, len, ARA_WIRE_ATTEST, &b);

	if (r != ARA_WIRE_OK)
		return r;
	if (take_u8(&b, &a->backend) || !(reserved = take(&b, 3)) || take_u64(&b, &a->issued_at) ||
	    !(a->instance_pub = take(&b, ARA_WIRE_POINT)) || take_copy(&b, d->loader, 32) ||
	    take_copy(&b, d->manifest, 32) || take_copy(&b, d->libara, 32) ||
	    take_copy(&b, d->entry, 32) || take_copy(&b, d->app, 32) ||
	    !(a->share_pub = take(&b, ARA_WIRE_POINT)) || take_u8(&b, &name_len) ||
	    !(a->name = take(&b, name_len)) || take_u32(&b, &evidence_len))
		return ARA_WIRE_E_SHORT;
	if (reserved[0] | reserved[1] | reserved[2] || !ara_wire_name_ok(a->name, name_len) ||
	    evidence_len == 0 || evidence_len > ARA_WIRE_EVIDENCE_MAX)
		return ARA_WIRE_E_FIELD;
	a->name_len = name_len;
	a->evidence_len = evidence_len;
	if (!(a->evidence = take(&b, evidence_len)))
		return ARA_WIRE_E_SHORT;
	a->signed_len = (size_t)(b.p - msg);
	if (!(a->sig = take(&b, ARA_WIRE_SIG)))
		return ARA_WIRE_E_SHORT;
	return close_body(&b);
}

int ara_wire_decode_deliver(const uint8_t *msg, size_t len, struct ara_wire_deliver *d)
{
	struct rd b;
	uint16_t ct_len;
	int r = open_body(msg, len, ARA_WIRE_DELIVER, &b);

	if (r != ARA_WIRE_OK)
		return r;
	if (!(d->enc = take(&b, ARA_WIRE_POINT)) || take_u16(&b, &ct_len))
		return ARA_WIRE_E_SHORT;
	/* An AEAD tag (16 bytes) and a secret of 1..ARA_WIRE_SECRET_MAX bytes. */
	if (ct_len <= 16 || ct_len > ARA_WIRE_SECRET_MAX + 16)
		return ARA_WIRE_E_FIELD;
	d->ct_len = ct_len;
	if (!(d->ct = take(&b, ct_len)))
		return ARA_WIRE_E_SHORT;
	d->sig = NULL;
	d->signed_len = (size_t)(b.p - msg);
	/* The flag's bits, msg[6..7], were checked by ara_wire_peek. */
	if ((msg[7] & ARA_WIRE_F_SIGNED) && !(d->sig = take(&b, ARA_WIRE_SIG)))
		return ARA_WIRE_E_SHORT;
	return close_body(&b);
}

int ara_wire_decode_refuse(const uint8_t *msg, size_t len, struct ara_wire_refuse *f)
{
	struct rd b;
	uint8_t text_len;
	int r = open_body(msg, len, ARA_WIRE_REFUSE, &b);

	if (r != ARA_WIRE_OK)
		return r;
	if (take_u16(&b, &f->code) || take_u8(&b, &text_len) || !(f->text = take(&b, text_len)))
		return ARA_WIRE_E_SHORT;
	if (text_len > ARA_WIRE_TEXT_MAX)
		return ARA_WIRE_E_FIELD;
	/* Printable ASCII only: whoever shows the text shows no control bytes. */
	for (size_t i = 0; i < text_len; i++)
		if (f->text[i] < 0x20 || f->text[i] > 0x7e)
			return ARA_WIRE_E_FIELD;
	f->text_len = text_len;
	return close_body(&b);
}

int ara_wire_encode_challenge(const uint8_t nonce[ARA_WIRE_NONCE], uint8_t *out, size_t cap,
			      size_t *written)
{
	struct wr w = { out, cap, 0, 0 };

	put_header(&w, ARA_WIRE_CHALLENGE, 0);
	put(&w, nonce, ARA_WIRE_NONCE);
	return finish(&w, written);
}

int ara_wire_encode_attest(struct ara_wire_attest *a, uint8_t *out, size_t cap, size_t *written)
{
	static const uint8_t reserved[3];
	struct wr w = { out, cap, 0, 0 };
	const struct ara_wire_digests *d = &a->digests;
	static const uint8_t no_sig[ARA_WIRE_SIG];

	if (!ara_wire_name_ok(a->name, a->name_len) || a->evidence_len == 0 ||
	    a->evidence_len > ARA_WIRE_EVIDENCE_MAX)
		return ARA_WIRE_E_FIELD;
	put_header(&w, ARA_WIRE_ATTEST, 0);
	put_u8(&w, a->backend);
	put(&w, reserved, sizeof(reserved));
	put_u64(&w, a->issued_at);
	put(&w, a->instance_pub, ARA_WIRE_POINT);
	put(&w, d->loader, 32);
	put(&w, d->manifest, 32);
	put(&w, d->libara, 32);
	put(&w, d->entry, 32);
	put(&w, d->app, 32);
	put(&w, a->share_pub, ARA_WIRE_POINT);
	put_u8(&w, (uint8_t)a->name_len);
	put(&w, a->name, a->name_len);
	put_u32(&w, (uint32_t)a->evidence_len);
	put(&w, a->evidence, a->evidence_len);
	a->signed_len = w.len;
	put(&w, no_sig, sizeof(no_sig));
	return finish(&w, written);
}

void ara_wire_set_sig(uint8_t *msg, size_t len, const uint8_t sig[ARA_WIRE_SIG])
{
	memcpy(msg + len - ARA_WIRE_SIG, sig, ARA_WIRE_SIG);
}

int ara_wire_encode_deliver(const uint8_t enc[ARA_WIRE_POINT], const uint8_t *ct, size_t ct_len,
			    int sign, uint8_t *out, size_t cap, size_t *written)
{
	static const uint8_t no_sig[ARA_WIRE_SIG];
	struct wr w = { out, cap, 0, 0 };

	if (ct_len <= 16 || ct_len > ARA_WIRE_SECRET_MAX + 16)
		return ARA_WIRE_E_FIELD;
	put_header(&w, ARA_WIRE_DELIVER, sign ? ARA_WIRE_F_SIGNED : 0);
	put(&w, enc, ARA_WIRE_POINT);
	put_u16(&w, (uint16_t)ct_len);
	put(&w, ct, ct_len);
	if (sign)
		put(&w, no_sig, sizeof(no_sig));
	return finish(&w, written);
}

int ara_wire_encode_refuse(uint16_t code, const char *text, uint8_t *out, size_t cap,
			   size_t *written)
{
	struct wr w = { out, cap, 0, 0 };
	size_t n = 0;

	while (text[n] && n < ARA_WIRE_TEXT_MAX)
		n++;
	put_header(&w, ARA_WIRE_REFUSE, 0);
	put_u16(&w, code);
	put_u8(&w, (uint8_t)n);
	/* What cannot be shown is sent as '?', as the decoder accepts only printable ASCII. */
	for (size_t i = 0; i < n; i++)
		put_u8(&w, (uint8_t)(text[i] >= 0x20 && text[i] <= 0x7e ? text[i] : '?'));
	return finish(&w, written);
}

/* A part of a REPORT: a 32-bit length, then that many bytes, at most max. */
static int take_part(struct rd *r, size_t max, const uint8_t **p, size_t *len)
{
	uint32_t n;

	if (take_u32(r, &n))
		return ARA_WIRE_E_SHORT;
	if (n > max)
		return ARA_WIRE_E_FIELD;
	*len = n;
	*p = take(r, n);
	return *p ? ARA_WIRE_OK : ARA_WIRE_E_SHORT;
}

int ara_wire_decode_report(const uint8_t *msg, size_t len, struct ara_wire_report *out)
{
	struct rd r;
	int e = open_body(msg, len, ARA_WIRE_REPORT, &r);

	if (e == ARA_WIRE_OK)
		e = take_part(&r, ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX, &out->attest, &out->attest_len);
	if (e == ARA_WIRE_OK)
		e = take_part(&r, ARA_WIRE_REPORT_DOC_MAX, &out->report, &out->report_len);
	if (e == ARA_WIRE_OK)
		e = take_part(&r, ARA_WIRE_REPORT_SEGMENTS_MAX, &out->segments, &out->segments_len);
	if (e == ARA_WIRE_OK && (out->attest_len == 0 || out->report_len == 0))
		e = ARA_WIRE_E_FIELD;
	return e == ARA_WIRE_OK ? close_body(&r) : e;
}

/* Printable ASCII only, as a REFUSE's text. */
static int printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return 0;
	return 1;
}

int ara_wire_decode_verdict(const uint8_t *msg, size_t len, struct ara_wire_verdict_msg *out)
{
	struct rd r;
	uint8_t zero;
	uint16_t n;
	int e = open_body(msg, len, ARA_WIRE_VERDICT, &r);

	if (e != ARA_WIRE_OK)
		return e;
	if (take_u8(&r, &out->verdict) || take_u8(&r, &zero) || take_u16(&r, &n) ||
	    !(out->text = take(&r, n)))
		return ARA_WIRE_E_SHORT;
	out->text_len = n;
	if (take_u16(&r, &n) || !(out->token = take(&r, n)))
		return ARA_WIRE_E_SHORT;
	out->token_len = n;
	if (out->verdict > ARA_WIRE_VERDICT_REJECTED || zero != 0 ||
	    out->text_len > ARA_WIRE_TEXT_MAX || out->token_len > ARA_WIRE_TOKEN_MAX ||
	    !printable(out->text, out->text_len) || !printable(out->token, out->token_len))
		return ARA_WIRE_E_FIELD;
	return close_body(&r);
}

int ara_wire_encode_report(const struct ara_wire_report *r, uint8_t *out, size_t cap,
			   size_t *written)
{
	struct wr w = { out, cap, 0, 0 };

	if (r->attest_len == 0 || r->attest_len > ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX ||
	    r->report_len == 0 || r->report_len > ARA_WIRE_REPORT_DOC_MAX ||
	    r->segments_len > ARA_WIRE_REPORT_SEGMENTS_MAX)
		return ARA_WIRE_E_FIELD;
	put_header(&w, ARA_WIRE_REPORT, 0);
	put_u32(&w, (uint32_t)r->attest_len);
	put(&w, r->attest, r->attest_len);
	put_u32(&w, (uint32_t)r->report_len);
	put(&w, r->report, r->report_len);
	put_u32(&w, (uint32_t)r->segments_len);
	if (r->segments_len) /* no segments may come as NULL */
		put(&w, r->segments, r->segments_len);
	return finish(&w, written);
}

int ara_wire_encode_verdict(uint8_t verdict, const char *text, const char *token, uint8_t *out,
			    size_t cap, size_t *written)
{
	struct wr w = { out, cap, 0, 0 };
	size_t n = 0, t = 0;

	while (text[n] && n < ARA_WIRE_TEXT_MAX)
		n++;
	while (token[t])
		t++;
	if (verdict > ARA_WIRE_VERDICT_REJECTED || t > ARA_WIRE_TOKEN_MAX ||
	    !printable((const uint8_t *)token, t))
		return ARA_WIRE_E_FIELD;
	put_header(&w, ARA_WIRE_VERDICT, 0);
	put_u8(&w, verdict);
	put_u8(&w, 0);
	put_u16(&w, (uint16_t)n);
	for (size_t i = 0; i < n; i++)
		put_u8(&w, (uint8_t)(text[i] >= 0x20 && text[i] <= 0x7e ? text[i] : '?'));
	put_u16(&w, (uint16_t)t);
	put(&w, token, t);
	return finish(&w, written);
}
