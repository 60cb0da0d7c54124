/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Connections open per peer (an address over TCP, a user over a Unix
 * socket), for the max-per-peer limit. The I/O thread's alone: no lock.
 */
#ifndef ARA_PROVISION_PEERS_H
#define ARA_PROVISION_PEERS_H

#define ARA_PEER_KEY_MAX 64

struct ara_peers;

struct ara_peers *ara_peers_new(void);
void ara_peers_free(struct ara_peers *t);

/* The count for key after adding 1 (0: out of memory, not counted). */
unsigned ara_peers_add(struct ara_peers *t, const char *key);

/* Takes 1 from key's count (forgets the key at 0). */
void ara_peers_remove(struct ara_peers *t, const char *key);

#endif
