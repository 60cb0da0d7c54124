/* SPDX-License-Identifier: Apache-2.0 */
/*
 * void ara_sigreturn_to(struct ara_rt_sigframe *frame, uint64_t stack_index)
 *
 * The end of the trap path (trap.c): gives back the DOM0 stack the gate
 * claimed for it (none for a new thread's start, clone.c: stack_index is
 * ARA_NO_STACK, all ones), and makes rt_sigreturn on frame, a frame in the calling
 * thread's own DOM0 slot (thread.h). The system call is made on ARA's
 * system-call page (svc_page.h), the only place the filter lets
 * rt_sigreturn through. Every register
 * and POR_EL0 come from the frame; nothing of this code survives it.
 */
#include <asm/unistd.h>

	.text
	.globl	ara_sigreturn_to
	.hidden	ara_sigreturn_to
	.type	ara_sigreturn_to, %function
ara_sigreturn_to:
	mov	sp, x0			// off the DOM0 stack before giving it back
	cmn	x1, #1
	b.eq	2f			// ARA_NO_STACK: a new thread, on its signal stack (clone.c)
	adrp	x2, ara_live
	ldr	x2, [x2, :lo12:ara_live]	// struct ara_live: the bitmap is its first field
	mov	x3, #1
	lsl	x3, x3, x1
1:	ldxr	x4, [x2]
	bic	x4, x4, x3
	stlxr	w5, x4, [x2]
	cbnz	w5, 1b
2:	adrp	x16, ara_svc_entry	// the system-call page (svc_page.h)
	ldr	x16, [x16, :lo12:ara_svc_entry]
	mov	x8, #__NR_rt_sigreturn
	br	x16			// rt_sigreturn does not return
	.size	ara_sigreturn_to, . - ara_sigreturn_to

	.section .note.GNU-stack, "", %progbits
