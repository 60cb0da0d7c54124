/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dev-insecure evidence backend: INSECURE, for development and tests.
 *
 * Its "device key" is derived from a string published in this file, so
 * anyone can make evidence that verifies: it proves nothing about the
 * platform. It exists so that provisioning can be built and tested on a
 * machine without a TPM; the provisioner refuses it unless its policy says
 * `backend dev-insecure` (services/provision/server/policy.c).
 *
 * Evidence: "ARAD", u16 version 1, u16 0, then an ECDSA P-256 signature
 * (r || s) over SHA-256(ARA_DEV_INSECURE_LABEL, NUL, binding).
 */
#ifndef ARA_PROVISION_DEV_EVIDENCE_H
#define ARA_PROVISION_DEV_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#define ARA_DEV_INSECURE_KEY_SEED "ARA dev-insecure evidence key: published, proves nothing"
#define ARA_DEV_INSECURE_LABEL "ARA-DEV-INSECURE-EVIDENCE-v1"
#define ARA_DEV_INSECURE_EVIDENCE_BYTES 72u

enum ara_dev_insecure_result {
	ARA_DEV_INSECURE_OK = 0,
	ARA_DEV_INSECURE_E_FORMAT = -1,	   /* not this backend's evidence */
	ARA_DEV_INSECURE_E_SIGNATURE = -2, /* not made over this binding */
	ARA_DEV_INSECURE_E_CRYPTO = -3,
};

int ara_dev_insecure_evidence(const uint8_t binding[32],
			      uint8_t out[ARA_DEV_INSECURE_EVIDENCE_BYTES]);
int ara_dev_insecure_verify(const uint8_t *evidence, size_t len, const uint8_t binding[32]);

#endif
