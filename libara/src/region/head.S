/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The head of ARA's system-call page (libara/src/dom0/svc_page.h): the
 * instructions at fixed offsets, then boot.c's code. The page is built as
 * one position-independent blob (region.ld), copied by libara into a page
 * of its own, and written by execve.c into the image an exec starts, at
 * the same address.
 */
#include <asm/unistd.h>

#include "svc_page.h"

	.section .text.head, "ax"
	.globl	ara_region_head
	.hidden	ara_region_head
ara_region_head:
	svc	#0			// ARA_SVC_CALL: every system call of DOM0's
	ret
	svc	#0			// ARA_SVC_DEFERRED: unblock.S's only
1:	ret				// ARA_SVC_DEFERRED_POINT
	.if	1b - ara_region_head != ARA_SVC_DEFERRED_POINT
	.error	"ARA_SVC_DEFERRED_POINT does not match head.S"
	.endif
2:	mov	x0, sp			// ARA_SVC_BOOT: the entry of an exec'd image
	mov	x29, xzr
	mov	x30, xzr
	b	ara_region_boot
	.if	2b - ara_region_head != ARA_SVC_BOOT
	.error	"ARA_SVC_BOOT does not match head.S"
	.endif
3:	ldr	x10, [x9]		// ARA_SVC_SIGMASK: the call header's state word
	cbnz	x10, 5f			// signals wait: no system call
4:	svc	#0			// ARA_SVC_SIGMASK_SVC: the service's rt_sigprocmask
	ret
5:	mov	x0, #1			// ARA_SVC_SIGMASK_WAITING
	ret
	.if	3b - ara_region_head != ARA_SVC_SIGMASK || 4b - ara_region_head != ARA_SVC_SIGMASK_SVC
	.error	"ARA_SVC_SIGMASK does not match head.S"
	.endif

/* The boot SIGSYS handler's return (its sa_restorer). */
	.globl	ara_region_sigreturn
	.hidden	ara_region_sigreturn
ara_region_sigreturn:
	mov	x8, #__NR_rt_sigreturn
	svc	#0

/* long ara_region_svc(long nr, const long a[6]) */
	.globl	ara_region_svc
	.hidden	ara_region_svc
ara_region_svc:
	mov	x8, x0
	ldp	x4, x5, [x1, #32]
	ldp	x2, x3, [x1, #16]
	ldp	x0, x1, [x1]
	svc	#0
	ret

/*
 * void ara_region_enter(uint64_t entry, uint64_t sp): to the dynamic
 * linker's entry with the kernel's initial stack; the argument registers,
 * x29 and x30 zero (nothing of the boot code's is secret).
 */
	.globl	ara_region_enter
	.hidden	ara_region_enter
ara_region_enter:
	mov	sp, x1
	mov	x16, x0
	mov	x0, xzr
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	mov	x4, xzr
	mov	x5, xzr
	mov	x6, xzr
	mov	x7, xzr
	mov	x8, xzr
	mov	x29, xzr
	mov	x30, xzr
	br	x16

	.section .note.GNU-stack, "", %progbits
