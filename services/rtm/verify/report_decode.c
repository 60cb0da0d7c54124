/* SPDX-License-Identifier: Apache-2.0 */
/* Strict decoding of RTM reports and checkpoints (report_decode.h). */
#include "report_decode.h"

#include <mbedtls/sha256.h>
#include <string.h>

#include "ara/bytes.h"
#include "binding.h"
#include "p256.h"

/* The 2 zero bytes between the flags and pending_count. */
#define OFF_HEADER_ZERO (ARA_RTM_OFF_FLAGS + 1)

static size_t padded_path(uint32_t path_len)
{
	return ((size_t)path_len + 7u) & ~(size_t)7u;
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n > 0)
		if (p[--n] != 0)
			return 0;
	return 1;
}

/*
 * Walks the header and module records far enough to know the length; with
 * doc, also fills the module table and checks each record on the way.
 */
static enum ara_rtm_doc_err walk(const uint8_t *buf, size_t len, size_t *doc_len,
				 struct ara_rtm_doc *doc)
{
	uint32_t modules, pending;
	size_t off = ARA_RTM_HEADER_BYTES;

	if (len < ARA_RTM_HEADER_BYTES)
		return ARA_RTM_DOC_E_SHORT;
	if (memcmp(buf, ARA_RTM_MAGIC, 8) != 0)
		return ARA_RTM_DOC_E_MAGIC;
	modules = ara_get_le32(buf + ARA_RTM_OFF_MODULES);
	pending = ara_get_le32(buf + ARA_RTM_OFF_PENDING);
	if (modules > ARA_RTM_MODULES_MAX)
		return ARA_RTM_DOC_E_MODULES;
	/* Bounded before any arithmetic: the sums below cannot overflow. */
	if (pending > ARA_RTM_SEGMENT_ENTRIES)
		return ARA_RTM_DOC_E_PENDING;
	for (uint32_t i = 0; i < modules; i++) {
		uint32_t path_len;

		if (len - off < ARA_RTM_MODULE_FIXED_BYTES)
			return ARA_RTM_DOC_E_SHORT;
		path_len = ara_get_le32(buf + off + 24);
		if (path_len == 0 || path_len > ARA_RTM_MODULE_PATH_MAX)
			return ARA_RTM_DOC_E_MODULE;
		if (len - off - ARA_RTM_MODULE_FIXED_BYTES < padded_path(path_len))
			return ARA_RTM_DOC_E_SHORT;
		if (doc != NULL) {
			struct ara_rtm_module *m = &doc->modules[i];
			const uint8_t *path = buf + off + ARA_RTM_MODULE_FIXED_BYTES;

			m->start = ara_get_le64(buf + off);
			m->end = ara_get_le64(buf + off + 8);
			m->offset = ara_get_le64(buf + off + 16);
			m->path = path;
			m->path_len = path_len;
			if (!all_zero(buf + off + 28, 4) ||
			    !all_zero(path + path_len, padded_path(path_len) - path_len))
				return ARA_RTM_DOC_E_RESERVED;
			if (m->start >= m->end || memchr(path, 0, path_len) != NULL)
				return ARA_RTM_DOC_E_MODULE;
		}
		off += ARA_RTM_MODULE_FIXED_BYTES + padded_path(path_len);
	}
	if (len - off < (size_t)pending * ARA_RTM_ENTRY_BYTES + ARA_RTM_SIG_BYTES)
		return ARA_RTM_DOC_E_SHORT;
	*doc_len = off + (size_t)pending * ARA_RTM_ENTRY_BYTES + ARA_RTM_SIG_BYTES;
	return ARA_RTM_DOC_OK;
}

enum ara_rtm_doc_err ara_rtm_doc_length(const uint8_t *buf, size_t len, size_t *doc_len)
{
	return walk(buf, len, doc_len, NULL);
}

/* /proc/self/maps never shows two mappings over one address. */
static int modules_overlap(const struct ara_rtm_doc *doc)
{
	for (uint32_t i = 0; i < doc->module_count; i++)
		for (uint32_t j = i + 1; j < doc->module_count; j++)
			if (doc->modules[i].start < doc->modules[j].end &&
			    doc->modules[j].start < doc->modules[i].end)
				return 1;
	return 0;
}

enum ara_rtm_doc_err ara_rtm_doc_decode(const uint8_t *buf, size_t len, struct ara_rtm_doc *doc)
{
	size_t doc_len;
	enum ara_rtm_doc_err err = walk(buf, len, &doc_len, doc);

