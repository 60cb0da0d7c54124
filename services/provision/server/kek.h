/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The key-encryption key (KEK) that seals secrets before a store backend
 * sees them (docs/provisioning.md, "Secrets at rest"). The KEK file is 32
 * random bytes, exactly, in a regular file that only its owner (the
 * service's user, or root) may read or write; anything else is refused.
 *
 * A secret version is sealed with AES-256-GCM under the KEK, bound to the
 * whole row the store keeps it in, so a database writer without the KEK
 * cannot make a row mean something else: the sealed value is
 *   rule (1 byte, ARA_KEK_RULE) || nonce (12, fresh) || ciphertext || tag (16)
 * with the additional data
 *   rule || version (4, big-endian) || once (1: 0 or 1) ||
 *   created_ms (8, big-endian) || name (the rest)
 * (every field fixed-size but the last). Another version's value copied
 * into a row, a once flag flipped, a row renumbered or renamed: none opens.
 * Rule 1 (releases before rule 2: no rule byte, the name alone as the
 * additional data) is read only by the store's migration, which re-seals
 * every row under rule 2 once (store.h); after it a rule-1 value is refused.
 */
#ifndef ARA_PROVISION_KEK_H
#define ARA_PROVISION_KEK_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define ARA_KEK_LEN 32u
#define ARA_KEK_RULE 2u /* the sealing rule this code writes, the sealed value's first byte */
#define ARA_KEK_NONCE 12u
#define ARA_KEK_TAG 16u
#define ARA_KEK_OVERHEAD (1u + ARA_KEK_NONCE + ARA_KEK_TAG)

/* Reads the KEK file at path. 0, or -1 with one line in why naming the file. */
int ara_kek_load(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t why_cap);

/*
 * A new KEK file at path (mode 0600, never over an existing file), and the
 * key in kek. 0, or -1 with why.
 */
int ara_kek_create(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t why_cap);

/*
 * Seals len bytes (1..ARA_WIRE_SECRET_MAX) of plain into sec->sealed and
 * sec->sealed_len, bound to sec's name, version, once and created_ms,
 * which the caller sets first (the version the store is to give it:
 * store.h's secret_put). 0, or -1.
 */
int ara_kek_seal(const uint8_t kek[ARA_KEK_LEN], struct ara_store_secret *sec,
		 const uint8_t *plain, size_t len);

/*
 * Opens sec->sealed, a rule-2 value bound to sec's row, into plain
 * (ARA_WIRE_SECRET_MAX bytes); *len the plaintext's length. 0, or -1 with
 * one line in why: another rule, or it does not open (the row altered in
 * the database since it was sealed, or another KEK).
 */
int ara_kek_open(const uint8_t kek[ARA_KEK_LEN], const struct ara_store_secret *sec,
		 uint8_t *plain, size_t *len, char *why, size_t why_cap);

/*
 * The store migration's re-seal (store.h's ara_store_reseal_fn; ctx the
 * KEK): sec->sealed, a rule-1 value, opened with sec's name and sealed
 * again under rule 2 for sec's row, in place. 0, or -1 with why: it does
 * not open (another KEK, or a damaged row).
 */
int ara_kek_reseal(void *kek, struct ara_store_secret *sec, char *why, size_t why_cap);

#endif
