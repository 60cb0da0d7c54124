/* SPDX-License-Identifier: Apache-2.0 */
#include "dom0.h"

/* Data and instruction caches agree on [p, p + len) (Arm ARM: D7.5.9). */
void ara_sync_icache(uint64_t p, uint64_t len)
{
	uint64_t ctr, dline, iline;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	dline = UINT64_C(4) << ((ctr >> 16) & 0xf);
	iline = UINT64_C(4) << (ctr & 0xf);
	for (uint64_t a = p & ~(dline - 1); a < p + len; a += dline)
		__asm__ volatile("dc cvau, %0" ::"r"(a) : "memory");
	__asm__ volatile("dsb ish" ::: "memory");
	for (uint64_t a = p & ~(iline - 1); a < p + len; a += iline)
		__asm__ volatile("ic ivau, %0" ::"r"(a) : "memory");
	__asm__ volatile("dsb ish\n\tisb" ::: "memory");
}
