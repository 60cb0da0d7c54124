/* SPDX-License-Identifier: Apache-2.0 */
/* The attestation key: created once, persisted, exported as PEM (tpm_enrol.h). */
#include "tpm_enrol.h"

#include "tpm_ak_template.h"
#include "tpm_blob.h"

#include <mbedtls/ecp.h>
#include <mbedtls/pk.h>

#include <stdio.h>
#include <string.h>

#include "ara_cli.h"

#define COORD 32u /* a P-256 coordinate */

/* Whether a key found at the handle is one this program would have made:
 * any other key there must not be exported as the AK. */
static int is_ak(const TPMT_PUBLIC *p)
{
	const TPMS_ECC_PARMS *e = &p->parameters.eccDetail;

	return p->type == TPM2_ALG_ECC && p->nameAlg == TPM2_ALG_SHA256 &&
	       p->objectAttributes == ARA_TPM_AK_ATTRIBUTES && p->authPolicy.size == 0 &&
	       e->symmetric.algorithm == TPM2_ALG_NULL && e->scheme.scheme == TPM2_ALG_ECDSA &&
	       e->scheme.details.ecdsa.hashAlg == TPM2_ALG_SHA256 &&
	       e->curveID == TPM2_ECC_NIST_P256 && e->kdf.scheme == TPM2_ALG_NULL &&
	       p->unique.ecc.x.size <= COORD && p->unique.ecc.y.size <= COORD;
}

static TSS2_RC read_public(struct ara_tpm *t, TPM2B_PUBLIC *pub)
{
	TPM2B_NAME name = { .size = sizeof(name.name) }, qname = { .size = sizeof(qname.name) };
	TSS2_RC rc;

	t->tries = 0;
	do {
		memset(pub, 0, sizeof(*pub));
		rc = Tss2_Sys_ReadPublic(t->sys, ARA_TPM_AK_HANDLE, NULL, pub, &name, &qname, NULL);
	} while (ara_tpm_again(t, rc));
	return rc;
}

/* The AK in the owner hierarchy, made persistent at ARA_TPM_AK_HANDLE. */
static int create_ak(struct ara_tpm *t)
{
	TPM2B_SENSITIVE_CREATE sensitive = { 0 };
	TPM2B_DATA outside = { 0 };
	TPML_PCR_SELECTION creation_pcr = { 0 };
	TPM2B_PUBLIC out;
	TPM2B_CREATION_DATA creation;
	TPM2B_DIGEST creation_hash;
	TPMT_TK_CREATION ticket;
	TPM2B_NAME name;
	TSS2L_SYS_AUTH_RESPONSE rsp;
	TPM2_HANDLE handle = 0;
	TSS2_RC rc;

	t->tries = 0;
	do {
		memset(&out, 0, sizeof(out));
		memset(&creation, 0, sizeof(creation));
		memset(&creation_hash, 0, sizeof(creation_hash));
		memset(&ticket, 0, sizeof(ticket));
		memset(&name, 0, sizeof(name));
		name.size = sizeof(name.name);
		rc = Tss2_Sys_CreatePrimary(t->sys, ARA_TPM_AK_HIERARCHY, &ara_tpm_empty_auth, &sensitive,
					    &ara_tpm_ak_template, &outside, &creation_pcr, &handle, &out,
					    &creation, &creation_hash, &ticket, &name, &rsp);
	} while (ara_tpm_again(t, rc));
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "TPM2_CreatePrimary of the AK", rc);
	t->tries = 0;
	do
		rc = Tss2_Sys_EvictControl(t->sys, TPM2_RH_OWNER, handle, &ara_tpm_empty_auth,
					   ARA_TPM_AK_HANDLE, &rsp);
	while (ara_tpm_again(t, rc));
	/*
	 * Another enrolment persisted an AK there since our ReadPublic (two
	 * at once, e.g. tests run in parallel): the caller reads and checks
	 * whatever the handle holds, as if it had found it there first.
	 */
	if (rc == TPM2_RC_NV_DEFINED)
		rc = TSS2_RC_SUCCESS;
	/* The transient copy goes either way: the persistent one is the AK. */
	if (Tss2_Sys_FlushContext(t->sys, handle) != TSS2_RC_SUCCESS && rc == TSS2_RC_SUCCESS)
		fprintf(stderr, "%s: warning: TPM2_FlushContext of the transient AK failed\n",
			t->prog);
	if (rc != TSS2_RC_SUCCESS)
		return ara_tpm_fail(t, "TPM2_EvictControl of the AK to 0x81010002", rc);
	return 0;
}

