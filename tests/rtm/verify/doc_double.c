/* SPDX-License-Identifier: Apache-2.0 */
/* TEST DOUBLE of DOM0's RTM document writer (doc_double.h). */
#include "doc_double.h"

#include <mbedtls/sha256.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "hpke.h"
#include "p256.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int doc_double_encode(const struct ara_rtm_doc *d, uint8_t *out, size_t cap, size_t *len)
{
	size_t off = ARA_RTM_HEADER_BYTES, need = off;

	for (uint32_t i = 0; i < d->module_count; i++)
		need += ARA_RTM_MODULE_FIXED_BYTES + ((d->modules[i].path_len + 7u) & ~7u);
	need += (size_t)d->pending_count * ARA_RTM_ENTRY_BYTES + ARA_RTM_SIG_BYTES;
	if (need > cap)
		return -1;
	memset(out, 0, need);
	memcpy(out, ARA_RTM_MAGIC, 8);
	put32(out + ARA_RTM_OFF_KIND, d->kind);
	put32(out + ARA_RTM_OFF_MODULES, d->module_count);
	memcpy(out + ARA_RTM_OFF_NONCE, d->nonce, ARA_RTM_NONCE_BYTES);
	memcpy(out + ARA_RTM_OFF_RUN_ID, d->run_id, ARA_RTM_HASH_BYTES);
	memcpy(out + ARA_RTM_OFF_CHAIN, d->chain, ARA_RTM_HASH_BYTES);
	put64(out + ARA_RTM_OFF_SEQUENCE, d->sequence);
	put64(out + ARA_RTM_OFF_ENTRIES, d->entries);
	put64(out + ARA_RTM_OFF_SEALED, d->sealed);
	put64(out + ARA_RTM_OFF_DROPPED, d->dropped);
	put64(out + ARA_RTM_OFF_REFUSED, d->refused);
	memcpy(out + ARA_RTM_OFF_APP, d->app_sha256, ARA_RTM_HASH_BYTES);
	memcpy(out + ARA_RTM_OFF_PUB, d->instance_pub, ARA_RTM_PUB_BYTES);
	out[ARA_RTM_OFF_FLAGS] = d->flags;
	put32(out + ARA_RTM_OFF_PENDING, d->pending_count);
	for (uint32_t i = 0; i < d->module_count; i++) {
		const struct ara_rtm_module *m = &d->modules[i];

		put64(out + off, m->start);
		put64(out + off + 8, m->end);
		put64(out + off + 16, m->offset);
		put32(out + off + 24, m->path_len);
		memcpy(out + off + ARA_RTM_MODULE_FIXED_BYTES, m->path, m->path_len);
		off += ARA_RTM_MODULE_FIXED_BYTES + ((m->path_len + 7u) & ~7u);
	}
	if (d->pending_count > 0)
		memcpy(out + off, d->pending, (size_t)d->pending_count * ARA_RTM_ENTRY_BYTES);
	off += (size_t)d->pending_count * ARA_RTM_ENTRY_BYTES;
	memcpy(out + off, d->sig, ARA_RTM_SIG_BYTES);
	*len = need;
	return 0;
}

void doc_double_key(uint8_t sk[32], uint8_t pub[ARA_RTM_PUB_BYTES])
{
	uint8_t ikm[32];

	memset(ikm, 0x5a, sizeof(ikm));
	if (ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, pub))
		abort();
}

void doc_double_sign(uint8_t *doc, size_t len)
{
	uint8_t sk[32], pub[ARA_RTM_PUB_BYTES], digest[32], hash[32];
	size_t body = len - ARA_RTM_SIG_BYTES;
	mbedtls_sha256_context c;

	doc_double_key(sk, pub);
	mbedtls_sha256_init(&c);
	if (mbedtls_sha256_starts(&c, 0) ||
	    mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_SIGN_LABEL,
				  ARA_RTM_SIGN_LABEL_BYTES) ||
	    mbedtls_sha256_update(&c, doc, body) || mbedtls_sha256_finish(&c, digest) ||
	    ara_provision_module_hash(digest, hash) || ara_p256_sign(sk, hash, doc + body))
		abort();
	mbedtls_sha256_free(&c);
}
