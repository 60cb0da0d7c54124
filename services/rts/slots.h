/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTS module (DOM0 only) and its tables of open streams and sessions:
 * a few slots on the DOM0 heap, reached through the module's state (so
 * that a forked child has none), claimed and released under the state's
 * lock. A call claims a free slot or takes an active one by id (-> BUSY),
 * works on it without the lock, and releases it (-> ACTIVE, or FREE after
 * the caller wiped it).
 */
#ifndef ARA_RTS_SLOTS_H
#define ARA_RTS_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "ara/service.h"

extern const struct ara_module ara_rts_module;

enum ara_rts_slot_state {
	ARA_RTS_SLOT_FREE = 0,
	ARA_RTS_SLOT_BUSY,   /* claimed by one call, being filled or emptied */
	ARA_RTS_SLOT_ACTIVE, /* open */
};

/* The module's per-process state. */
struct ara_rts_state {
	int lock;
	void *streams; /* streams.c's table, made at its first use */
	void *cenc;    /* cenc.c's */
	/* The tables' slot generations (ids), here: the RTS's domain writes no libara data. */
	uint32_t streams_generation, cenc_generation;
};

/* This process's; NULL if the DOM0 heap cannot hold it. */
struct ara_rts_state *ara_rts_state(void);

/* Every slot starts with this. */
struct ara_rts_slot {
	uint32_t state; /* enum ara_rts_slot_state */
	uint32_t id;	/* generation << 8 | index + 1: never 0, not reused soon */
};

/*
 * The table at *home (a field of st), made at the first use: n slots of
 * size bytes; NULL if the heap is full.
 */
void *ara_rts_slots(struct ara_rts_state *st, void **home, uint32_t n, size_t size);

/*
 * id 0: claims a free slot (FREE -> BUSY) and gives it a fresh id from
 * *generation; otherwise takes the active slot with that id (ACTIVE -> BUSY).
 * NULL if there is none.
 */
struct ara_rts_slot *ara_rts_slot_grab(struct ara_rts_state *st, void *table, uint32_t n,
				       size_t size, uint32_t id, uint32_t *generation);

/* Sets the slot's state: ACTIVE, or FREE once the caller wiped it. */
void ara_rts_slot_set(struct ara_rts_state *st, struct ara_rts_slot *s, enum ara_rts_slot_state to);

#endif
