/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding and neutralising instructions that write POR_EL0 (invariant IV1).
 *
 * Only the DOM1 trampoline may change POR_EL0. At load time ARA scans every
 * executable mapping of the App's domain and replaces each instruction that
 * writes POR_EL0 with NOP; the same functions serve any code range later
 * (JIT buffers, dlopen). A64 instructions are 4 bytes and the PC is always
 * 4-aligned, so a scan of every aligned word sees every instruction that can
 * ever execute.
 *
 * Pure and libc-free: DOM0 compiles this file too. Code is little-endian
 * (arm64 Linux); words are read with aligned 4-byte loads.
 */
#ifndef ARA_SCAN_H
#define ARA_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARA_INSN_BYTES 4u
#define ARA_INSN_NOP 0xd503201fu

/*
 * MSR S3_3_C10_C2_4, Xt (MSR POR_EL0, Xt) and the 128-bit MSRR form with the
 * same system register (Xt, X(t+1)). rt is 0..31; 31 is XZR.
 */
#define ARA_INSN_MSR_POR_EL0(rt) (0xd51ba280u | ((uint32_t)(rt) & 0x1fu))
#define ARA_INSN_MSRR_POR_EL0(rt) (0xd55ba280u | ((uint32_t)(rt) & 0x1fu))

enum ara_scan_status {
	ARA_SCAN_OK = 0,
	ARA_SCAN_E_ALIGN = 1, /* code not 4-aligned or len not a multiple of 4 */
	ARA_SCAN_E_ARGS = 2,  /* a NULL pointer other than offsets with max 0 */
};

/* True if insn, executed at EL0, is a system-register write naming POR_EL0.
 * The rule and its Arm ARM references are in scan.c. */
bool ara_insn_writes_por(uint32_t insn);

/*
 * Scans the len bytes at code. *found receives the number of POR_EL0 writes
 * (all of them, even beyond max_offsets); offsets[0..min(*found, max)) their
 * byte offsets from code, ascending. offsets may be NULL if max_offsets is 0.
 * Nothing is written on error.
 */
__attribute__((warn_unused_result)) enum ara_scan_status
ara_scan_por_writes(const void *code, size_t len, size_t *offsets,
		    size_t max_offsets, size_t *found);

/*
 * Replaces every POR_EL0 write in the len bytes at code with ARA_INSN_NOP and
 * leaves every other byte as it was; *patched receives how many it replaced.
 * The caller makes the range writable first and, for live code, synchronises
 * the instruction cache afterwards. Nothing is written on error.
 */
__attribute__((warn_unused_result)) enum ara_scan_status
ara_patch_por_writes(void *code, size_t len, size_t *patched);

#endif /* ARA_SCAN_H */
