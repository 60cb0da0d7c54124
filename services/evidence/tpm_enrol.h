/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-tpm-quote enrol: the attestation key (AK) at ARA_TPM_AK_HANDLE,
 * created on first use, and its public key as PEM for the verifier.
 * A stand-in for real enrolment (docs/evidence-tpm.md): nothing here proves
 * to anyone that the key lives in a genuine TPM.
 */
#ifndef ARA_EVIDENCE_TPM_ENROL_H
#define ARA_EVIDENCE_TPM_ENROL_H

#include "tpm_client.h"

/* 0, or -1 after one line on stderr. */
int ara_tpm_enrol(struct ara_tpm *t, const char *pem_path);

#endif
