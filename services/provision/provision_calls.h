/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What provisioning does for the other modules (DOM0 only), through the
 * core: ara_service_call(fid, &arg) with these internal function IDs
 * (ARA_SVC_INTERNAL: the App cannot call them; the gate answers their IDs
 * as unknown ones). Everything passes through the argument, by copy: no
 * other module reads provisioning's secrets or its instance key, and the
 * rules for finding a secret by name are provisioning's alone.
 */
#ifndef ARA_PROVISION_CALLS_H
#define ARA_PROVISION_CALLS_H

#include <stdint.h>

#include "ara/ara.h"
#include "wire.h" /* ARA_WIRE_NAME_MAX */

/* Functions 24..31 of the module's ID range are internal ones. */
#define ARA_FID_PROVISION_KEY ARA_FID(ARA_MODULE_RTS, 24)      /* struct ara_provision_key_arg */
#define ARA_FID_PROVISION_INSTANCE ARA_FID(ARA_MODULE_RTS, 25) /* struct ara_provision_instance_arg */
#define ARA_FID_PROVISION_SIGN ARA_FID(ARA_MODULE_RTS, 26)     /* struct ara_provision_sign_arg */

/* The longest content key KEY copies out: AES-256's. */
#define ARA_PROVISION_KEY_MAX 32u

/*
 * KEY: a copy of the secret held under name (the first, if it was
 * provisioned twice), for a key schedule the caller makes and keeps; the
 * caller wipes the argument. ARA_OK; ARA_E_NO_EVIDENCE (no instance);
 * ARA_E_NOENT (no such secret); ARA_E_INVAL (a name too long, or a secret
 * longer than ARA_PROVISION_KEY_MAX: no content key).
 */
struct ara_provision_key_arg {
	uint8_t name[ARA_WIRE_NAME_MAX]; /* in */
	uint32_t name_len;		 /* in */
	uint32_t key_len;		 /* out */
	uint8_t key[ARA_PROVISION_KEY_MAX]; /* out */
};

/* INSTANCE: the instance key's public half. ARA_OK, or ARA_E_NO_EVIDENCE. */
struct ara_provision_instance_arg {
	uint8_t pub[65]; /* out: an uncompressed P-256 point */
};

/*
 * SIGN: an ECDSA P-256 signature of digest by the instance key (r || s).
 * ARA_OK; ARA_E_NO_EVIDENCE; ARA_E_INTERNAL.
 */
struct ara_provision_sign_arg {
	uint8_t digest[32]; /* in: SHA-256 */
	uint8_t sig[64];    /* out */
};

#endif
