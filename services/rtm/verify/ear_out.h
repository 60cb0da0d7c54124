/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify --ear: the verdict as a signed EAT Attestation Result
 * (services/ear/ear.h, docs/ear.md), one line on stdout: the JWT.
 */
#ifndef ARA_RTM_EAR_OUT_H
#define ARA_RTM_EAR_OUT_H

#include <stdio.h>

#include "ear.h"
#include "verify.h"

/* What ara-verify knew when it decided. */
struct ara_verify_outcome {
	int ok;			     /* the run verifies */
	const char *msg;	     /* verify.h's "OK: ..." or "REJECTED: ..." */
	const struct ara_rtm_verify_figures *fig; /* an OK's figures */
	const uint8_t *nonce;	     /* the verifier's */
	const uint8_t *instance_pub; /* NULL: no key was trusted (an attestation refused) */
	const uint8_t *app_sha256;   /* NULL: not known */
	int attested;		     /* the key came from an attestation that passed */
};

/* 0, or -1 if the token could not be made or f written (said on stderr). */
int ara_verify_ear_print(FILE *f, const struct ara_ear_key *k, const struct ara_verify_outcome *o);

#endif
