/* SPDX-License-Identifier: Apache-2.0 */
/*
 * long ara_clone_enter(uint64_t flags, uint64_t child_sp, uint64_t ptid,
 *                      uint64_t tls, uint64_t ctid)
 *
 * clone(2), made on the system-call page (svc_page.h) for clone.c. The
 * parent returns the kernel's result. The child comes back here from the
 * page (the kernel copies x30 too) with DOM0's row in POR_EL0 (the
 * kernel copies the live one), every signal blocked (the mask of ARA's
 * handler, which it inherits) and sp = child_sp, a DOM0 stack with the
 * child's struct ara_clone_start on top: it calls ara_thread_start on it,
 * which does not return.
 */
#include <asm/unistd.h>

	.text
	.globl	ara_clone_enter
	.hidden	ara_clone_enter
	.type	ara_clone_enter, %function
ara_clone_enter:
	mov	x17, x30
	adrp	x16, ara_svc_entry
	ldr	x16, [x16, :lo12:ara_svc_entry]
	mov	x8, #__NR_clone
	blr	x16
	cbz	x0, 1f
	ret	x17
1:	mov	x29, xzr		// the child's DOM0 frame chain starts here
	mov	x30, xzr
	mov	x0, sp
	b	ara_thread_start
	.size	ara_clone_enter, . - ara_clone_enter

	.section .note.GNU-stack, "", %progbits
