/* SPDX-License-Identifier: Apache-2.0 */
/*
 * long ara_private_files_run(void (*fn)(void *), void *arg)
 *
 * Runs fn(arg) in a task of ARA's own that shares the memory, the file
 * system context (root, working directory, umask) and the thread group,
 * but not the descriptor table: it gets a private copy (private_files.h
 * says why). Returns 0 once the task has ended, or clone's -errno.
 *
 * The call is a vfork (CLONE_VFORK): this thread waits inside the clone
 * until the task exits, and the kernel ends that wait for a fatal signal
 * only. So the task can run on this thread's own stack, below the frame
 * of this function, as a vfork child does; the task inherits DOM0's row
 * (the kernel copies the live POR_EL0) and the caller's signal mask, which
 * blocks every signal (private_files.c). It makes its system calls
 * on the system-call page (svc_page.h), as clone.S does, and comes back
 * here from the page's `ret` (the kernel copies x30 too).
 *
 * Entry: x0 = fn, x1 = arg; a DOM0 stack, every signal blocked.
 * Exit:  x0 = 0 or -errno.
 * Corrupts: the caller-saved registers (x0-x18), as any call.
 */
#include <asm/unistd.h>

/* CLONE_VM | CLONE_FS | CLONE_SIGHAND | CLONE_VFORK | CLONE_THREAD | CLONE_SYSVSEM; not CLONE_FILES */
#define PRIVATE_FILES_FLAGS 0x54b00

	.text
	.globl	ara_private_files_run
	.hidden	ara_private_files_run
	.type	ara_private_files_run, %function
ara_private_files_run:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]	// fn, arg: the task finds them at its sp + 16
	movz	x0, #(PRIVATE_FILES_FLAGS & 0xffff)
	movk	x0, #(PRIVATE_FILES_FLAGS >> 16), lsl #16
	mov	x1, sp			// the task's sp: this frame, which it never pops
	mov	x2, xzr			// no parent_tid, tls or child_tid
	mov	x3, xzr
	mov	x4, xzr
	adrp	x16, ara_svc_entry
	ldr	x16, [x16, :lo12:ara_svc_entry]
	mov	x8, #__NR_clone
	blr	x16
	cbz	x0, 2f
	cmp	x0, #0
	csel	x0, xzr, x0, gt		// the task's ID: it has ended
	ldp	x29, x30, [sp], #32
	ret
2:	mov	x29, xzr		// the task: its frame chain starts here
	ldp	x16, x0, [sp, #16]
	blr	x16
	mov	x0, xzr
	adrp	x16, ara_svc_entry
	ldr	x16, [x16, :lo12:ara_svc_entry]
	mov	x8, #__NR_exit		// this task only: CLONE_THREAD
	blr	x16
	brk	#0x3e8			// not reached: exit does not return
	.size	ara_private_files_run, . - ara_private_files_run

	.section .note.GNU-stack, "", %progbits
