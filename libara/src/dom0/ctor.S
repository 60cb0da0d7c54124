/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libara.so's constructor, first to run in the process after ld.so's own
 * relocation work (-z initfirst).
 *
 * void ara_ctor(int argc, char **argv, char **envp)  (ld.so passes all three)
 *
 * Entry:    ld.so's stack and POR_EL0 as the kernel set it.
 * Stack:    runs ara_init on a DOM0 stack in libara's .bss, keeping ld.so's
 *           sp, x29 and x30 there.
 * Exit:     not by ret: through the gate's way out, whose POR_EL0 write ends
 *           a DOM0 page, so ld.so resumes with DOM2's row (IV2). x16 holds
 *           that row; x0-x15, x17 and NZCV are zero; x19-x28 are preserved
 *           by ara_init (AAPCS64).
 */
#include "ara/gate.h"

	.section .init_array, "aw"
	.balign	8
	.quad	ara_ctor

	.text
	.type	ara_ctor, %function
ara_ctor:
	adrp	x9, ara_init_stack
	add	x9, x9, :lo12:ara_init_stack
	add	x9, x9, #ARA_INIT_STACK_SIZE
	mov	x10, sp
	stp	x29, x30, [x9, #-16]
	str	x10, [x9, #-32]
	sub	sp, x9, #32
	mov	x29, xzr
	mov	x0, x2			// envp
	mov	x1, x30			// in the dynamic linker, which calls constructors
	bl	ara_init		// returns the way out; fatal errors never return
	mov	x16, x0
	ldr	x10, [sp]
	ldp	x29, x30, [sp, #16]
	mov	sp, x10
	mov	x0, xzr
	ara_zero_x1_to_x15
	mov	x17, xzr
	msr	nzcv, xzr
	br	x16			// the gate's way out, then ret to ld.so
	.size	ara_ctor, . - ara_ctor

	.bss
	.balign	16
	.type	ara_init_stack, %object
ara_init_stack:
	.zero	ARA_INIT_STACK_SIZE
	.size	ara_init_stack, . - ara_init_stack

	.section .note.GNU-stack, "", %progbits
