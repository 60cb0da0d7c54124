/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The domains and Table 1: which POR_EL0 value each domain runs with.
 *
 * Each domain is a protection key. A row gives the permissions that code of
 * the subject domain holds on every object domain while it runs; the row's
 * POR_EL0 value is computed here, once, and used by the DOM1 trampoline
 * (ARA_POR_ENTER, ARA_POR_LEAVE) and by libara's initialisation. Adding a
 * domain (an execute-only key domain, a second service domain) means adding a
 * key, a column and a row here; the trampoline's logic does not change.
 *
 * This header is included from assembly: macros only outside the C block.
 */
#ifndef ARA_DOMAINS_H
#define ARA_DOMAINS_H

/* POR_EL0 permission nibble (Arm ARM D24.2.150): bit 0 R, bit 1 X, bit 2 W. */
#define ARA_PERM_NONE 0x0
#define ARA_PERM_R 0x1
#define ARA_PERM_X 0x2
#define ARA_PERM_W 0x4
#define ARA_PERM_RX (ARA_PERM_R | ARA_PERM_X)
#define ARA_PERM_RW (ARA_PERM_R | ARA_PERM_W)
#define ARA_PERM_RWX (ARA_PERM_R | ARA_PERM_W | ARA_PERM_X)

/*
 * Protection keys. DOM2 is key 0, the key every mapping gets by default, so
 * the App, ld.so, libc and every library loaded later are DOM2 without being
 * tagged. Linux hands out the lowest free key; libara allocates every key
 * 1-7, lowest first, before any App code runs, and refuses to start if the
 * kernel returns other numbers.
 *
 * The core is DOM0 (key 1: its code, its writable state, its heap and
 * stacks). A service module runs in the service domain the build names for
 * it (ara_dom0_service's DOMAIN): its state, heap and call stacks carry that
 * domain's key. Keys 3-5 are the provisioning, RTS and RTM domains, key 6 is
 * held for execute-only code, key 7 is the domain of further modules (the
 * counter, test services), which share it. libara's read-only data (and
 * what the core writes once at initialisation, then seals read-only) is on
 * DOM1's key: the App may execute that key's pages, and only the gate's
 * page is executable.
 */
#define ARA_PKEY_DOM2 0
#define ARA_PKEY_DOM0 1
#define ARA_PKEY_DOM1 2
#define ARA_PKEY_PROVISION 3
#define ARA_PKEY_RTS 4
#define ARA_PKEY_RTM 5
#define ARA_PKEY_XO 6 /* held: no page carries it yet */
#define ARA_PKEY_EXTRA 7
#define ARA_PKEY_COUNT 8 /* all of POE's keys */

/* A row: the subject's permission on each key, as POR_EL0 (4 bits a key). */
#define ARA_POR_KEY(key, perm) ((perm) << (4 * (key)))
#define ARA_POR_ROW(on_dom0, on_dom1, on_dom2)                                 \
	(ARA_POR_KEY(ARA_PKEY_DOM0, on_dom0) | ARA_POR_KEY(ARA_PKEY_DOM1, on_dom1) | \
	 ARA_POR_KEY(ARA_PKEY_DOM2, on_dom2))
/* Read and write on every service domain's key (3-5 and 7; not 6). */
#define ARA_POR_SERVICE_KEYS_RW                                               \
	(ARA_POR_KEY(ARA_PKEY_PROVISION, ARA_PERM_RW) | ARA_POR_KEY(ARA_PKEY_RTS, ARA_PERM_RW) | \
	 ARA_POR_KEY(ARA_PKEY_RTM, ARA_PERM_RW) | ARA_POR_KEY(ARA_PKEY_EXTRA, ARA_PERM_RW))

/*
 * Table 1, grown by the service domains (docs/architecture.md prints it).
 *   DOM0 (the core) owns its pages and reads and writes the App's, to copy
 *   arguments and results, and the service domains', to copy a service's
 *   argument onto its stack and its result back; it never executes App
 *   code. It executes DOM1 because the way out switches POR_EL0 on the last
 *   instruction of a DOM0 page, so the next fetch, from the DOM1 page, may
 *   still see this row; it reads DOM1's key for libara's read-only data.
 *   DOM1 (the trampoline) has no register value of its own: POR_EL0 does not
 *   change on a branch, so DOM1 runs with the row of whoever entered it, the
 *   App's on the way in and again after the switch on the way out.
 *   DOM2 (the App) can execute DOM1, its only way into ARA, and nothing else
 *   of ARA: no read, write or execute of DOM0, no read or write of DOM1, no
 *   access to any service domain.
 *   A service domain S reads and writes its own key and the App's (a
 *   service copies App buffers itself), reads DOM1's key (libara's
 *   read-only data) and executes DOM0's key, libara's code, without reading
 *   or writing any of it: the core's state, and every other service
 *   domain's, are out of its reach.
 */
#define ARA_POR_DOM0                                                            \
	(ARA_POR_ROW(ARA_PERM_RWX, ARA_PERM_RX, ARA_PERM_RW) | ARA_POR_SERVICE_KEYS_RW)
#define ARA_POR_DOM1 ARA_POR_ROW(ARA_PERM_NONE, ARA_PERM_X, ARA_PERM_RWX)
#define ARA_POR_DOM2 ARA_POR_ROW(ARA_PERM_NONE, ARA_PERM_X, ARA_PERM_RWX)
#define ARA_POR_SERVICE(key) (ARA_POR_ROW(ARA_PERM_X, ARA_PERM_R, ARA_PERM_RW) | ARA_POR_KEY(key, ARA_PERM_RW))

/* What the trampoline switches to on the way in and on the way out. */
#define ARA_POR_ENTER ARA_POR_DOM0
#define ARA_POR_LEAVE ARA_POR_DOM2

#ifdef __ASSEMBLER__
/* Loads a row (32 bits: keys 0-7) as an immediate: one movz, and a movk if it has bits above 15. */
.macro mov_row reg, row
	.if	(\row) > 0xffffffff
	.error	"a POR_EL0 row no longer fits 32 bits"
	.endif
	movz	\reg, #((\row) & 0xffff)
	.if	(\row) > 0xffff
	movk	\reg, #((\row) >> 16), lsl #16
	.endif
.endm
#else
#include <stdint.h>

enum ara_domain_id {
	ARA_DOM0,
	ARA_DOM1,
	ARA_DOM2,
	ARA_DOM_PROVISION,
	ARA_DOM_RTS,
	ARA_DOM_RTM,
	ARA_DOM_XO,
	ARA_DOM_EXTRA,
	ARA_DOMAINS
};

/* The same table as data, for code that iterates over domains. */
struct ara_domain {
	const char *name;
	const char *holds;
	unsigned int pkey;
	uint64_t por; /* the row */
};

extern const struct ara_domain ara_domain_table[ARA_DOMAINS];
#endif

#endif
