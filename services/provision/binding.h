/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What each signature, piece of evidence and key of a provisioning session
 * covers (docs/provisioning.md, "What is bound to what"). Device and
 * provisioner compute these the same way; a label starts every hash, so
 * that no value made for one purpose verifies for another.
 */
#ifndef ARA_PROVISION_BINDING_H
#define ARA_PROVISION_BINDING_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

#define ARA_HPKE_INFO_LABEL "ARA-PROVISION-v1 deliver"
#define ARA_HPKE_INFO_BYTES (sizeof(ARA_HPKE_INFO_LABEL) + 32u) /* label, NUL, hash */

/*
 * The 32 bytes the platform evidence is made over: the instance key with
 * the measured digests, the backend and the time the evidence was made.
 */
int ara_provision_binding(const struct ara_wire_attest *a, uint8_t out[32]);

/*
 * What the instance key signs: the provisioner's CHALLENGE message and the
 * ATTEST message up to its signature (attest_signed_len bytes), so the
 * signature holds only for this session, this share and this evidence.
 */
int ara_provision_session_hash(const uint8_t *challenge, size_t challenge_len,
			       const uint8_t *attest, size_t attest_signed_len, uint8_t out[32]);

/*
 * What the instance key signs when another module asks (provisioning's
 * SIGN, provision_calls.h): the module's digest under a label of its own,
 * never the digest as it is. The same key signs every session's ATTEST,
 * and a module that could have any 32 bytes signed could sign a session
 * hash: an ATTEST with a key share of the App's choosing.
 */
int ara_provision_module_hash(const uint8_t digest[32], uint8_t out[32]);

/* HPKE's info for the DELIVER: the label and a hash of both whole messages. */
int ara_provision_hpke_info(const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
			    size_t attest_len, uint8_t out[ARA_HPKE_INFO_BYTES]);

/*
 * The provisioner's signature over a DELIVER (d from ara_wire_decode_deliver
 * of msg, signed): the hash of the session's HPKE info, which hashes the
 * CHALLENGE and the whole ATTEST, and of the DELIVER up to its signature.
 * sign: into the last ARA_WIRE_SIG bytes of msg (len bytes, encoded
 * signed); verify: 0 only if d->sig is pk's signature of this transcript
 * (-1 also for an unsigned DELIVER).
 */
int ara_provision_sign_deliver(const uint8_t sk[32], const uint8_t info[ARA_HPKE_INFO_BYTES],
			       uint8_t *msg, size_t len);
int ara_provision_verify_deliver(const uint8_t pk[ARA_WIRE_POINT],
				 const uint8_t info[ARA_HPKE_INFO_BYTES], const uint8_t *msg,
				 const struct ara_wire_deliver *d);

#endif
