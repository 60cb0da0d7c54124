/* SPDX-License-Identifier: Apache-2.0 */
/* The RTS's sealed chunk stream (chunk_format.h). */
#include <string.h>

#include "chunk_format.h"

#include "ara/bytes.h"
#include "ara/hex.h"

#define LABEL "ARA-RTS-CHUNK-v1"
/* label and NUL, key ID, prefix, index (u64), length (u32), final (u8) */
#define AD_BYTES (sizeof(LABEL) + ARA_RTS_KEY_ID_BYTES + ARA_RTS_PREFIX_BYTES + 8u + 4u + 1u)

static const uint8_t magic[8] = { 'A', 'R', 'A', 'S', 1, 0, 0, 0 };

int ara_rts_header_decode(const uint8_t *p, size_t len, struct ara_rts_header *h)
{
	if (len != ARA_RTS_HEADER_BYTES || memcmp(p, magic, sizeof(magic)) != 0)
		return -1;
	memcpy(h->key_id, p + 8, ARA_RTS_KEY_ID_BYTES);
	memcpy(h->prefix, p + 24, ARA_RTS_PREFIX_BYTES);
	h->chunk_size = ara_get_be32(p + 32);
	return h->chunk_size == 0 || h->chunk_size > ARA_RTS_CHUNK_MAX ? -1 : 0;
}

void ara_rts_header_encode(const struct ara_rts_header *h, uint8_t out[ARA_RTS_HEADER_BYTES])
{
	memcpy(out, magic, sizeof(magic));
	memcpy(out + 8, h->key_id, ARA_RTS_KEY_ID_BYTES);
	memcpy(out + 24, h->prefix, ARA_RTS_PREFIX_BYTES);
	ara_put_be32(out + 32, h->chunk_size);
}

/* The nonce and associated data of one chunk. */
static void chunk_params(const struct ara_rts_header *h, uint32_t index, int final, size_t len,
			 uint8_t nonce[12], uint8_t ad[AD_BYTES])
{
	size_t at = 0;

	memcpy(nonce, h->prefix, ARA_RTS_PREFIX_BYTES);
	ara_put_be32(nonce + ARA_RTS_PREFIX_BYTES, index);
	memcpy(ad, LABEL, sizeof(LABEL));
	at += sizeof(LABEL);
	memcpy(ad + at, h->key_id, ARA_RTS_KEY_ID_BYTES);
	at += ARA_RTS_KEY_ID_BYTES;
	memcpy(ad + at, h->prefix, ARA_RTS_PREFIX_BYTES);
	at += ARA_RTS_PREFIX_BYTES;
	ara_put_be64(ad + at, index);
	at += 8;
	ara_put_be32(ad + at, (uint32_t)len); /* at most ARA_RTS_CHUNK_MAX */
	at += 4;
	ad[at] = final ? 1 : 0;
}

int ara_rts_seal(mbedtls_gcm_context *gcm, const struct ara_rts_header *h, uint32_t index,
		 int final, const uint8_t *pt, size_t len, uint8_t *out)
{
	uint8_t nonce[12], ad[AD_BYTES];

	if (len == 0 || len > h->chunk_size)
		return -1;
	chunk_params(h, index, final, len, nonce, ad);
	return mbedtls_gcm_crypt_and_tag(gcm, MBEDTLS_GCM_ENCRYPT, len, nonce, sizeof(nonce), ad,
					 sizeof(ad), pt, out, ARA_RTS_TAG_BYTES, out + len)
		       ? -1
		       : 0;
}

int ara_rts_open(mbedtls_gcm_context *gcm, const struct ara_rts_header *h, uint32_t index,
		 int final, const uint8_t *in, size_t in_len, uint8_t *pt)
{
	uint8_t nonce[12], ad[AD_BYTES];
	size_t len = in_len - ARA_RTS_TAG_BYTES;

	if (in_len <= ARA_RTS_TAG_BYTES || len > h->chunk_size)
		return -1;
	/* A chunk before the last is always whole. */
	if (!final && len != h->chunk_size)
		return -1;
	chunk_params(h, index, final, len, nonce, ad);
	if (mbedtls_gcm_auth_decrypt(gcm, len, nonce, sizeof(nonce), ad, sizeof(ad), in + len,
				     ARA_RTS_TAG_BYTES, in, pt)) {
		memset(pt, 0, len);
		return -1;
	}
	return 0;
}

void ara_rts_key_name(const uint8_t key_id[ARA_RTS_KEY_ID_BYTES],
		      char out[ARA_RTS_KEY_NAME_BYTES])
{
	memcpy(out, "kid-", 4);
	ara_hex_write(key_id, ARA_RTS_KEY_ID_BYTES, out + 4);
}
