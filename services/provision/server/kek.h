/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The key-encryption key (KEK) that seals secrets before a store backend
 * sees them (docs/provisioning.md, "The store"). The KEK file is 32 random
 * bytes, exactly, in a regular file that only its owner (the service's
 * user, or root) may read or write; anything else is refused. A secret is
 * sealed with AES-256-GCM under the KEK: a fresh 12-byte nonce, then the
 * ciphertext, then the 16-byte tag; the additional data is the secret's
 * name, so a sealed value copied to another name in the database does not
 * open. (The version is not bound: the backend assigns it after sealing,
 * and one of a name's versions in another's place is a rollback the
 * operator's own database write could make anyway.)
 */
#ifndef ARA_PROVISION_KEK_H
#define ARA_PROVISION_KEK_H

#include <stddef.h>
#include <stdint.h>

#define ARA_KEK_LEN 32u
#define ARA_KEK_NONCE 12u
#define ARA_KEK_TAG 16u

/* Reads the KEK file at path. 0, or -1 with one line in why naming the file. */
int ara_kek_load(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t why_cap);

/*
 * A new KEK file at path (mode 0600, never over an existing file), and the
 * key in kek. 0, or -1 with why.
 */
int ara_kek_create(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t why_cap);

/*
 * Seals len bytes (1..ARA_WIRE_SECRET_MAX) of the secret called name into
 * out (len + ARA_KEK_NONCE + ARA_KEK_TAG bytes, at most
 * ARA_STORE_SEALED_MAX). 0, or -1.
 */
int ara_kek_seal(const uint8_t kek[ARA_KEK_LEN], const char *name, const uint8_t *plain,
		 size_t len, uint8_t *out, size_t *out_len);

/*
 * Opens what ara_kek_seal made into plain (ARA_WIRE_SECRET_MAX bytes);
 * *len the plaintext's length. 0, or -1: another key or name, or altered
 * bytes.
 */
int ara_kek_open(const uint8_t kek[ARA_KEK_LEN], const char *name, const uint8_t *sealed,
		 size_t sealed_len, uint8_t *plain, size_t *len);

#endif
