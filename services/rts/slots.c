/* SPDX-License-Identifier: Apache-2.0 */
#include "slots.h"

#include "dom0/dom0.h"
#include "dom0/live.h"

void *ara_rts_slots(void **home, uint32_t n, size_t size)
{
	void *t;

	ara_live_lock(&ara_live->provision_lock);
	t = *home;
	ara_live_unlock(&ara_live->provision_lock);
	if (t)
		return t;
	t = ara_dom0_calloc(n, size);
	if (!t)
		return NULL;
	ara_live_lock(&ara_live->provision_lock);
	if (*home) { /* another thread was first */
		ara_live_unlock(&ara_live->provision_lock);
		ara_dom0_free(t);
		return *home;
	}
	*home = t;
	ara_live_unlock(&ara_live->provision_lock);
	return t;
}

struct ara_rts_slot *ara_rts_slot_grab(void *table, uint32_t n, size_t size, uint32_t id,
				       uint32_t *generation)
{
	struct ara_rts_slot *found = NULL;

	ara_live_lock(&ara_live->provision_lock);
	for (uint32_t i = 0; i < n && !found; i++) {
		struct ara_rts_slot *s = (struct ara_rts_slot *)((uint8_t *)table + (size_t)i * size);

		if (id == 0 && s->state == ARA_SLOT_FREE) {
			found = s;
			*generation = (*generation + 1) & 0xffffffu;
			found->id = *generation << 8 | (i + 1);
		} else if (id != 0 && s->id == id && s->state == ARA_SLOT_ACTIVE) {
			found = s;
		}
	}
	if (found)
		found->state = ARA_SLOT_BUSY;
	ara_live_unlock(&ara_live->provision_lock);
	return found;
}

void ara_rts_slot_set(struct ara_rts_slot *s, enum ara_slot_state to)
{
	ara_live_lock(&ara_live->provision_lock);
	s->state = to;
	ara_live_unlock(&ara_live->provision_lock);
}
