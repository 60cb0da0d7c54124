/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A strict parser of the Linux IMA binary measurement log
 * (/sys/kernel/security/ima/binary_runtime_measurements) and a replay of
 * one PCR's SHA-256 bank from it. The log is untrusted input: only its
 * replay against a TPM quote makes it evidence.
 *
 * Layout of one entry, little-endian as the kernel writes it on arm64 and
 * x86_64 (security/integrity/ima/ima_fs.c, ima_measurements_show):
 *   u32 pcr; u8 template_digest[20] (SHA-1); u32 name_len; name;
 *   u32 data_len; template data.
 * Only the ima-ng template is accepted. Its template data is two fields,
 * each a u32 length and bytes (ima_template_lib.c):
 *   d-ng  "<algo>:" NUL digest     (the file's digest)
 *   n-ng  file name, NUL-terminated (no NUL inside)
 * The first entry must be boot_aggregate, as the kernel always logs it.
 *
 * SHA-256 bank replay (ima_crypto.c, ima_calc_field_array_hash_tfm; and
 * ima_queue.c, ima_add_template_entry): for a template other than "ima"
 * the kernel hashes each field's u32 length followed by its bytes, which
 * is exactly the template data as logged, so
 *   PCR = SHA-256(PCR || SHA-256(template data)).
 * A violation entry (template digest all zero) extends with 32 bytes of
 * 0xFF instead, whatever its template data says.
 */
#ifndef ARA_EVIDENCE_IMA_LOG_H
#define ARA_EVIDENCE_IMA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARA_IMA_ENTRIES_MAX 8192u  /* a 448 KiB log holds fewer */
#define ARA_IMA_TEMPLATE_DIGEST 20u /* SHA-1, as binary_runtime_measurements shows it */
#define ARA_IMA_TEMPLATE_NAME_MAX 255u
#define ARA_IMA_FILE_NAME_MAX 4096u /* n-ng field, NUL included: PATH_MAX */
#define ARA_IMA_DIGEST_MAX 64u	    /* SHA-512 */
#define ARA_IMA_DNG_MAX (7u + 1u + ARA_IMA_DIGEST_MAX) /* "sha512:" NUL digest */
#define ARA_IMA_DATA_MAX (4u + ARA_IMA_DNG_MAX + 4u + ARA_IMA_FILE_NAME_MAX)
#define ARA_IMA_SHA256 32u

/* One entry; every pointer points into the log given to the iterator. */
struct ara_ima_entry {
	uint32_t index; /* position in the log, from 0 */
	uint32_t pcr;
	const uint8_t *template_digest; /* ARA_IMA_TEMPLATE_DIGEST bytes */
	bool violation;			/* template digest all zero */
	const uint8_t *data;		/* template data as logged: what is hashed */
	uint32_t data_len;
	const char *algo; /* d-ng's algorithm: "sha1", "sha256", "sha384", "sha512" */
	const uint8_t *digest;
	uint32_t digest_len;
	const char *name; /* n-ng, NUL-terminated in the log */
	uint32_t name_len; /* without the NUL */
};

struct ara_ima_iter {
	const uint8_t *log;
	size_t len, off;
	uint32_t index;
	char why[128]; /* after ara_ima_next() returned -1 */
};

void ara_ima_iter_init(struct ara_ima_iter *it, const uint8_t *log, size_t len);

/*
 * 1: *e is the next entry; 0: the log ended cleanly after the last one
 * (an empty log is malformed: it lacks boot_aggregate); -1: malformed
 * (it->why says where and how; the iterator stays failed).
 */
int ara_ima_next(struct ara_ima_iter *it, struct ara_ima_entry *e);

/* A PCR's SHA-256 bank being replayed, from all zeros (its reset value). */
struct ara_ima_pcr {
	uint32_t index;
	uint8_t value[ARA_IMA_SHA256];
	uint32_t extends;
};

void ara_ima_pcr_init(struct ara_ima_pcr *p, uint32_t index);

/* The SHA-256 the kernel extends for e: of its template data, or 0xFF... */
int ara_ima_extend_value(const struct ara_ima_entry *e, uint8_t out[ARA_IMA_SHA256]);

/* 1: e is in p's PCR and extended it; 0: another PCR's; -1: hashing failed. */
int ara_ima_pcr_extend(struct ara_ima_pcr *p, const struct ara_ima_entry *e);

/*
 * The whole log: parses every entry and replays PCR pcr. 0 with *p the
 * final value, or -1 with why (one line, truncated to why_cap).
 */
int ara_ima_replay(const uint8_t *log, size_t len, uint32_t pcr, struct ara_ima_pcr *p, char *why,
		   size_t why_cap);

#endif
