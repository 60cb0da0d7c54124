/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's cenc workload: the samples of a real fragmented MP4 (H.264
 * video and AAC audio, 1-second fragments, made at build time by the
 * build machine's FFmpeg: make_rts_media.sh), encrypted at start in
 * memory with Common Encryption's 'cenc' scheme (AES-128-CTR) as FFmpeg's
 * own CENC muxer lays it out: in each video sample every NAL unit's length
 * and header byte are clear and the rest is protected (one subsample per
 * NAL unit), an audio sample is protected whole, one 8-byte IV per sample.
 * FFmpeg 5.1 (Debian 12) cannot write CENC into a fragmented MP4 (its
 * fragments get no 'senc'), hence the encryption here; it gathers a
 * sample's protected bytes and runs one keystream over them, not the
 * subsample-by-subsample code under test (cenc_sample.c), and the
 * interoperability of that code with FFmpeg's CENC is the provision_cenc
 * test's. The clear media are the file's own samples: every decrypted
 * sample is compared with them. A stream of some size is the samples in
 * file order, looped, until they hold at least that many bytes.
 *
 * A sample goes to the decryption component as one record, the sample's
 * counterpart of a sealed chunk: the encrypted sample, zero-padded to a
 * multiple of 4 bytes, its subsample map, its IV (16 bytes, iv_len used),
 * and sample length, iv_len and map entries (3 x 32 bits, host order);
 * records are 16-byte aligned, and at most RTS_SEALED_MAX bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cenc_sample.h"
#include "rts_study.h"

#define NAL_LENGTH 4 /* FFmpeg's avcC: 4-byte NAL unit lengths */
#define TAIL (16u + 3u * 4u)
#define IV_BASE UINT64_C(0x1f2e3d4c00000000)

const uint8_t rts_cenc_key[16] = { 0xc3, 0x5e, 0x07, 0x9a, 0x41, 0xb2, 0x6d, 0x18,
				   0xe9, 0x20, 0x8f, 0x74, 0x3b, 0xd6, 0x05, 0xaa };
const uint8_t rts_cenc_key_id[16] = { 'a', 'r', 'a', '-', 'r', 't', 's', '-',
				      'c', 'e', 'n', 'c' };
const char *rts_wrong_key_config;

struct unit {
	size_t clear_at; /* the clear sample, in the file */
	size_t rec_at;	 /* its record, in records */
	uint32_t len, rec_len;
};

struct rts_cenc_media {
	uint8_t *file, *records;
	struct unit *u;
	uint32_t n, fragments, subsampled;
	size_t bytes;
};

static size_t pad(size_t len, size_t to)
{
	return (len + to - 1) / to * to;
}

const uint8_t *rts_cenc_key_held(const char *config)
{
	static uint8_t wrong[16];

	if (!rts_wrong_key_config || strcmp(config, rts_wrong_key_config))
		return rts_cenc_key;
	memcpy(wrong, rts_cenc_key, sizeof(wrong));
	wrong[15] ^= 1;
	return wrong;
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf = NULL;
	FILE *f;

	errno = 0; /* a short read or an empty file sets none */
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) || st.st_size <= 0 ||
	    !(buf = malloc((size_t)st.st_size)) ||
	    fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "rts_study: cenc media %s: %s (make_rts_media.sh makes it)\n", path,
			errno ? strerror(errno) : "cannot be read");
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	*len = buf ? (size_t)st.st_size : 0;
	return buf;
}

/* A video sample's map: one subsample per NAL unit (FFmpeg's layout); -1 if they do not tile it. */
static int video_map(const uint8_t *p, uint32_t len, struct ara_cenc_subsample *map, uint32_t *count)
{
	uint32_t at = 0, n = 0;

	while (at < len) {
		uint32_t nal;

		if (len - at < NAL_LENGTH + 1 || n == ARA_RTS_CENC_SUBSAMPLES_MAX)
			return -1;
		nal = (uint32_t)p[at] << 24 | (uint32_t)p[at + 1] << 16 | (uint32_t)p[at + 2] << 8 |
		      p[at + 3];
		if (nal == 0 || nal > len - at - NAL_LENGTH)
			return -1;
		map[n++] = (struct ara_cenc_subsample){ NAL_LENGTH + 1, nal - 1 };
		at += NAL_LENGTH + nal;
	}
	*count = n;
	return 0;
}

