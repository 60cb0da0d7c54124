/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Two helpers of attack_signal.c.
 *
 * void trapped_call_regs(uint64_t out[96])
 *
 * Makes rt_sigprocmask(SIG_BLOCK, an empty set, NULL, 8), which ARA's
 * filter traps and ARA performs, returning through rt_sigreturn on a frame
 * ARA built, and stores every register as that left it: x0-x30 in
 * out[0..30], q0-q31 in out[32..95] (attack_signal.c, frame_leftovers).
 */
#include <asm/unistd.h>

	.text
	.globl	trapped_call_regs
	.type	trapped_call_regs, %function
trapped_call_regs:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x0, [sp, #16]		// out
	str	xzr, [sp, #24]		// the set: no signal
	mov	x0, #0			// SIG_BLOCK
	add	x1, sp, #24
	mov	x2, #0
	mov	x3, #8
	mov	x8, #__NR_rt_sigprocmask
	svc	#0
	str	x17, [sp, #-16]!
	ldr	x17, [sp, #32]		// out
	stp	x0, x1, [x17, #0]
	stp	x2, x3, [x17, #16]
	stp	x4, x5, [x17, #32]
	stp	x6, x7, [x17, #48]
	stp	x8, x9, [x17, #64]
	stp	x10, x11, [x17, #80]
	stp	x12, x13, [x17, #96]
	stp	x14, x15, [x17, #112]
	str	x16, [x17, #128]
	ldr	x16, [sp], #16		// x17 as the call left it
	stp	x16, x18, [x17, #136]
	stp	x19, x20, [x17, #152]
	stp	x21, x22, [x17, #168]
	stp	x23, x24, [x17, #184]
	stp	x25, x26, [x17, #200]
	stp	x27, x28, [x17, #216]
	stp	x29, x30, [x17, #232]
	stp	q0, q1, [x17, #256]
	stp	q2, q3, [x17, #288]
	stp	q4, q5, [x17, #320]
	stp	q6, q7, [x17, #352]
	stp	q8, q9, [x17, #384]
	stp	q10, q11, [x17, #416]
	stp	q12, q13, [x17, #448]
	stp	q14, q15, [x17, #480]
	stp	q16, q17, [x17, #512]
	stp	q18, q19, [x17, #544]
	stp	q20, q21, [x17, #576]
	stp	q22, q23, [x17, #608]
	stp	q24, q25, [x17, #640]
	stp	q26, q27, [x17, #672]
	stp	q28, q29, [x17, #704]
	stp	q30, q31, [x17, #736]
	ldp	x29, x30, [sp], #32
	ret
	.size	trapped_call_regs, . - trapped_call_regs

/*
 * long clone_with_vregs(uint64_t flags, void *stack_top, const void *q0_q7,
 *                       void (*fn)(void))
 *
 * clone(2) made by App code with v0-v7 loaded from q0_q7 (128 bytes) at its
 * svc, so that the trap frame's FP/SIMD record holds them
 * (attack_signal.c, sigstack_forged_frame). The parent returns the
 * kernel's result; the child calls fn on stack_top, which must not return.
 */
	.globl	clone_with_vregs
	.type	clone_with_vregs, %function
clone_with_vregs:
	ldp	q0, q1, [x2]
	ldp	q2, q3, [x2, #32]
	ldp	q4, q5, [x2, #64]
	ldp	q6, q7, [x2, #96]
	mov	x5, x3
	mov	x2, #0			// no parent TID, TLS or child TID
	mov	x3, #0
	mov	x4, #0
	mov	x8, #__NR_clone
	svc	#0
	cbz	x0, 1f
	ret
1:	mov	x29, xzr
	mov	x30, xzr
	blr	x5
	brk	#0			// fn does not return
	.size	clone_with_vregs, . - clone_with_vregs

	.section .note.GNU-stack, "", %progbits
