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
	uint32_t to;   /* the recipient: its index among the modules */
	uint32_t name_len, len;
	uint8_t name[ARA_HANDOVER_NAME_MAX];
	uint8_t value[ARA_HANDOVER_SECRET_MAX];
};

struct ara_handover_box {
	int lock;
	struct ara_handover_entry entry[ARA_HANDOVER_HELD];
};

/*
 * At initialisation, before the modules' start hooks: fatal unless every
 * module's rules name another module and a prefix of 1 to
 * ARA_HANDOVER_NAME_MAX bytes, and no two modules take a name in common.
 */
void ara_handover_check(void);

#endif
