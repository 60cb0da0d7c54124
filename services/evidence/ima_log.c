/* SPDX-License-Identifier: Apache-2.0 */
/* The IMA binary log parser and SHA-256 PCR replay (ima_log.h). */
#include "ima_log.h"

#include "ara/bytes.h"

#include <mbedtls/sha256.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* PC Client TPMs have 24 PCRs; a log naming another one is not from IMA. */
#define PCR_COUNT 24u

/* Longer than any name the kernel's hash_algo_name[] holds. */
#define ALGO_NAME_MAX 15u

static const char template_ima_ng[] = "ima-ng";
static const char boot_aggregate[] = "boot_aggregate";

/* The algorithms a d-ng prefix may name (the kernel's hash_algo_name[]),
 * with their digest sizes. boot_aggregate takes the TPM bank the kernel
 * chose, which may be SHA-1 on an older TPM. */
static const struct {
	const char *name;
	uint32_t size;
} algos[] = {
	{ "sha1", 20 },
	{ "sha256", 32 },
	{ "sha384", 48 },
	{ "sha512", 64 },
};

void ara_ima_iter_init(struct ara_ima_iter *it, const uint8_t *log, size_t len)
{
	memset(it, 0, sizeof(*it));
	it->log = log;
	it->len = len;
}

__attribute__((format(printf, 2, 3))) static int fail(struct ara_ima_iter *it, const char *fmt,
						       ...)
{
	int n = snprintf(it->why, sizeof(it->why), "entry %u at offset %zu: ", it->index, it->off);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(it->why))
		vsnprintf(it->why + n, sizeof(it->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A u32 at *at of the len bytes at p, advancing *at; -1 if it is not there. */
static int take_u32(const uint8_t *p, size_t len, size_t *at, uint32_t *v)
{
	if (len - *at < 4)
		return -1;
	*v = ara_get_le32(p + *at);
	*at += 4;
	return 0;
}

/* d-ng: "<algo>:" NUL digest, the digest's size fixed by the algorithm.
 * The colon is looked for only where an algorithm name can end, never in
 * the digest's bytes. */
static int parse_dng(struct ara_ima_iter *it, const uint8_t *f, uint32_t len,
		     struct ara_ima_entry *e)
{
	const uint8_t *colon = memchr(f, ':', len < ALGO_NAME_MAX + 1 ? len : ALGO_NAME_MAX + 1);
	size_t i, algo_len;

	if (!colon)
		return fail(it, "d-ng field has no algorithm prefix");
	algo_len = (size_t)(colon - f);
	if (algo_len + 2 > len || colon[1] != '\0')
		return fail(it, "d-ng algorithm prefix is not followed by NUL");
	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
		if (strlen(algos[i].name) == algo_len && memcmp(algos[i].name, f, algo_len) == 0)
			break;
	}
	if (i == sizeof(algos) / sizeof(algos[0]))
		return fail(it, "d-ng algorithm is not one of sha1, sha256, sha384, sha512");
	if (len - (algo_len + 2) != algos[i].size)
		return fail(it, "d-ng digest is %zu bytes, %s needs %u", len - (algo_len + 2),
			    algos[i].name, algos[i].size);
	e->algo = algos[i].name;
	e->digest = f + algo_len + 2;
	e->digest_len = algos[i].size;
	return 0;
}

/* n-ng: the file name, one NUL at its end and none before. */
static int parse_nng(struct ara_ima_iter *it, const uint8_t *f, uint32_t len,
		     struct ara_ima_entry *e)
{
	if (len == 0)
		return fail(it, "n-ng field is empty (no NUL)");
	if (f[len - 1] != '\0')
		return fail(it, "n-ng file name is not NUL-terminated");
	if (memchr(f, '\0', len - 1))
		return fail(it, "n-ng file name has a NUL inside");
	e->name = (const char *)f;
	e->name_len = len - 1;
	return 0;
}

/* The ima-ng template data: d-ng then n-ng, filling it exactly. */
static int parse_ima_ng(struct ara_ima_iter *it, const uint8_t *d, uint32_t len,
			struct ara_ima_entry *e)
{
	size_t at = 0;
	uint32_t flen;

	if (take_u32(d, len, &at, &flen))
		return fail(it, "template data ends before the d-ng length");
	if (flen > ARA_IMA_DNG_MAX)
		return fail(it, "d-ng length %u exceeds %u", flen, ARA_IMA_DNG_MAX);
	if (flen > len - at)
		return fail(it, "d-ng length %u overruns the template data", flen);
	if (parse_dng(it, d + at, flen, e))
		return -1;
	at += flen;
	if (take_u32(d, len, &at, &flen))
		return fail(it, "template data ends before the n-ng length");
	if (flen > ARA_IMA_FILE_NAME_MAX)
		return fail(it, "n-ng length %u exceeds %u", flen, ARA_IMA_FILE_NAME_MAX);
	if (flen != len - at)
		return fail(it, "n-ng length %u does not end the template data (%zu bytes left)",
			    flen, len - at);
	return parse_nng(it, d + at, flen, e);
}

int ara_ima_next(struct ara_ima_iter *it, struct ara_ima_entry *e)
{
	const uint8_t *p = it->log;
	size_t at = it->off;
	uint32_t name_len, data_len;
	static const uint8_t zero[ARA_IMA_TEMPLATE_DIGEST];

	if (it->why[0])
		return -1; /* stays failed */
	if (it->off == it->len)
		return it->index ? 0 : fail(it, "the log is empty (no boot_aggregate)");
	if (it->index >= ARA_IMA_ENTRIES_MAX)
		return fail(it, "the log holds more than %u entries", ARA_IMA_ENTRIES_MAX);
	memset(e, 0, sizeof(*e));
	e->index = it->index;
	if (take_u32(p, it->len, &at, &e->pcr))
		return fail(it, "truncated in the PCR index");
	if (e->pcr >= PCR_COUNT)
		return fail(it, "PCR index %u is not below %u", e->pcr, PCR_COUNT);
	if (it->len - at < ARA_IMA_TEMPLATE_DIGEST)
		return fail(it, "truncated in the template digest");
	e->template_digest = p + at;
	e->violation = memcmp(p + at, zero, sizeof(zero)) == 0;
	at += ARA_IMA_TEMPLATE_DIGEST;
	if (take_u32(p, it->len, &at, &name_len))
		return fail(it, "truncated in the template name length");
	if (name_len > ARA_IMA_TEMPLATE_NAME_MAX)
		return fail(it, "template name length %u exceeds %u", name_len,
			    ARA_IMA_TEMPLATE_NAME_MAX);
	if (name_len > it->len - at)
		return fail(it, "truncated in the template name");
	if (name_len != strlen(template_ima_ng) || memcmp(p + at, template_ima_ng, name_len) != 0)
		return fail(it, "template is not ima-ng");
	at += name_len;
	if (take_u32(p, it->len, &at, &data_len))
		return fail(it, "truncated in the template data length");
	if (data_len > ARA_IMA_DATA_MAX)
		return fail(it, "template data length %u exceeds %u", data_len, ARA_IMA_DATA_MAX);
	if (data_len > it->len - at)
		return fail(it, "truncated in the template data");
	e->data = p + at;
	e->data_len = data_len;
	if (parse_ima_ng(it, e->data, data_len, e))
		return -1;
	if (e->index == 0 &&
	    (e->name_len != strlen(boot_aggregate) || memcmp(e->name, boot_aggregate, e->name_len)))
		return fail(it, "the first entry is not boot_aggregate");
	it->off = at + data_len;
	it->index++;
	return 1;
}

void ara_ima_pcr_init(struct ara_ima_pcr *p, uint32_t index)
{
	memset(p, 0, sizeof(*p));
	p->index = index;
}

int ara_ima_extend_value(const struct ara_ima_entry *e, uint8_t out[ARA_IMA_SHA256])
{
	if (e->violation) {
		/* ima_add_template_entry extends the "invalidate" digests,
		 * set to 0xFF by ima_init_digests. */
		memset(out, 0xff, ARA_IMA_SHA256);
		return 0;
	}
	return mbedtls_sha256(e->data, e->data_len, out, 0) ? -1 : 0;
}

int ara_ima_pcr_extend(struct ara_ima_pcr *p, const struct ara_ima_entry *e)
{
	uint8_t buf[2 * ARA_IMA_SHA256];

	if (e->pcr != p->index)
		return 0;
	memcpy(buf, p->value, ARA_IMA_SHA256);
	if (ara_ima_extend_value(e, buf + ARA_IMA_SHA256))
		return -1;
	if (mbedtls_sha256(buf, sizeof(buf), p->value, 0))
		return -1;
	p->extends++;
	return 1;
}

int ara_ima_replay(const uint8_t *log, size_t len, uint32_t pcr, struct ara_ima_pcr *p, char *why,
		   size_t why_cap)
{
	struct ara_ima_iter it;
	struct ara_ima_entry e;
	int r;

	ara_ima_iter_init(&it, log, len);
	ara_ima_pcr_init(p, pcr);
	while ((r = ara_ima_next(&it, &e)) == 1) {
		if (ara_ima_pcr_extend(p, &e) < 0) {
			if (why_cap)
				snprintf(why, why_cap, "entry %u: SHA-256 failed", e.index);
			return -1;
		}
	}
	if (r < 0) {
		if (why_cap)
			snprintf(why, why_cap, "%s", it.why);
		return -1;
	}
	return 0;
}