	if (err != ARA_RTM_DOC_OK)
		return err;
	if (doc_len != len)
		return ARA_RTM_DOC_E_LENGTH;
	doc->kind = ara_get_le32(buf + ARA_RTM_OFF_KIND);
	doc->module_count = ara_get_le32(buf + ARA_RTM_OFF_MODULES);
	doc->pending_count = ara_get_le32(buf + ARA_RTM_OFF_PENDING);
	doc->nonce = buf + ARA_RTM_OFF_NONCE;
	doc->run_id = buf + ARA_RTM_OFF_RUN_ID;
	doc->chain = buf + ARA_RTM_OFF_CHAIN;
	doc->sequence = ara_get_le64(buf + ARA_RTM_OFF_SEQUENCE);
	doc->entries = ara_get_le64(buf + ARA_RTM_OFF_ENTRIES);
	doc->sealed = ara_get_le64(buf + ARA_RTM_OFF_SEALED);
	doc->dropped = ara_get_le64(buf + ARA_RTM_OFF_DROPPED);
	doc->refused = ara_get_le64(buf + ARA_RTM_OFF_REFUSED);
	doc->app_sha256 = buf + ARA_RTM_OFF_APP;
	doc->instance_pub = buf + ARA_RTM_OFF_PUB;
	doc->flags = buf[ARA_RTM_OFF_FLAGS];
	doc->signed_len = len - ARA_RTM_SIG_BYTES;
	doc->sig = buf + doc->signed_len;
	doc->pending = doc->sig - (size_t)doc->pending_count * ARA_RTM_ENTRY_BYTES;
	if (doc->kind != ARA_RTM_DOC_REPORT && doc->kind != ARA_RTM_DOC_CHECKPOINT)
		return ARA_RTM_DOC_E_KIND;
	if (!all_zero(buf + OFF_HEADER_ZERO, ARA_RTM_OFF_PENDING - OFF_HEADER_ZERO) ||
	    (doc->flags & ~ARA_RTM_DOC_FLAGS_KNOWN))
		return ARA_RTM_DOC_E_RESERVED;
	/* Only a report is final. */
	if (doc->kind == ARA_RTM_DOC_CHECKPOINT && (doc->flags & ARA_RTM_DOC_FINAL))
		return ARA_RTM_DOC_E_KIND;
	if (modules_overlap(doc))
		return ARA_RTM_DOC_E_MODULE;
	if (doc->kind == ARA_RTM_DOC_CHECKPOINT && doc->pending_count != 0)
		return ARA_RTM_DOC_E_PENDING;
	/* Every entry is either in a sealed segment or pending. */
	if (doc->sequence == 0 || doc->sealed > UINT64_MAX / ARA_RTM_SEGMENT_ENTRIES ||
	    doc->entries != doc->sealed * ARA_RTM_SEGMENT_ENTRIES + doc->pending_count)
		return ARA_RTM_DOC_E_COUNTS;
	return ARA_RTM_DOC_OK;
}

uint64_t ara_rtm_doc_pending(const struct ara_rtm_doc *doc, uint32_t i)
{
	return ara_get_le64(doc->pending + (size_t)i * ARA_RTM_ENTRY_BYTES);
}

int ara_rtm_doc_signed_by(const uint8_t *buf, const struct ara_rtm_doc *doc,
			  const uint8_t key[ARA_RTM_PUB_BYTES])
{
	mbedtls_sha256_context c;
	uint8_t digest[32], hash[32];
	int r;

	if (memcmp(doc->instance_pub, key, ARA_RTM_PUB_BYTES) != 0)
		return -1;
	mbedtls_sha256_init(&c);
	r = mbedtls_sha256_starts(&c, 0) ||
	    mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_SIGN_LABEL, ARA_RTM_SIGN_LABEL_BYTES) ||
	    mbedtls_sha256_update(&c, buf, doc->signed_len) || mbedtls_sha256_finish(&c, digest) ||
	    ara_provision_module_hash(digest, hash);
	mbedtls_sha256_free(&c);
	if (r)
		return -1;
	return ara_p256_verify(key, hash, doc->sig) == 0 ? 0 : -1;
}

const char *ara_rtm_doc_strerror(enum ara_rtm_doc_err err)
{
	switch (err) {
	case ARA_RTM_DOC_OK:
		return "no error";
	case ARA_RTM_DOC_E_SHORT:
		return "truncated: a field or record ends past the document";
	case ARA_RTM_DOC_E_LENGTH:
		return "bytes after the signature: the length is not what the fields say";
	case ARA_RTM_DOC_E_MAGIC:
		return "not an RTM document (magic is not ARARTM01)";
	case ARA_RTM_DOC_E_KIND:
		return "unknown document kind (neither report nor checkpoint)";
	case ARA_RTM_DOC_E_MODULES:
		return "more modules than ARA_RTM_MODULES_MAX";
	case ARA_RTM_DOC_E_RESERVED:
		return "a reserved or padding byte is not zero";
	case ARA_RTM_DOC_E_MODULE:
		return "a module record has an empty or overlapping range, or a bad path";
	case ARA_RTM_DOC_E_PENDING:
		return "too many pending entries, or pending entries in a checkpoint";
	case ARA_RTM_DOC_E_COUNTS:
		return "inconsistent counts (sequence 0, or entries != sealed segments + pending)";
	}
	return "unknown decoding error";
}
