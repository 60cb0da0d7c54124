/* SPDX-License-Identifier: Apache-2.0 */
/* The tpm evidence verifier (tpm_verify.h); checks in docs/evidence-tpm.md's order. */
#include "tpm_verify.h"
#include "ara/bytes.h"
#include "ara_cli.h"
#include "tpm_ak_template.h"

#include "ima_log.h"
#include "p256_pem.h"
#include "tpm_blob.h"

#include <mbedtls/constant_time.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/ecp.h>
#include <mbedtls/sha256.h>

#include <tss2/tss2_mu.h>

#include <stdio.h>
#include <string.h>

#define SHA256_LEN 32u

/* The three fields of a well-framed blob, pointing into it. */
struct blob {
	const uint8_t *attest, *sig, *log;
	uint32_t attest_len, sig_len, log_len;
};

/* One u32-length-prefixed field at *at, at most max bytes. */
static int field(const uint8_t *ev, size_t len, size_t *at, uint32_t max, const char *name,
		 const uint8_t **out, uint32_t *out_len, char *why, size_t cap)
{
	uint32_t n;

	if (len - *at < ARA_TPM_BLOB_PREFIX)
		return ara_why(why, cap, "blob: truncated before the %s length", name);
	n = ara_get_be32(ev + *at);
	*at += ARA_TPM_BLOB_PREFIX;
	if (n > max)
		return ara_why(why, cap, "blob: %s length %u exceeds %u", name, n, max);
	if (n > len - *at)
		return ara_why(why, cap, "blob: truncated in the %s (%u bytes announced, %zu left)",
			       name, n, len - *at);
	*out = ev + *at;
	*out_len = n;
	*at += n;
	return 0;
}

static int frame(const uint8_t *ev, size_t len, struct blob *b, char *why, size_t cap)
{
	size_t at = ARA_TPM_BLOB_HEADER;

	if (len > ARA_TPM_EVIDENCE_MAX)
		return ara_why(why, cap, "blob: %zu bytes exceed ARA_TPM_EVIDENCE_MAX", len);
	if (len < ARA_TPM_BLOB_HEADER)
		return ara_why(why, cap, "blob: shorter than its %u-byte header",
			       ARA_TPM_BLOB_HEADER);
	if (memcmp(ev, ARA_TPM_BLOB_MAGIC, 4) != 0)
		return ara_why(why, cap, "blob: magic is not ARAT");
	if (ara_get_be16(ev + 4) != ARA_TPM_BLOB_VERSION)
		return ara_why(why, cap, "blob: version %u is not %u", ara_get_be16(ev + 4),
			       ARA_TPM_BLOB_VERSION);
	if (ev[6] || ev[7])
		return ara_why(why, cap, "blob: reserved field is not zero");
	if (field(ev, len, &at, ARA_TPM_ATTEST_MAX, "attest", &b->attest, &b->attest_len, why,
		  cap) ||
	    field(ev, len, &at, ARA_TPM_SIGNATURE_MAX, "signature", &b->sig, &b->sig_len, why,
		  cap) ||
	    field(ev, len, &at, ARA_TPM_LOG_MAX, "log", &b->log, &b->log_len, why, cap))
		return -1;
	if (at != len)
		return ara_why(why, cap, "blob: %zu trailing bytes after the log", len - at);
	return 0;
}

