/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/scan.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "A64 code is read as little-endian words"
#endif

/*
 * The rule, from the Arm ARM (DDI 0487):
 *
 * - POR_EL0 is the System register op0=0b11, op1=0b011, CRn=0b1010,
 *   CRm=0b0010, op2=0b100 (D24.2.150, "Accessing POR_EL0"; S3_3_C10_C2_4).
 * - Two instructions write a System register from general-purpose registers
 *   (D23.3.1): MSR (register), bits 1101010100 L=0 1 o0 op1 CRn CRm op2 Rt,
 *   and, with FEAT_SYSREG128, MSRR, which is the same with bit 22 set
 *   (1101010101 0 1 ...). op0 is 2 + o0. L=1 gives the reads MRS and MRRS.
 * - Nothing else in the System instruction class can name POR_EL0:
 *   MSR (immediate) writes PSTATE fields (op0=0b00, CRn=0b0100), and SYS,
 *   SYSL and SYSP are system instructions (op0=0b01), not register moves.
 *
 * So a word writes POR_EL0 iff it matches 110101010 x 0 1 1 011 1010 0010 100
 * followed by any Rt: bit 22 free (MSR or MSRR), Rt free (XZR writes zero,
 * which is still a write). MSRR to a 64-bit register is not a valid access;
 * it is flagged anyway, since we do not rely on what a CPU makes of it.
 *
 * Deliberately not flagged: the same CRn/CRm/op2 with another op1, i.e.
 * POR_EL1 (op1=0), POR_EL2 (4), POR_EL12 (5), POR_EL3 (6) (D24.2.151-153).
 * Their accessors are UNDEFINED when executed at EL0, so they trap (SIGILL)
 * without touching POR_EL0; replacing them with NOP would turn that trap
 * into silent continuation. Other op1 values name no POR register.
 */
#define POR_WRITE_MASK 0xffbfffe0u /* every bit but 22 (MSR/MSRR) and Rt */
#define POR_WRITE_BITS 0xd51ba280u /* MSR S3_3_C10_C2_4, X0 */

/* Code ranges are untyped memory that callers may also view as bytes. */
typedef uint32_t __attribute__((may_alias)) insn_word;

bool ara_insn_writes_por(uint32_t insn)
{
	return (insn & POR_WRITE_MASK) == POR_WRITE_BITS;
}

static enum ara_scan_status check_range(const void *code, size_t len)
{
	if (!code)
		return ARA_SCAN_E_ARGS;
	if ((uintptr_t)code % ARA_INSN_BYTES || len % ARA_INSN_BYTES)
		return ARA_SCAN_E_ALIGN;
	return ARA_SCAN_OK;
}

enum ara_scan_status ara_scan_por_writes(const void *code, size_t len,
					 size_t *offsets, size_t max_offsets,
					 size_t *found)
{
	const insn_word *word = code;
	enum ara_scan_status status = check_range(code, len);
	size_t count = 0;

	if (status != ARA_SCAN_OK)
		return status;
	if (!found || (!offsets && max_offsets))
		return ARA_SCAN_E_ARGS;
	for (size_t i = 0; i < len / ARA_INSN_BYTES; i++) {
		if (!ara_insn_writes_por(word[i]))
			continue;
		if (count < max_offsets)
			offsets[count] = i * ARA_INSN_BYTES;
		count++;
	}
	*found = count;
	return ARA_SCAN_OK;
}

enum ara_scan_status ara_patch_por_writes(void *code, size_t len,
					  size_t *patched)
{
	insn_word *word = code;
	enum ara_scan_status status = check_range(code, len);
	size_t count = 0;

	if (status != ARA_SCAN_OK)
		return status;
	if (!patched)
		return ARA_SCAN_E_ARGS;
	for (size_t i = 0; i < len / ARA_INSN_BYTES; i++) {
		if (ara_insn_writes_por(word[i])) {
			word[i] = ARA_INSN_NOP;
			count++;
		}
	}
	*patched = count;
	return ARA_SCAN_OK;
}
