/* SPDX-License-Identifier: Apache-2.0 */
#include "slots.h"

/*
 * The content keys provisioning receives for the RTS are handed to it
 * (ara_handover): the chunk streams' "kid-" keys and the 'cenc' keys.
 */
ARA_MODULE(ara_rts_module, .name = "rts", .state_size = sizeof(struct ara_rts_state),
	   .takes = (const struct ara_handover_rule[]){ { "provision", "kid-" },
							 { "provision", "cenc-" },
							 { 0 } });

struct ara_rts_state *ara_rts_state(void)
{
	return ara_module_state(&ara_rts_module);
}

void *ara_rts_slots(struct ara_rts_state *st, void **home, uint32_t n, size_t size)
{
	void *t;

	ara_lock(&st->lock);
	t = *home;
	ara_unlock(&st->lock);
	if (t)
		return t;
	t = ara_dom0_calloc(n, size);
	if (!t)
		return NULL;
	ara_lock(&st->lock);
	if (*home) { /* another thread was first */
		ara_unlock(&st->lock);
		ara_dom0_free(t);
		return *home;
	}
	*home = t;
	ara_unlock(&st->lock);
	return t;
}

struct ara_rts_slot *ara_rts_slot_grab(struct ara_rts_state *st, void *table, uint32_t n,
				       size_t size, uint32_t id, uint32_t *generation)
{
	struct ara_rts_slot *found = NULL;

	ara_lock(&st->lock);
	for (uint32_t i = 0; i < n && !found; i++) {
		struct ara_rts_slot *s = (struct ara_rts_slot *)((uint8_t *)table + (size_t)i * size);

		if (id == 0 && s->state == ARA_RTS_SLOT_FREE) {
			found = s;
			*generation = (*generation + 1) & 0xffffffu;
			found->id = *generation << 8 | (i + 1);
		} else if (id != 0 && s->id == id && s->state == ARA_RTS_SLOT_ACTIVE) {
			found = s;
		}
	}
	if (found)
		found->state = ARA_RTS_SLOT_BUSY;
	ara_unlock(&st->lock);
	return found;
}

void ara_rts_slot_set(struct ara_rts_state *st, struct ara_rts_slot *s, enum ara_rts_slot_state to)
{
	ara_lock(&st->lock);
	s->state = to;
	ara_unlock(&st->lock);
}
