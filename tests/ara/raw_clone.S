/* SPDX-License-Identifier: Apache-2.0 */
/*
 * long raw_clone(uint64_t flags, void *stack_top, int32_t *ptid, uint64_t tls,
 *                int32_t *ctid, void (*fn)(void *), void *arg)
 *
 * clone(2) made by App code itself, as a threads library without glibc
 * would (arm64 argument order: flags, newsp, parent_tid, tls, child_tid).
 * The parent returns the kernel's result (or -errno). The child, which
 * must start on stack_top with x0 = 0 and every other register as the
 * parent had it, calls fn(arg) from x5 and x6 and then ends the thread
 * with exit (not exit_group). fn, running on a stack without libc's
 * thread set-up, must keep to plain stores and raw system calls.
 */
#include <asm/unistd.h>

	.text
	.globl	raw_clone
	.type	raw_clone, %function
raw_clone:
	mov	x8, #__NR_clone
	svc	#0
	cbz	x0, 1f
	ret
1:	mov	x29, xzr		// the child's frame chain starts here
	mov	x30, xzr
	mov	x0, x6
	blr	x5
	mov	x0, #0
	mov	x8, #__NR_exit
	svc	#0
	brk	#0			// exit does not return
	.size	raw_clone, . - raw_clone

	.section .note.GNU-stack, "", %progbits
