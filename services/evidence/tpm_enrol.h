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

/* Exit statuses of ara-tpm-quote (docs/man/ara-tpm-quote.1). */
enum ara_tpm_quote_exit {
	ARA_TPM_QUOTE_OK = 0,
	ARA_TPM_QUOTE_TPM = 1,	 /* the TPM failed or refused, or its answer is unfit */
	ARA_TPM_QUOTE_USAGE = 2, /* bad command line, or a binding not 32 bytes */
	ARA_TPM_QUOTE_IO = 3,	 /* stdin, stdout, the IMA log or PEMFILE */
};

/* ARA_TPM_QUOTE_OK, or another status after one line on stderr; PEMFILE
 * is replaced whole or not at all. */
int ara_tpm_enrol(struct ara_tpm *t, const char *pem_path);

#endif
