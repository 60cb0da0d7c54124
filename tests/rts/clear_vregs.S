/* SPDX-License-Identifier: Apache-2.0 */
/*
 * void clear_vregs(void): what AAPCS64 lets a call leave in the vector
 * registers, cleared: v0-v7 and v16-v31 zeroed, v8-v15 only their low 64
 * bits kept (callee-saved). signal_frames.c calls it once its own crypto
 * (the key's provisioning) is done, so that a round key a frame shows
 * later came from ARA, not from the App's own registers.
 */
	.text
	.arch armv8-a+simd
	.globl clear_vregs
	.type clear_vregs, %function
	.p2align 2
clear_vregs:
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\n\().2d, #0
	.endr
	.irp n, 8, 9, 10, 11, 12, 13, 14, 15
	fmov	d\n, d\n
	.endr
	ret
	.size clear_vregs, . - clear_vregs
	.section .note.GNU-stack, "", %progbits