/* Encrypts a record's sample: its protected bytes gathered, one keystream, scattered back. */
static int encrypt(mbedtls_aes_context *aes, uint8_t *rec, uint32_t len,
		   const struct ara_cenc_subsample *map, uint32_t count, const uint8_t iv[8],
		   uint8_t *scratch)
{
	uint8_t counter[16] = { 0 }, block[16];
	size_t off = 0, n = 0, at = 0;
	int r;

	memcpy(counter, iv, 8);
	if (count == 0)
		return mbedtls_aes_crypt_ctr(aes, len, &off, counter, block, rec, rec) ? -1 : 0;
	for (uint32_t i = 0; i < count; at += map[i].protected_bytes, i++) {
		at += map[i].clear_bytes;
		memcpy(scratch + n, rec + at, map[i].protected_bytes);
		n += map[i].protected_bytes;
	}
	r = mbedtls_aes_crypt_ctr(aes, n, &off, counter, block, scratch, scratch) ? -1 : 0;
	n = at = 0;
	for (uint32_t i = 0; i < count; at += map[i].protected_bytes, i++) {
		at += map[i].clear_bytes;
		memcpy(rec + at, scratch + n, map[i].protected_bytes);
		n += map[i].protected_bytes;
	}
	return r;
}

/* Sample i's record: its map (made here), then the sample encrypted and the tail. */
static int make_record(struct rts_cenc_media *m, uint32_t i, int video, mbedtls_aes_context *aes,
		       uint8_t *scratch)
{
	struct unit *u = &m->u[i];
	uint8_t *rec = m->records + u->rec_at;
	struct ara_cenc_subsample *map = (struct ara_cenc_subsample *)(rec + pad(u->len, 4));
	uint32_t count = 0, tail[3];
	uint64_t iv = IV_BASE + i;
	uint8_t *ivp;

	if (video && video_map(m->file + u->clear_at, u->len, map, &count))
		return -1;
	u->rec_len = (uint32_t)(pad(u->len, 4) + count * sizeof(*map) + TAIL);
	if (u->rec_len > RTS_SEALED_MAX || ara_cenc_map_check(map, count, u->len))
		return -1;
	m->subsampled += count != 0;
	ivp = rec + u->rec_len - TAIL;
	memset(ivp, 0, 16);
	for (int b = 7; b >= 0; b--, iv >>= 8)
		ivp[b] = (uint8_t)iv;
	memcpy(rec, m->file + u->clear_at, u->len);
	tail[0] = u->len;
	tail[1] = 8;
	tail[2] = count;
	memcpy(rec + u->rec_len - sizeof(tail), tail, sizeof(tail));
	return encrypt(aes, rec, u->len, map, count, ivp, scratch);
}

static int encrypt_all(struct rts_cenc_media *m, const struct rts_fmp4_sample *s, const char *path)
{
	static uint8_t scratch[RTS_SEALED_MAX];
	mbedtls_aes_context aes;
	size_t at = 0;
	uint32_t i;
	int rc = 0;

	for (i = 0; i < m->n; i++) {
		if (s[i].len > RTS_CHUNK)
			break;
		m->u[i] = (struct unit){ .clear_at = s[i].at, .rec_at = at, .len = s[i].len };
		m->bytes += s[i].len;
		/* The largest record this sample can make: every NAL unit a subsample. */
		at += pad(pad(s[i].len, 4) + s[i].len / (NAL_LENGTH + 1) * 8 + TAIL, 16);
	}
	if (i < m->n || !(m->records = calloc(1, at))) {
		fprintf(stderr, "rts_study: cenc media %s: %s\n", path,
			i < m->n ? "a sample over 64 KiB" : "no memory for the records");
		return -1;
	}
	mbedtls_aes_init(&aes);
	rc = mbedtls_aes_setkey_enc(&aes, rts_cenc_key, 128) ? -1 : 0;
	for (i = 0; i < m->n && !rc; i++)
		if (make_record(m, i, s[i].video, &aes, scratch)) {
			fprintf(stderr, "rts_study: cenc media %s: sample %u (%u bytes) is not H.264 "
				"with 4-byte NAL lengths, or its record is over %u bytes\n",
				path, i, m->u[i].len, RTS_SEALED_MAX);
			rc = -1;
		}
	mbedtls_aes_free(&aes);
	return rc;
}

