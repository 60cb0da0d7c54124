/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tpm evidence backend, device side (DOM0, at initialisation only).
 *
 * tpm2-tss needs libc, which DOM0 never runs, so the quote is made by a
 * separate program, ara-tpm-quote (services/evidence/tpm_quote.c), in a
 * child process: DOM0 sends it the 32-byte binding and reads back the
 * evidence blob (docs/evidence-tpm.md). The child is not trusted: what it
 * returns is only bytes, size-bounded and never parsed in DOM0, and the
 * provisioner verifies them against the TPM's key. ARA_TPM_QUOTE names the
 * program.
 */
#ifndef ARA_PROVISION_TPM_EVIDENCE_H
#define ARA_PROVISION_TPM_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

/* Fatal on failure, with ara-tpm-quote's own message above ARA's. */
void ara_tpm_evidence(char **envp, const uint8_t binding[32], uint8_t **evidence, size_t *len);

#endif
