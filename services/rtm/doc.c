/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's signed documents (services/rtm/rtm_format.h), written in DOM0
 * from DOM0 state only: the counts and chain under the RTM lock, the code
 * modules as they were at initialisation (modules.c) and whether the live
 * ones still match, the signature by the instance key, which provisioning
 * makes over the digest (provision_calls.h: the key never leaves it). The
 * bytes are hashed as they are written, so what the App receives
 * is exactly what was signed; what it does with its copy afterwards the
 * signature tells.
 */
#include "ara/rtm.h"
#include "ara/service.h"
#include "provision_calls.h"
#include "rtm_state.h"

#include <mbedtls/sha256.h>

struct writer {
	mbedtls_sha256_context sha;
	struct ara_rtm_sink *out;
	enum ara_status st;
};

/* Appends n bytes to the document. */
static void emit(struct writer *w, const void *p, uint32_t n)
{
	struct ara_rtm_sink *o = w->out;

	if (w->st != ARA_OK)
		return;
	if (o->len > o->cap || n > o->cap - o->len) {
		w->st = ARA_E_INVAL;
		return;
	}
	if (o->buf)
		memcpy(o->buf + o->len, p, n);
	else
		w->st = ara_copy_to_app(o->app + o->len, p, n);
	o->len += n;
}

/* Appends n bytes that the signature covers. */
static void put(struct writer *w, const void *p, uint32_t n)
{
	if (w->st == ARA_OK && mbedtls_sha256_update(&w->sha, p, n))
		w->st = ARA_E_INTERNAL;
	emit(w, p, n);
}

static void put_u64(uint8_t *at, uint64_t v)
{
	memcpy(at, &v, sizeof(v)); /* little-endian, as the format says */
}

static void put_header(struct writer *w, const struct ara_rtm *r, const uint8_t pub[ARA_RTM_PUB_BYTES],
		       uint32_t kind, uint8_t flags, uint32_t modules,
		       const uint8_t nonce[ARA_RTM_NONCE_BYTES], uint32_t pending)
{
	uint8_t h[ARA_RTM_HEADER_BYTES] = { 0 };

	memcpy(h, ARA_RTM_MAGIC, 8);
	memcpy(h + ARA_RTM_OFF_KIND, &kind, 4);
	memcpy(h + ARA_RTM_OFF_MODULES, &modules, 4);
	memcpy(h + ARA_RTM_OFF_NONCE, nonce, ARA_RTM_NONCE_BYTES);
	memcpy(h + ARA_RTM_OFF_RUN_ID, r->run_id, ARA_RTM_HASH_BYTES);
	memcpy(h + ARA_RTM_OFF_CHAIN, r->chain, ARA_RTM_HASH_BYTES);
	put_u64(h + ARA_RTM_OFF_SEQUENCE, r->sequence);
	put_u64(h + ARA_RTM_OFF_ENTRIES, r->sealed * ARA_RTM_SEGMENT_ENTRIES + pending);
	put_u64(h + ARA_RTM_OFF_SEALED, r->sealed);
	put_u64(h + ARA_RTM_OFF_DROPPED, 0); /* nothing is dropped (log.c) */
	put_u64(h + ARA_RTM_OFF_REFUSED, r->refused);
	memcpy(h + ARA_RTM_OFF_APP, ara_measured()->app_sha256, ARA_RTM_HASH_BYTES);
	memcpy(h + ARA_RTM_OFF_PUB, pub, ARA_RTM_PUB_BYTES);
	h[ARA_RTM_OFF_FLAGS] = flags;
	memcpy(h + ARA_RTM_OFF_PENDING, &pending, 4);
	put(w, h, sizeof(h));
}

static void put_module(struct writer *w, const struct ara_rtm_module *m)
{
	uint8_t fixed[ARA_RTM_MODULE_FIXED_BYTES] = { 0 };
	uint32_t padded = (m->path_len + 7u) & ~7u; /* path[] is zeroed past path_len */

	put_u64(fixed, m->start);
	put_u64(fixed + 8, m->end);
	put_u64(fixed + 16, m->offset);
	memcpy(fixed + 24, &m->path_len, 4);
	put(w, fixed, sizeof(fixed));
	put(w, m->path, padded);
}

enum ara_status ara_rtm_write_doc(struct ara_rtm *r, uint32_t kind, int final, uint32_t pending,
				  const uint8_t nonce[ARA_RTM_NONCE_BYTES], struct ara_rtm_sink *out)
{
	struct ara_provision_instance_arg in;
	struct ara_provision_sign_arg sign;
	uint32_t count;
	const struct ara_rtm_module *modules = ara_rtm_modules(&count);
	struct writer w = { .out = out, .st = ARA_OK };
	uint8_t flags = final && kind == ARA_RTM_DOC_REPORT ? ARA_RTM_DOC_FINAL : 0;
	int changed;

	_Static_assert(sizeof(in.pub) == ARA_RTM_PUB_BYTES && sizeof(sign.sig) == ARA_RTM_SIG_BYTES &&
			       sizeof(sign.digest) == ARA_RTM_HASH_BYTES,
		       "rtm_format.h: provisioning's key and signature");
	if (ara_service_call(ARA_FID_PROVISION_INSTANCE, &in) != ARA_OK)
		return ARA_E_NO_EVIDENCE;
	if (!modules)
		return ARA_E_NOTSUP;
	if (ara_rtm_modules_changed(&changed))
		return ARA_E_NOMEM;
	if (changed)
		flags |= ARA_RTM_DOC_MODULES_CHANGED;
	r->sequence++; /* a number is never reused, even by a document that failed */
	out->len = 0;
	mbedtls_sha256_init(&w.sha);
	if (mbedtls_sha256_starts(&w.sha, 0) ||
	    mbedtls_sha256_update(&w.sha, (const uint8_t *)ARA_RTM_SIGN_LABEL, ARA_RTM_SIGN_LABEL_BYTES))
		w.st = ARA_E_INTERNAL;
	put_header(&w, r, in.pub, kind, flags, count, nonce, pending);
	for (uint32_t i = 0; i < count; i++)
		put_module(&w, &modules[i]);
	put(&w, r->seg[r->active].slot, pending * ARA_RTM_ENTRY_BYTES);
	if (w.st == ARA_OK && (mbedtls_sha256_finish(&w.sha, sign.digest) ||
			       ara_service_call(ARA_FID_PROVISION_SIGN, &sign) != ARA_OK))
		w.st = ARA_E_INTERNAL;
	mbedtls_sha256_free(&w.sha);
	emit(&w, sign.sig, sizeof(sign.sig));
	ara_memzero(&sign, sizeof(sign));
	return w.st;
}
