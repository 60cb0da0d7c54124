/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTS's tables of open streams and sessions (DOM0 only): a few slots
 * on the DOM0 heap, reached through a pointer on the state page (so that a
 * forked child has none), claimed and released under
 * ara_live->provision_lock, as instance.c does for sessions and secrets.
 * A call claims a free slot or takes an active one by id (-> BUSY), works
 * on it without the lock, and releases it (-> ACTIVE, or FREE after the
 * caller wiped it).
 */
#ifndef ARA_RTS_SLOTS_H
#define ARA_RTS_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "instance.h" /* enum ara_slot_state */

/* Every slot starts with this. */
struct ara_rts_slot {
	uint32_t state; /* enum ara_slot_state */
	uint32_t id;	/* generation << 8 | index + 1: never 0, not reused soon */
};

/* The table at *home, made at the first use: n slots of size bytes; NULL if the heap is full. */
void *ara_rts_slots(void **home, uint32_t n, size_t size);

/*
 * id 0: claims a free slot (FREE -> BUSY) and gives it a fresh id from
 * *generation; otherwise takes the active slot with that id (ACTIVE -> BUSY).
 * NULL if there is none.
 */
struct ara_rts_slot *ara_rts_slot_grab(void *table, uint32_t n, size_t size, uint32_t id,
				       uint32_t *generation);

/* Sets the slot's state: ACTIVE, or FREE once the caller wiped it. */
void ara_rts_slot_set(struct ara_rts_slot *s, enum ara_slot_state to);

#endif
