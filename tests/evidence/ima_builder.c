/* SPDX-License-Identifier: Apache-2.0 */
/* Test logs of the ima-ng template, replayed as they are built (ima_builder.h). */
#include "ima_builder.h"

#include <mbedtls/sha256.h>

#include <stdlib.h>
#include <string.h>

int imab_init(struct ima_builder *b)
{
	memset(b, 0, sizeof(*b));
	b->buf = malloc(IMAB_MAX);
	return b->buf ? 0 : -1;
}

void imab_free(struct ima_builder *b)
{
	free(b->buf);
	b->buf = NULL;
}

void imab_u32(uint8_t out[4], uint32_t v)
{
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
}

int imab_raw(struct ima_builder *b, const void *p, size_t n)
{
	if (n > IMAB_MAX - b->len)
		return -1;
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	return 0;
}

static int raw_u32(struct ima_builder *b, uint32_t v)
{
	uint8_t le[4];

	imab_u32(le, v);
	return imab_raw(b, le, sizeof(le));
}

int imab_add(struct ima_builder *b, uint32_t pcr, const char *algo, const uint8_t *digest,
	     size_t digest_len, const char *name, bool violation, uint8_t extend[32])
{
	uint8_t data[4 + 16 + 64 + 4 + 4096], ext[32], chain[64], tdigest[20];
	size_t algo_len = strlen(algo), name_len = strlen(name) + 1, n = 0;

	if (algo_len > 14 || digest_len > 64 || name_len > 4096 || pcr >= IMAB_PCRS ||
	    b->entries >= sizeof(b->ends) / sizeof(b->ends[0]))
		return -1;
	/* The template data: d-ng then n-ng, each with its u32 length. */
	imab_u32(data + n, (uint32_t)(algo_len + 2 + digest_len));
	n += 4;
	memcpy(data + n, algo, algo_len);
	n += algo_len;
	data[n++] = ':';
	data[n++] = '\0';
	memcpy(data + n, digest, digest_len);
	n += digest_len;
	imab_u32(data + n, (uint32_t)name_len);
	n += 4;
	memcpy(data + n, name, name_len);
	n += name_len;

	if (violation) {
		memset(ext, 0xff, sizeof(ext));
		memset(tdigest, 0, sizeof(tdigest));
	} else {
		mbedtls_sha256(data, n, ext, 0);
		memcpy(tdigest, ext, sizeof(tdigest));
		tdigest[0] |= 1; /* never all zero */
	}
	if (raw_u32(b, pcr) || imab_raw(b, tdigest, sizeof(tdigest)) || raw_u32(b, 6) ||
	    imab_raw(b, "ima-ng", 6) || raw_u32(b, (uint32_t)n) || imab_raw(b, data, n))
		return -1;
	memcpy(chain, b->pcr[pcr], 32);
	memcpy(chain + 32, ext, 32);
	mbedtls_sha256(chain, sizeof(chain), b->pcr[pcr], 0);
	b->extends[pcr]++;
	b->ends[b->entries++] = b->len;
	if (extend)
		memcpy(extend, ext, 32);
	return 0;
}
