/* SPDX-License-Identifier: Apache-2.0 */
/*
 * For test and benchmark Apps that need a key in DOM0 they know
 * themselves: the App plays the provisioner (docs/provisioning.md) for its
 * own ARA instance. PROVISION_BEGIN with a challenge of its own, then a
 * DELIVER sealed (HPKE) to the session's key share, then PROVISION_FINISH.
 * Provisioning's guarantee is that only this instance can open what a
 * provisioner sealed; an App that seals its own value learns nothing new.
 * Needs an instance: run the App with ARA_EVIDENCE=dev-insecure.
 */
#ifndef ARA_TEST_SELF_PROVISION_H
#define ARA_TEST_SELF_PROVISION_H

#include <stddef.h>
#include <stdint.h>

/* ARA_OK, or the status of the call that failed (-1 if the App's own side failed). */
int ara_test_self_provision(const char *name, const uint8_t *secret, size_t len);

/* The same, with the secret's handle in *handle. */
int ara_test_self_provision_handle(const char *name, const uint8_t *secret, size_t len,
				   uint32_t *handle);

/*
 * A CENC session on key (AES-128): provisioned under key_id's "cenc-" name
 * (ara_cenc_key_name), then RTS_CENC_OPEN; its ID in *session. ARA_OK, or
 * as ara_test_self_provision.
 */
int ara_test_cenc_session(const uint8_t key_id[16], const uint8_t key[16], uint32_t *session);

#endif
