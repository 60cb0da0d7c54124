/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Secrets handed from one module to another (ara/service.h, ara_handover):
 * held for the recipient in its domain's box, on the domain's home
 * (domain.h), or on the core's state page (live.h) for a module in the
 * core's domain. Either page is zero in a forked child: it holds none.
 */
#ifndef ARA_DOM0_HANDOVER_H
#define ARA_DOM0_HANDOVER_H

#include <stdint.h>

#include "ara/service.h"

struct ara_handover_entry {
	uint32_t held; /* 0: free, and wiped */
	uint32_t from; /* the sender: its index among the modules */
	uint32_t to;   /* the recipient: its index among the modules */
	uint32_t name_len, len; /* len 0 in a queue: a withdrawal */
	uint8_t name[ARA_HANDOVER_NAME_MAX];
	uint8_t value[ARA_HANDOVER_SECRET_MAX];
};

struct ara_handover_box {
	int lock;
	struct ara_handover_entry entry[ARA_HANDOVER_HELD];
};

/*
 * What a call into a service domain hands to a module of another service
 * domain, in order, on the call's slot (domain.h): the sender's row
 * reaches neither the recipient's box nor the core's, so the core delivers
 * it when the call has returned (ara_handover_flush). One a call: no other
 * thread's call shares it, and no lock is needed.
 */
struct ara_handover_queue {
	uint32_t n;
	uint32_t reserved;
	struct ara_handover_entry entry[ARA_HANDOVER_QUEUED];
};

/*
 * The core, after a call into service domain d has returned (the App's
 * call, an internal call, a hook): delivers what the call queued in q,
 * each entry copied once and checked again (a sender that is d's, a rule
 * that names the recipient, the sizes), and empties q. A queue that breaks
 * the rules, or a recipient with no room, ends the process as d's fault:
 * its sender already let the secret go.
 */
void ara_handover_flush(enum ara_domain_id d, struct ara_handover_queue *q);

/*
 * At initialisation, before the modules' start hooks: fatal unless every
 * module's rules name another module and a prefix of 1 to
 * ARA_HANDOVER_NAME_MAX bytes, and no two modules take a name in common.
 */
void ara_handover_check(void);

#endif
