/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The counters' rules on their state (ara/counter.h), apart from ARA: the
 * module (counter.c) runs them in DOM0 on its state, the host's unit test
 * (tests/counter) runs them on its own.
 */
#ifndef ARA_COUNTER_OPS_H
#define ARA_COUNTER_OPS_H

#include <stdint.h>

#include "ara/counter.h"

/* A process's counters: the counter module's state (ara_module_state). */
struct counter_state {
	uint64_t value[ARA_COUNTERS]; /* each only ever grows, by compare-and-swap */
	uint8_t epoch[ARA_COUNTER_EPOCH_BYTES];
	uint32_t ready; /* the epoch is drawn: the counters may be used */
	uint32_t reserved;
};

/*
 * ARA_FID_COUNTER_INCREMENT and _READ on a (DOM0) copy of the App's
 * argument; s may be NULL (no state could be made). The statuses are
 * ara/counter.h's; on any but ARA_OK the counter is as it was.
 */
enum ara_status counter_increment(struct counter_state *s, struct ara_counter_arg *a);
enum ara_status counter_read(struct counter_state *s, struct ara_counter_arg *a);

#endif
