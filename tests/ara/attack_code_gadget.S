/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A POR_EL0 gadget in attack_code's own text, for the attacks that bring
 * back the bytes ARA patched at load time (attack_code.c): ARA must have
 * made its first word a NOP before main runs.
 */
	.text
	.balign	16
	.globl	ara_test_code_gadget
	.type	ara_test_code_gadget, %function
ara_test_code_gadget:
	msr	S3_3_C10_C2_4, x0	// POR_EL0 = x0
	isb
	ret
	.size	ara_test_code_gadget, . - ara_test_code_gadget

	.section .note.GNU-stack, "", %progbits
