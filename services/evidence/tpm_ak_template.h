/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The attestation key's template (docs/evidence-tpm.md, "Enrolment"):
 * what ara-tpm-quote enrol creates, and what the verifier side rebuilds
 * around an AK's public point to compute the key's TPM name.
 */
#ifndef ARA_EVIDENCE_TPM_AK_TEMPLATE_H
#define ARA_EVIDENCE_TPM_AK_TEMPLATE_H

#include <tss2/tss2_tpm2_types.h>

/* A restricted signing key: it signs only what the TPM itself generated
 * (quotes, certifications), never an outside digest that could pass for
 * one. fixedTPM and fixedParent: it never leaves this TPM. */
#define ARA_TPM_AK_ATTRIBUTES                                                                  \
	(TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN |     \
	 TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_SIGN_ENCRYPT)

/* The AK is a primary key of this hierarchy. */
#define ARA_TPM_AK_HIERARCHY TPM2_RH_OWNER

static const TPM2B_PUBLIC ara_tpm_ak_template = {
	.publicArea = {
		.type = TPM2_ALG_ECC,
		.nameAlg = TPM2_ALG_SHA256,
		.objectAttributes = ARA_TPM_AK_ATTRIBUTES,
		.parameters.eccDetail = {
			.symmetric.algorithm = TPM2_ALG_NULL,
			.scheme = { .scheme = TPM2_ALG_ECDSA,
				    .details.ecdsa.hashAlg = TPM2_ALG_SHA256 },
			.curveID = TPM2_ECC_NIST_P256,
			.kdf.scheme = TPM2_ALG_NULL,
		},
	},
};

#endif
