/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/domains.h"

const struct ara_domain ara_domain_table[ARA_DOMAINS] = {
	[ARA_DOM0] = { "DOM0", "ARA: code, data, heap, stacks, keys, logs",
		       ARA_PKEY_DOM0, ARA_POR_DOM0 },
	[ARA_DOM1] = { "DOM1", "the entry trampoline page",
		       ARA_PKEY_DOM1, ARA_POR_DOM1 },
	[ARA_DOM2] = { "DOM2", "the App, ld.so, libc, every other library",
		       ARA_PKEY_DOM2, ARA_POR_DOM2 },
};