/* The quote's own fields: what the TPM says it signed, before trusting it. */
static int check_attest(const struct blob *b, const uint8_t binding[32], TPMS_ATTEST *a,
			char *why, size_t cap)
{
	const TPML_PCR_SELECTION *sel;
	size_t off = 0;
	TSS2_RC rc;
	unsigned i;

	memset(a, 0, sizeof(*a));
	rc = Tss2_MU_TPMS_ATTEST_Unmarshal(b->attest, b->attest_len, &off, a);
	if (rc != TSS2_RC_SUCCESS)
		return ara_why(why, cap, "attest: TPMS_ATTEST does not unmarshal (0x%x)", rc);
	if (off != b->attest_len)
		return ara_why(why, cap, "attest: %zu bytes after the TPMS_ATTEST",
			       b->attest_len - off);
	if (a->magic != TPM2_GENERATED_VALUE)
		return ara_why(why, cap, "attest: magic is not TPM2_GENERATED_VALUE");
	if (a->type != TPM2_ST_ATTEST_QUOTE)
		return ara_why(why, cap, "attest: type is not TPM2_ST_ATTEST_QUOTE");
	/* Constant time: the binding is the verifier's challenge. */
	if (a->extraData.size != ARA_TPM_BINDING_LEN ||
	    mbedtls_ct_memcmp(a->extraData.buffer, binding, ARA_TPM_BINDING_LEN) != 0)
		return ara_why(why, cap, "attest: extraData is not the binding");
	sel = &a->attested.quote.pcrSelect;
	if (sel->count != 1 || sel->pcrSelections[0].hash != TPM2_ALG_SHA256 ||
	    sel->pcrSelections[0].sizeofSelect <= ARA_IMA_PCR / 8 ||
	    sel->pcrSelections[0].sizeofSelect > sizeof(sel->pcrSelections[0].pcrSelect))
		return ara_why(why, cap, "attest: PCR selection is not exactly SHA-256 PCR 10");
	for (i = 0; i < sel->pcrSelections[0].sizeofSelect; i++) {
		uint8_t want = i == ARA_IMA_PCR / 8 ? (uint8_t)(1u << (ARA_IMA_PCR % 8)) : 0;

		if (sel->pcrSelections[0].pcrSelect[i] != want)
			return ara_why(why, cap,
				       "attest: PCR selection is not exactly SHA-256 PCR 10");
	}
	if (a->attested.quote.pcrDigest.size != SHA256_LEN)
		return ara_why(why, cap, "attest: pcrDigest is not a SHA-256 digest");
	return 0;
}

/* ECDSA P-256 over SHA-256 of the attest bytes, under the policy AK. */
static int check_signature(const struct ara_tpm_policy *p, const struct blob *b, char *why,
			   size_t cap)
{
	TPMT_SIGNATURE sig;
	size_t off = 0;
	TSS2_RC rc;
	uint8_t hash[SHA256_LEN];
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	mbedtls_mpi r, s;
	int ret = -1;

	memset(&sig, 0, sizeof(sig));
	rc = Tss2_MU_TPMT_SIGNATURE_Unmarshal(b->sig, b->sig_len, &off, &sig);
	if (rc != TSS2_RC_SUCCESS)
		return ara_why(why, cap, "signature: TPMT_SIGNATURE does not unmarshal (0x%x)", rc);
	if (off != b->sig_len)
		return ara_why(why, cap, "signature: %zu bytes after the TPMT_SIGNATURE",
			       b->sig_len - off);
	if (sig.sigAlg != TPM2_ALG_ECDSA)
		return ara_why(why, cap, "signature: algorithm is not ECDSA");
	if (sig.signature.ecdsa.hash != TPM2_ALG_SHA256)
		return ara_why(why, cap, "signature: hash is not SHA-256");
	if (sig.signature.ecdsa.signatureR.size > SHA256_LEN ||
	    sig.signature.ecdsa.signatureS.size > SHA256_LEN)
		return ara_why(why, cap, "signature: r or s is longer than a P-256 scalar");

	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	mbedtls_mpi_init(&r);
	mbedtls_mpi_init(&s);
	if (mbedtls_ecp_group_load(&grp, MBEDTLS_ECP_DP_SECP256R1) ||
	    mbedtls_ecp_point_read_binary(&grp, &q, p->ak_pub, sizeof(p->ak_pub)) ||
	    mbedtls_ecp_check_pubkey(&grp, &q)) {
		ara_why(why, cap, "policy: AK is not a P-256 point");
		goto out;
	}
	if (mbedtls_sha256(b->attest, b->attest_len, hash, 0) ||
	    mbedtls_mpi_read_binary(&r, sig.signature.ecdsa.signatureR.buffer,
				    sig.signature.ecdsa.signatureR.size) ||
	    mbedtls_mpi_read_binary(&s, sig.signature.ecdsa.signatureS.buffer,
				    sig.signature.ecdsa.signatureS.size)) {
		ara_why(why, cap, "signature: mbedtls failed to load it");
		goto out;
	}
	if (mbedtls_ecdsa_verify(&grp, hash, sizeof(hash), &q, &r, &s)) {
		ara_why(why, cap, "signature: does not verify under the policy AK");
		goto out;
	}
	ret = 0;
out:
	mbedtls_mpi_free(&s);
	mbedtls_mpi_free(&r);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return ret;
}