/* The TPM's point as PEM SubjectPublicKeyInfo. */
static int write_pem(struct ara_tpm *t, const TPMS_ECC_POINT *pt, const char *path)
{
	uint8_t point[1 + 2 * COORD] = { 0x04 };
	unsigned char pem[512];
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	mbedtls_pk_context pk;
	struct ara_out out;
	int ret = ARA_TPM_QUOTE_TPM;

	/* A TPM may drop a coordinate's leading zero bytes. */
	memcpy(point + 1 + COORD - pt->x.size, pt->x.buffer, pt->x.size);
	memcpy(point + 1 + 2 * COORD - pt->y.size, pt->y.buffer, pt->y.size);
	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	mbedtls_pk_init(&pk);
	if (mbedtls_ecp_group_load(&grp, MBEDTLS_ECP_DP_SECP256R1) ||
	    mbedtls_ecp_point_read_binary(&grp, &q, point, sizeof(point)) ||
	    mbedtls_ecp_check_pubkey(&grp, &q)) {
		fprintf(stderr, "%s: the AK's public key is not a P-256 point\n", t->prog);
		goto out;
	}
	if (mbedtls_pk_setup(&pk, mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY)) ||
	    mbedtls_ecp_set_public_key(MBEDTLS_ECP_DP_SECP256R1, mbedtls_pk_ec(pk), &q) ||
	    mbedtls_pk_write_pubkey_pem(&pk, pem, sizeof(pem))) {
		fprintf(stderr, "%s: mbedtls cannot write the AK as PEM\n", t->prog);
		goto out;
	}
	ret = ARA_TPM_QUOTE_IO;
	if (ara_out_open(&out, path, 0644) != 0) {
		ara_file_error(path, "cannot create a temporary file beside it");
		goto out;
	}
	if (ara_write_all(out.fd, pem, strlen((const char *)pem)) != 0 ||
	    ara_out_commit(&out) != 0) {
		ara_file_error(path, "cannot write");
		ara_out_discard(&out);
		goto out;
	}
	ret = ARA_TPM_QUOTE_OK;
out:
	mbedtls_pk_free(&pk);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return ret;
}

int ara_tpm_enrol(struct ara_tpm *t, const char *pem_path)
{
	TPM2B_PUBLIC pub;
	TSS2_RC rc = read_public(t, &pub);

	/* An empty persistent handle is a handle error on handle 1. */
	if ((rc & ~(TSS2_RC)TPM2_RC_N_MASK) == TPM2_RC_HANDLE) {
		if (create_ak(t))
			return ARA_TPM_QUOTE_TPM;
		rc = read_public(t, &pub);
	}
	if (rc != TSS2_RC_SUCCESS) {
		ara_tpm_fail(t, "TPM2_ReadPublic of 0x81010002", rc);
		return ARA_TPM_QUOTE_TPM;
	}
	if (!is_ak(&pub.publicArea)) {
		fprintf(stderr,
			"%s: handle 0x%08x holds a key that is not an ARA attestation key\n",
			t->prog, ARA_TPM_AK_HANDLE);
		return ARA_TPM_QUOTE_TPM;
	}
	return write_pem(t, &pub.publicArea.unique.ecc, pem_path);
}
