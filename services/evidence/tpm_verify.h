/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verifier of tpm evidence (tpm_blob.h), run by the provisioning
 * server: a TPM 2.0 quote of PCR 10 (SHA-256) signed by the enrolled
 * attestation key, qualified by the instance's binding, and the IMA log
 * that replays to it and holds the measured ara-loader. The checks and
 * their order are in docs/evidence-tpm.md.
 */
#ifndef ARA_EVIDENCE_TPM_VERIFY_H
#define ARA_EVIDENCE_TPM_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#define ARA_TPM_AK_PUB_LEN 65u /* uncompressed SEC1 P-256 point: 04 || x || y */
#define ARA_TPM_PEM_MAX 4096u

/* What the verifier expects of a device. */
struct ara_tpm_policy {
	uint8_t ak_pub[ARA_TPM_AK_PUB_LEN]; /* the enrolled attestation key */
	uint8_t loader_sha256[32];	     /* ara-loader's expected file digest */
};

/* What verified evidence establishes. */
struct ara_tpm_claims {
	uint8_t loader_sha256[32];
	char loader_path[256];	   /* the file name IMA logged for it */
	uint32_t entries_replayed; /* PCR 10 extends in the quoted prefix */
	uint64_t clock;		   /* the TPM's clockInfo at the quote */
	uint32_t reset_count, restart_count;
};

/*
 * 0: verified, *out filled. -1: refused, *why one line naming the failed
 * check (truncated to why_cap; why may be NULL when why_cap is 0) and *out
 * zeroed.
 */
int ara_tpm_verify(const struct ara_tpm_policy *p, const uint8_t *ev, size_t len,
		   const uint8_t binding[32], struct ara_tpm_claims *out, char *why,
		   size_t why_cap);

/*
 * The P-256 point of a PEM SubjectPublicKeyInfo (as ara-tpm-quote enrol
 * writes it); pem need not be NUL-terminated. 0, or -1 with *why.
 */
int ara_tpm_ak_from_pem(const char *pem, size_t pem_len, uint8_t ak_pub[ARA_TPM_AK_PUB_LEN],
			char *why, size_t why_cap);

/*
 * How the store finds the AK of a device (docs/provisioning.md, "The
 * store"): a quote names its signing key in TPMS_ATTEST.qualifiedSigner,
 * the key's qualified name: nameAlg (SHA-256) || SHA-256(the owner
 * hierarchy's handle || the key's name), the name being nameAlg ||
 * SHA-256(its TPMT_PUBLIC). ara_tpm_ak_signer computes it from the AK's
 * public point and the fixed template (tpm_ak_template.h), at enrolment;
 * ara_tpm_evidence_signer reads it from a blob, before verifying it, to
 * find the AK to verify it with.
 */
#define ARA_TPM_SIGNER_LEN 34u

int ara_tpm_ak_signer(const uint8_t ak_pub[ARA_TPM_AK_PUB_LEN],
		      uint8_t signer[ARA_TPM_SIGNER_LEN]);

/* 0, or -1 with *why (a blob that does not frame, or a signer of another size). */
int ara_tpm_evidence_signer(const uint8_t *ev, size_t len, uint8_t signer[ARA_TPM_SIGNER_LEN],
			    char *why, size_t why_cap);

#endif