/* 1 if SHA-256(PCR value) is the quoted pcrDigest (one PCR selected), 0 if
 * not, -1 if hashing failed. */
static int pcr_quoted(const struct ara_ima_pcr *pcr, const TPM2B_DIGEST *quoted)
{
	uint8_t d[SHA256_LEN];

	if (mbedtls_sha256(pcr->value, sizeof(pcr->value), d, 0))
		return -1;
	return memcmp(d, quoted->buffer, SHA256_LEN) == 0;
}

/*
 * The whole log must parse; the shortest prefix whose PCR 10 replay gives
 * the quoted digest is what the quote covers (IMA may have logged more
 * between the quote and the read of the log). The loader must be measured
 * in that prefix, in PCR 10, by an entry that is not a violation: a
 * violation's template data is not what was extended, so it proves nothing.
 */
static int check_log(const struct ara_tpm_policy *p, const struct blob *b, const TPMS_ATTEST *a,
		     struct ara_tpm_claims *c, char *why, size_t cap)
{
	const TPM2B_DIGEST *quoted = &a->attested.quote.pcrDigest;
	const struct ara_ima_entry *loader = NULL;
	struct ara_ima_entry e, found;
	struct ara_ima_iter it;
	struct ara_ima_pcr pcr;
	int r = 0, matched;

	ara_ima_iter_init(&it, b->log, b->log_len);
	ara_ima_pcr_init(&pcr, ARA_IMA_PCR);
	matched = pcr_quoted(&pcr, quoted);
	while (matched >= 0 && (r = ara_ima_next(&it, &e)) == 1) {
		if (matched)
			continue; /* past the prefix: only parsed */
		r = ara_ima_pcr_extend(&pcr, &e);
		if (r < 0)
			return ara_why(why, cap, "ima log: SHA-256 failed");
		if (r == 0)
			continue; /* another PCR: the quote says nothing of it */
		if (!loader && !e.violation && strcmp(e.algo, "sha256") == 0 &&
		    memcmp(e.digest, p->loader_sha256, SHA256_LEN) == 0) {
			found = e;
			loader = &found;
		}
		matched = pcr_quoted(&pcr, quoted);
		c->entries_replayed = pcr.extends;
	}
	if (matched < 0)
		return ara_why(why, cap, "ima log: SHA-256 failed");
	if (r < 0)
		return ara_why(why, cap, "ima log: %s", it.why);
	if (!matched)
		return ara_why(why, cap, "ima log: no prefix replays to the quoted PCR 10 digest");
	if (!loader)
		return ara_why(why, cap,
			       "ima log: no PCR 10 measurement of the policy loader digest in the "
			       "quoted prefix");
	if (loader->name_len >= sizeof(c->loader_path))
		return ara_why(why, cap, "ima log: the loader's file name is longer than %zu bytes",
			       sizeof(c->loader_path) - 1);
	memcpy(c->loader_path, loader->name, loader->name_len);
	c->loader_path[loader->name_len] = '\0';
	memcpy(c->loader_sha256, loader->digest, SHA256_LEN);
	return 0;
}

