/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tpm evidence blob (docs/evidence-tpm.md): what ara-tpm-quote writes
 * on the device and ara_tpm_verify() reads on the provisioning server.
 * Big-endian, every field length-prefixed, nothing optional:
 *
 *   offset  size  field
 *   0       4     magic "ARAT"
 *   4       2     version, ARA_TPM_BLOB_VERSION
 *   6       2     reserved, 0
 *   8       4+n   u32 n, then TPMS_ATTEST exactly as the TPM returned it
 *                 (TPM2B_ATTEST.attestationData): the signed bytes
 *   ...     4+n   u32 n, then TPMT_SIGNATURE marshalled with Tss2_MU
 *   ...     4+n   u32 n, then the IMA binary measurement log, read after
 *                 the quote (so it may hold entries the quote does not)
 *
 * The bounds are what a verifier allocates and checks before it parses
 * anything; a writer refuses to produce a blob beyond them.
 */
#ifndef ARA_EVIDENCE_TPM_BLOB_H
#define ARA_EVIDENCE_TPM_BLOB_H

#define ARA_TPM_BLOB_MAGIC "ARAT"
#define ARA_TPM_BLOB_VERSION 1u
#define ARA_TPM_BLOB_HEADER 8u	/* magic, version, reserved */
#define ARA_TPM_BLOB_PREFIX 4u	/* each field's u32 length */

/* A TPMS_ATTEST of a quote is about 150 bytes, an ECDSA P-256 TPMT_SIGNATURE
 * 72: generous, but small enough that nothing unbounded is ever read. */
#define ARA_TPM_ATTEST_MAX 1024u
#define ARA_TPM_SIGNATURE_MAX 1024u
/* A boot's IMA log under the tcb policy holds a few thousand entries of
 * roughly 100 bytes. */
#define ARA_TPM_LOG_MAX (448u * 1024u)
#define ARA_TPM_EVIDENCE_MAX (512u * 1024u)

/* The attestation key's persistent handle (owner hierarchy), and the PCR
 * that IMA extends (CONFIG_IMA_MEASURE_PCR_IDX). */
#define ARA_TPM_AK_HANDLE 0x81010002u
#define ARA_IMA_PCR 10u

/* The binding a quote carries as qualifyingData: SHA-256 over the instance
 * public key and the measured digests. */
#define ARA_TPM_BINDING_LEN 32u

#endif
