/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What provisioning does for the other modules (DOM0 only), through the
 * core: ara_service_call(fid, &arg) with these internal function IDs
 * (ARA_SVC_INTERNAL: the App cannot call them; the gate answers their IDs
 * as unknown ones). Everything passes through the argument, by copy: no
 * other module reads provisioning's instance key. The secrets meant for
 * another module are not here: the core hands them over (ara_handover).
 */
#ifndef ARA_PROVISION_CALLS_H
#define ARA_PROVISION_CALLS_H

#include <stdint.h>

#include "ara/ara.h"
#include "wire.h" /* ARA_WIRE_NAME_MAX */

/* Functions 24..31 of the module's ID range are internal ones (24: a retired one). */
#define ARA_FID_PROVISION_INSTANCE ARA_FID(ARA_MODULE_RTS, 25) /* struct ara_provision_instance_arg */
#define ARA_FID_PROVISION_SIGN ARA_FID(ARA_MODULE_RTS, 26)     /* struct ara_provision_sign_arg */

/* INSTANCE: the instance key's public half. ARA_OK, or ARA_E_NO_EVIDENCE. */
struct ara_provision_instance_arg {
	uint8_t pub[65]; /* out: an uncompressed P-256 point */
};

/*
 * SIGN: an ECDSA P-256 signature by the instance key (r || s) over
 * ara_provision_module_hash(digest) (binding.h), a hash under a label of
 * its own: whatever digest a caller gives, the signature is never one of
 * a session's ATTEST. One label for every caller: a module provisioning
 * names among its callers (instance.c) signs what passes for the RTM's
 * documents, so it names the RTM alone. ARA_OK; ARA_E_NO_EVIDENCE;
 * ARA_E_INTERNAL.
 */
struct ara_provision_sign_arg {
	uint8_t digest[32]; /* in: SHA-256 */
	uint8_t sig[64];    /* out */
};

#endif
