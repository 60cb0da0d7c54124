/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/domains.h"

const struct ara_domain ara_domain_table[ARA_DOMAINS] = {
	[ARA_DOM0] = { "DOM0", "the core: code, its state, heap and stacks",
		       ARA_PKEY_DOM0, ARA_POR_DOM0 },
	[ARA_DOM1] = { "DOM1", "the entry trampoline page; libara's read-only data",
		       ARA_PKEY_DOM1, ARA_POR_DOM1 },
	[ARA_DOM2] = { "DOM2", "the App, ld.so, libc, every other library",
		       ARA_PKEY_DOM2, ARA_POR_DOM2 },
	[ARA_DOM_PROVISION] = { "provision", "the provisioning service's state, heap and stacks",
				ARA_PKEY_PROVISION, ARA_POR_SERVICE(ARA_PKEY_PROVISION) },
	[ARA_DOM_RTS] = { "rts", "the RTS's state, heap and stacks",
			  ARA_PKEY_RTS, ARA_POR_SERVICE(ARA_PKEY_RTS) },
	[ARA_DOM_RTM] = { "rtm", "the RTM's state, heap and stacks",
			  ARA_PKEY_RTM, ARA_POR_SERVICE(ARA_PKEY_RTM) },
	[ARA_DOM_XO] = { "xo", "held for execute-only code: no page yet",
			 ARA_PKEY_XO, 0 /* no code runs as it */ },
	[ARA_DOM_EXTRA] = { "extra", "further modules' state, heap and stacks (shared)",
			    ARA_PKEY_EXTRA, ARA_POR_SERVICE(ARA_PKEY_EXTRA) },
};