int ara_tpm_verify(const struct ara_tpm_policy *p, const uint8_t *ev, size_t len,
		   const uint8_t binding[32], struct ara_tpm_claims *out, char *why, size_t why_cap)
{
	struct ara_tpm_claims c;
	TPMS_ATTEST a;
	struct blob b;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	if (why_cap)
		why[0] = '\0';
	if (frame(ev, len, &b, why, why_cap) || check_attest(&b, binding, &a, why, why_cap) ||
	    check_signature(p, &b, why, why_cap) || check_log(p, &b, &a, &c, why, why_cap))
		return -1;
	c.clock = a.clockInfo.clock;
	c.reset_count = a.clockInfo.resetCount;
	c.restart_count = a.clockInfo.restartCount;
	*out = c;
	return 0;
}

int ara_tpm_ak_from_pem(const char *pem, size_t pem_len, uint8_t ak_pub[ARA_TPM_AK_PUB_LEN],
			char *why, size_t why_cap)
{
	return ara_p256_public_from_pem(pem, pem_len, ak_pub, why, why_cap);
}

/* nameAlg (SHA-256, big-endian) || SHA-256(prefix || data). */
static int sha256_name(const uint8_t *prefix, size_t prefix_len, const uint8_t *data,
		       size_t len, uint8_t out[ARA_TPM_SIGNER_LEN])
{
	mbedtls_sha256_context h;
	int r;

	out[0] = TPM2_ALG_SHA256 >> 8;
	out[1] = TPM2_ALG_SHA256 & 0xff;
	mbedtls_sha256_init(&h);
	r = mbedtls_sha256_starts(&h, 0) || mbedtls_sha256_update(&h, prefix, prefix_len) ||
	    mbedtls_sha256_update(&h, data, len) || mbedtls_sha256_finish(&h, out + 2);
	mbedtls_sha256_free(&h);
	return r ? -1 : 0;
}

int ara_tpm_ak_signer(const uint8_t ak_pub[ARA_TPM_AK_PUB_LEN],
		      uint8_t signer[ARA_TPM_SIGNER_LEN])
{
	static const uint8_t hierarchy[4] = { ARA_TPM_AK_HIERARCHY >> 24,
					      ARA_TPM_AK_HIERARCHY >> 16 & 0xff,
					      ARA_TPM_AK_HIERARCHY >> 8 & 0xff,
					      ARA_TPM_AK_HIERARCHY & 0xff };
	TPMT_PUBLIC pub = ara_tpm_ak_template.publicArea;
	uint8_t marshalled[sizeof(TPMT_PUBLIC)], name[ARA_TPM_SIGNER_LEN];
	size_t off = 0;

	pub.unique.ecc.x.size = 32;
	pub.unique.ecc.y.size = 32;
	memcpy(pub.unique.ecc.x.buffer, ak_pub + 1, 32);
	memcpy(pub.unique.ecc.y.buffer, ak_pub + 33, 32);
	if (ak_pub[0] != 4 ||
	    Tss2_MU_TPMT_PUBLIC_Marshal(&pub, marshalled, sizeof(marshalled), &off) !=
		    TSS2_RC_SUCCESS ||
	    sha256_name(NULL, 0, marshalled, off, name))
		return -1;
	return sha256_name(hierarchy, sizeof(hierarchy), name, sizeof(name), signer);
}

int ara_tpm_evidence_signer(const uint8_t *ev, size_t len, uint8_t signer[ARA_TPM_SIGNER_LEN],
			    char *why, size_t why_cap)
{
	TPMS_ATTEST a;
	struct blob b;
	size_t off = 0;

	if (frame(ev, len, &b, why, why_cap))
		return -1;
	if (Tss2_MU_TPMS_ATTEST_Unmarshal(b.attest, b.attest_len, &off, &a) != TSS2_RC_SUCCESS)
		return ara_why(why, why_cap, "attest: TPMS_ATTEST does not unmarshal");
	if (a.qualifiedSigner.size != ARA_TPM_SIGNER_LEN)
		return ara_why(why, why_cap, "attest: a signer name of %u bytes, not %u",
			       a.qualifiedSigner.size, ARA_TPM_SIGNER_LEN);
	memcpy(signer, a.qualifiedSigner.name, ARA_TPM_SIGNER_LEN);
	return 0;
}
