/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's gcm workload, and what a stream of either workload gives: a
 * stream in the RTS's chunk format
 * (services/rts/chunk_format.h, sealed with its own ara_rts_seal), made in
 * memory at start: pseudo-random clear text from a fixed seed (splitmix64),
 * so that every run of the study decrypts the same bytes, sealed in 64 KiB
 * chunks with AES-128-GCM under a fixed key. The nonce prefix is the
 * stream's size, so no two streams of one study share a nonce under the
 * one key. Each configuration checks each clear chunk it gets back against
 * the clear text (rts_chunk_check).
 */
#include <stdlib.h>
#include <string.h>

#include "rts_study.h"

#define SEED UINT64_C(0x5eed0a7a0c45e5d1)

const uint8_t rts_key[16] = { 0x6a, 0x0b, 0x3e, 0x91, 0x2c, 0xd4, 0x57, 0xf8,
			      0x10, 0x9e, 0x73, 0xc5, 0x2a, 0x68, 0xbf, 0x04 };
const uint8_t rts_key_id[ARA_RTS_KEY_ID_BYTES] = { 'a', 'r', 'a', '-', 'r', 't', 's',
						   '-', 's', 't', 'u', 'd', 'y' };

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void fill(uint8_t *p, size_t len)
{
	uint64_t x = SEED, v;

	for (; len >= sizeof(v); p += sizeof(v), len -= sizeof(v)) {
		v = splitmix64(&x);
		memcpy(p, &v, sizeof(v));
	}
	v = splitmix64(&x);
	memcpy(p, &v, len);
}

static size_t chunk_len(const struct rts_stream *s, uint32_t i)
{
	size_t at = (size_t)i * RTS_CHUNK;

	return s->size - at < RTS_CHUNK ? s->size - at : RTS_CHUNK;
}

static int seal(struct rts_stream *s, const struct ara_rts_header *h)
{
	mbedtls_gcm_context gcm;
	int rc = 0;

	mbedtls_gcm_init(&gcm);
	if (mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, rts_key, 8 * sizeof(rts_key)))
		rc = -1;
	for (uint32_t i = 0; i < s->chunks && !rc; i++)
		rc = ara_rts_seal(&gcm, h, i, rts_chunk_final(s, i), s->clear + (size_t)i * RTS_CHUNK,
				  chunk_len(s, i), s->sealed + (size_t)i * RTS_SEALED_MAX);
	mbedtls_gcm_free(&gcm);
	return rc;
}

int rts_stream_make(struct rts_stream *s, enum rts_workload w, size_t size,
		    const struct rts_cenc_media *media)
{
	struct ara_rts_header h = { .chunk_size = RTS_CHUNK };
	uint64_t prefix = size;

	if (w == RTS_CENC) {
		rts_cenc_stream(s, media, size);
		return 0;
	}
	*s = (struct rts_stream){ .size = size, .chunks = (uint32_t)((size + RTS_CHUNK - 1) / RTS_CHUNK) };
	memcpy(h.key_id, rts_key_id, sizeof(h.key_id));
	for (int i = ARA_RTS_PREFIX_BYTES - 1; i >= 0; i--, prefix >>= 8)
		h.prefix[i] = (uint8_t)prefix;
	ara_rts_header_encode(&h, s->header);
	s->clear = malloc(size);
	s->sealed = malloc((size_t)s->chunks * RTS_SEALED_MAX);
	if (!s->clear || !s->sealed) {
		fprintf(stderr, "rts_study: no memory for a %zu-byte stream\n", size);
		rts_stream_free(s);
		return -1;
	}
	fill(s->clear, size);
	if (seal(s, &h)) {
		fprintf(stderr, "rts_study: sealing the %zu-byte stream failed\n", size);
		rts_stream_free(s);
		return -1;
	}
	return 0;
}

void rts_stream_free(struct rts_stream *s)
{
	free(s->clear);
	free(s->sealed);
	s->clear = s->sealed = NULL;
}

const char *rts_workload_name(enum rts_workload w)
{
	return w == RTS_CENC ? "cenc" : "gcm";
}

const uint8_t *rts_unit(const struct rts_stream *s, uint32_t i, size_t *len)
{
	if (s->workload == RTS_CENC)
		return rts_cenc_unit(s, i, len);
	*len = chunk_len(s, i) + ARA_RTS_TAG_BYTES;
	return s->sealed + (size_t)i * RTS_SEALED_MAX;
}

size_t rts_unit_clear_len(const struct rts_stream *s, uint32_t i)
{
	return s->workload == RTS_CENC ? rts_cenc_clear_len(s, i) : chunk_len(s, i);
}

int rts_chunk_check(const struct rts_stream *s, const char *config, uint32_t i,
		    const uint8_t *clear, size_t len)
{
	if (s->workload == RTS_CENC)
		return rts_cenc_check(s, config, i, clear, len);
	if (len == chunk_len(s, i) && !memcmp(clear, s->clear + (size_t)i * RTS_CHUNK, len))
		return 0;
	fprintf(stderr, "rts_study: %s: chunk %u of the %zu-byte stream is not the clear text "
		"it was sealed from\n", config, i, s->size);
	return -1;
}
