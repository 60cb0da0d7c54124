/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_simd_scrub: leaves no DOM0 value in the SIMD&FP registers.
 *
 * DOM0 is compiled -mgeneral-regs-only except mbedtls's aesce.c, the ARMv8
 * AES instructions, whose round keys and blocks pass through the vector
 * registers. The dispatcher calls this after every service, before the way
 * out. v0-v7 and v16-v31 are the caller's to lose across secure_call
 * (AAPCS64): zeroed. v8-v15 keep their low 64 bits (d8-d15 are callee-saved,
 * and aesce.c's code restored them); a write to Dn zeroes the rest of Vn.
 * A write to Vn also zeroes Zn above bit 128 where SVE exists; AES code
 * never writes the predicate registers.
 */
	.text
	.arch armv8-a+simd
	.globl ara_simd_scrub
	.hidden ara_simd_scrub
	.type ara_simd_scrub, %function
	.p2align 2
ara_simd_scrub:
#ifndef ARA_TEST_VARIANT_NO_SIMD_SCRUB /* test-only (tests/variants): nothing cleared */
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\n\().2d, #0
	.endr
	.irp n, 8, 9, 10, 11, 12, 13, 14, 15
	fmov	d\n, d\n
	.endr
#endif
	ret
	.size ara_simd_scrub, . - ara_simd_scrub
	.section .note.GNU-stack, "", %progbits
