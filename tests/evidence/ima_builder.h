/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builds IMA binary logs (ima-ng) for the tests, and replays them as it
 * goes, from the kernel's rule written out again here (not from
 * services/evidence/ima_log.c): each field u32-LE-length-prefixed, the
 * SHA-256 bank extended with SHA-256 of the template data as logged, a
 * violation with 32 bytes of 0xFF.
 */
#ifndef ARA_TESTS_IMA_BUILDER_H
#define ARA_TESTS_IMA_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMAB_MAX (1024u * 1024u)
#define IMAB_PCRS 24u

struct ima_builder {
	uint8_t *buf; /* IMAB_MAX bytes */
	size_t len;
	uint32_t entries;
	size_t ends[16384]; /* offset after each entry */
	uint8_t pcr[IMAB_PCRS][32];
	uint32_t extends[IMAB_PCRS];
};

/* 0, or -1 if out of memory. */
int imab_init(struct ima_builder *b);
void imab_free(struct ima_builder *b);

/*
 * One ima-ng entry: d-ng "<algo>:" NUL digest, n-ng name NUL. A violation
 * has an all-zero template digest and extends 0xFF..; otherwise the
 * template digest is a non-zero stand-in (the SHA-1 bank is never
 * checked). extend, if not NULL, receives what the entry extends into the
 * SHA-256 bank. 0, or -1 if the buffer is full.
 */
int imab_add(struct ima_builder *b, uint32_t pcr, const char *algo, const uint8_t *digest,
	     size_t digest_len, const char *name, bool violation, uint8_t extend[32]);

/* Raw bytes, for malformed logs. */
int imab_raw(struct ima_builder *b, const void *p, size_t n);
void imab_u32(uint8_t out[4], uint32_t v);

#endif
