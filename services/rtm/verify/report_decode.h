/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A strict decoder of RTM reports and checkpoints (services/rtm/rtm_format.h)
 * for ara-verify. The bytes are untrusted: every count is bounded, the
 * length must be exactly what the fields say, and reserved and padding
 * bytes must be zero, so one document has exactly one encoding. Decoding
 * does not check the signature: ara_rtm_doc_signed_by() does.
 */
#ifndef ARA_RTM_REPORT_DECODE_H
#define ARA_RTM_REPORT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "rtm_format.h"

enum ara_rtm_doc_err {
	ARA_RTM_DOC_OK = 0,
	ARA_RTM_DOC_E_SHORT,	/* a field or record ends past the buffer */
	ARA_RTM_DOC_E_LENGTH,	/* bytes left after the signature */
	ARA_RTM_DOC_E_MAGIC,	/* not "ARARTM01" */
	ARA_RTM_DOC_E_KIND,	/* neither report nor checkpoint */
	ARA_RTM_DOC_E_MODULES,	/* module_count above ARA_RTM_MODULES_MAX */
	ARA_RTM_DOC_E_RESERVED, /* a reserved or padding byte is not zero */
	ARA_RTM_DOC_E_MODULE,	/* empty or overlapping range, bad path length, NUL in path */
	ARA_RTM_DOC_E_PENDING,	/* pending_count too large, or nonzero in a checkpoint */
	ARA_RTM_DOC_E_COUNTS,	/* sequence 0, or entries != sealed segments + pending */
};

/* A code mapping of the process; path points into the decoded buffer. */
struct ara_rtm_module {
	uint64_t start, end, offset;
	const uint8_t *path; /* path_len bytes, no NUL among them, not terminated */
	uint32_t path_len;
};

/* A decoded document. Every pointer points into the buffer it came from. */
struct ara_rtm_doc {
	uint32_t kind; /* enum ara_rtm_doc_kind */
	uint8_t flags; /* ARA_RTM_DOC_FINAL, ARA_RTM_DOC_MODULES_CHANGED */
	uint32_t module_count;
	uint32_t pending_count;
	uint64_t sequence, entries, sealed, dropped, refused;
	const uint8_t *nonce;	     /* ARA_RTM_NONCE_BYTES */
	const uint8_t *run_id;	     /* ARA_RTM_HASH_BYTES */
	const uint8_t *chain;	     /* ARA_RTM_HASH_BYTES */
	const uint8_t *app_sha256;   /* ARA_RTM_HASH_BYTES */
	const uint8_t *instance_pub; /* ARA_RTM_PUB_BYTES */
	const uint8_t *pending;	     /* pending_count entries of 8 bytes, little-endian */
	const uint8_t *sig;	     /* ARA_RTM_SIG_BYTES */
	size_t signed_len;	     /* bytes before the signature */
	struct ara_rtm_module modules[ARA_RTM_MODULES_MAX];
};

/*
 * The length of the document that starts at buf, from its own fields (for
 * a file of concatenated checkpoints): ARA_RTM_DOC_OK and *doc_len, or the
 * first fault of the header or module records (not of what follows).
 */
enum ara_rtm_doc_err ara_rtm_doc_length(const uint8_t *buf, size_t len, size_t *doc_len);

/* Decodes exactly len bytes into *doc (left undefined on failure). */
enum ara_rtm_doc_err ara_rtm_doc_decode(const uint8_t *buf, size_t len, struct ara_rtm_doc *doc);

/* Pending entry i (< doc->pending_count). */
uint64_t ara_rtm_doc_pending(const struct ara_rtm_doc *doc, uint32_t i);

/*
 * 0 if the document names key as its signer and carries key's signature
 * over provisioning's label for a module and SHA-256(ARA_RTM_SIGN_LABEL ||
 * the signed_len bytes before it) (rtm_format.h); -1 otherwise. buf is the buffer doc was decoded from.
 */
int ara_rtm_doc_signed_by(const uint8_t *buf, const struct ara_rtm_doc *doc,
			  const uint8_t key[ARA_RTM_PUB_BYTES]);

/* A one-line description, never NULL. */
const char *ara_rtm_doc_strerror(enum ara_rtm_doc_err err);

#endif
