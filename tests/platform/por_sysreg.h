/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test-only access to POR_EL0 from EL0 (Linux sets CPACR_EL1.E0POE). In ARA
 * proper only the DOM1 trampoline writes POR_EL0; these helpers exist so the
 * platform tests can drive the hardware directly. The register is named by
 * its encoding (S3_3_C10_C2_4, Arm ARM D24.2.150) so that any assembler
 * accepts it.
 */
#ifndef ARA_TESTS_POR_SYSREG_H
#define ARA_TESTS_POR_SYSREG_H

#include <stdint.h>

static inline uint64_t por_el0_read(void)
{
	uint64_t value;

	__asm__ volatile("mrs %0, S3_3_C10_C2_4" : "=r"(value));
	return value;
}

/* The ISB makes the new permissions apply from the next instruction on. */
static inline void por_el0_write(uint64_t value)
{
	__asm__ volatile("msr S3_3_C10_C2_4, %0\n\tisb" : : "r"(value) : "memory");
}

#endif /* ARA_TESTS_POR_SYSREG_H */