struct rts_cenc_media *rts_cenc_media_load(const char *path)
{
	struct rts_cenc_media *m = calloc(1, sizeof(*m));
	struct rts_fmp4_sample *s = NULL;
	size_t len;

	if (!m || !(m->file = read_whole(path, &len)) ||
	    rts_fmp4_samples(path, m->file, len, &s, &m->n, &m->fragments) ||
	    !(m->u = calloc(m->n, sizeof(*m->u))) || encrypt_all(m, s, path)) {
		free(s);
		rts_cenc_media_free(m);
		return NULL;
	}
	free(s);
	fprintf(stderr, "rts_study: cenc media %s: %u fragments, %u samples (%u with a subsample "
		"map), %zu bytes of samples\n", path, m->fragments, m->n, m->subsampled, m->bytes);
	return m;
}

void rts_cenc_media_free(struct rts_cenc_media *m)
{
	if (!m)
		return;
	free(m->file);
	free(m->records);
	free(m->u);
	free(m);
}

void rts_cenc_stream(struct rts_stream *s, const struct rts_cenc_media *m, size_t size)
{
	*s = (struct rts_stream){ .workload = RTS_CENC, .media = m };
	while (s->size < size)
		s->size += m->u[s->chunks++ % m->n].len;
}

const uint8_t *rts_cenc_unit(const struct rts_stream *s, uint32_t i, size_t *len)
{
	const struct unit *u = &s->media->u[i % s->media->n];

	*len = u->rec_len;
	return s->media->records + u->rec_at;
}

size_t rts_cenc_clear_len(const struct rts_stream *s, uint32_t i)
{
	return s->media->u[i % s->media->n].len;
}

int rts_cenc_check(const struct rts_stream *s, const char *config, uint32_t i,
		   const uint8_t *clear, size_t len)
{
	const struct unit *u = &s->media->u[i % s->media->n];

	if (len == u->len && !memcmp(clear, s->media->file + u->clear_at, len))
		return 0;
	fprintf(stderr, "rts_study: %s: sample %u of the %zu-byte cenc stream is not the clear "
		"sample of the media\n", config, i, s->size);
	return -1;
}

int rts_cenc_record(const uint8_t *in, size_t in_len, struct rts_cenc_record *r)
{
	uint32_t tail[3];

	if (in_len < TAIL || in_len > RTS_SEALED_MAX)
		return -1;
	memcpy(tail, in + in_len - sizeof(tail), sizeof(tail));
	*r = (struct rts_cenc_record){ .sample = in, .len = tail[0], .iv_len = tail[1],
				       .count = tail[2], .iv = in + in_len - TAIL };
	if (r->len == 0 || r->len > RTS_CHUNK || r->count > ARA_RTS_CENC_SUBSAMPLES_MAX ||
	    pad(r->len, 4) + (size_t)r->count * sizeof(*r->map) + TAIL != in_len)
		return -1;
	r->map = (const struct ara_cenc_subsample *)(in + pad(r->len, 4));
	return 0;
}

int rts_cenc_decryptor_init(mbedtls_aes_context *aes, const char *config)
{
	mbedtls_aes_init(aes);
	if (!mbedtls_aes_setkey_enc(aes, rts_cenc_key_held(config), 128))
		return 0;
	fprintf(stderr, "rts_study: %s: mbedtls_aes_setkey_enc failed\n", config);
	mbedtls_aes_free(aes);
	return -1;
}

int rts_cenc_open(mbedtls_aes_context *aes, const char *config, uint32_t i, const uint8_t *in,
		  size_t in_len, uint8_t *out, size_t *out_len)
{
	struct rts_cenc_record r;

	*out_len = 0;
	if (!rts_cenc_record(in, in_len, &r) &&
	    !ara_cenc_map_check(r.map, r.count, r.len)) {
		/* CTR decrypts in place: the record's sample first, unless it is there already. */
		if (out != in)
			memcpy(out, in, r.len);
		*out_len = r.len;
		if (!ara_cenc_decrypt(aes, r.iv, r.iv_len, r.map, r.count, out, r.len))
			return 0;
	}
	fprintf(stderr, "rts_study: %s: sample %u (a %zu-byte record) does not decrypt\n", config, i,
		in_len);
	return -1;
}
