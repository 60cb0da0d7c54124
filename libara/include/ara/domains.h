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
 * tagged. Linux hands out the lowest free key; libara allocates the keys
 * the table uses, lowest first, before any App code runs, and refuses to
 * start if the kernel returns other numbers. So keys in use must be 1..N
 * without gaps.
 */
#define ARA_PKEY_DOM2 0
#define ARA_PKEY_DOM0 1
#define ARA_PKEY_DOM1 2
#define ARA_PKEY_COUNT 3 /* keys in use; POE has 8, Linux allocates 1..7 */

/* A row: the subject's permission on DOM0, DOM1 and DOM2, as POR_EL0. */
#define ARA_POR_ROW(on_dom0, on_dom1, on_dom2)                                 \
	(((on_dom0) << (4 * ARA_PKEY_DOM0)) | ((on_dom1) << (4 * ARA_PKEY_DOM1)) | \
	 ((on_dom2) << (4 * ARA_PKEY_DOM2)))

/*
 * Table 1.
 *   DOM0 (ARA) owns its pages and reads and writes the App's, to copy
 *   arguments and results; it never executes App code. It executes DOM1
 *   because the way out switches POR_EL0 on the last instruction of a DOM0
 *   page, so the next fetch, from the DOM1 page, may still see this row.
 *   DOM1 (the trampoline) has no register value of its own: POR_EL0 does not
 *   change on a branch, so DOM1 runs with the row of whoever entered it, the
 *   App's on the way in and again after the switch on the way out.
 *   DOM2 (the App) can execute DOM1, its only way into ARA, and nothing else
 *   of ARA: no read, write or execute of DOM0, no read or write of DOM1.
 */
#define ARA_POR_DOM0 ARA_POR_ROW(ARA_PERM_RWX, ARA_PERM_X, ARA_PERM_RW)
#define ARA_POR_DOM1 ARA_POR_ROW(ARA_PERM_NONE, ARA_PERM_X, ARA_PERM_RWX)
#define ARA_POR_DOM2 ARA_POR_ROW(ARA_PERM_NONE, ARA_PERM_X, ARA_PERM_RWX)

/* What the trampoline switches to on the way in and on the way out. */
#define ARA_POR_ENTER ARA_POR_DOM0
#define ARA_POR_LEAVE ARA_POR_DOM2

#ifndef __ASSEMBLER__
#include <stdint.h>

enum ara_domain_id { ARA_DOM0, ARA_DOM1, ARA_DOM2, ARA_DOMAINS };

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
