/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enum ara_status ara_app_access(void *dst, const void *src, uint64_t len)
 *
 * Copies len bytes with plain loads and stores, one side in App memory,
 * which DOM0's row reads and writes (ara/domains.h, Table 1): the copies
 * of copy.c's ara_direct_* (a service's argument, the system call
 * service's, the RTS's samples and chunks), without a system call. A
 * fault on the App's side (unmapped, read-only) is a SIGSEGV or SIGBUS
 * whose pc lies in [ara_app_access, ara_app_access_end): ARA's signal
 * handler resumes it at ara_app_access_fault (libara/src/interrupt.c),
 * which returns ARA_E_FAULT, as a failed process_vm_readv would. Only
 * there: a fault anywhere else in DOM0 still ends the process. The caller
 * has range-checked the App's side, and runs with SIGSEGV and SIGBUS
 * unblocked (a blocked fault signal makes the kernel end the process).
 *
 * Entry: x0 = dst, x1 = src, x2 = len. Returns x0 = ARA_OK or ARA_E_FAULT.
 * Corrupts: x0-x4. A leaf: x30 and sp stay as the caller left them, which
 * is what lets the fault path return for it.
 */
#include "app_access.h"

	.text
	.balign	16
	.globl	ara_app_access
	.hidden	ara_app_access
	.type	ara_app_access, %function
ara_app_access:
	cmp	x2, #16
	b.lo	2f
1:	ldp	x3, x4, [x1], #16	// 16 bytes at a time while 16 are left
	stp	x3, x4, [x0], #16
	sub	x2, x2, #16
	cmp	x2, #16
	b.hs	1b
2:	tbz	x2, #3, 3f		// then 8, if 8 are left
	ldr	x3, [x1], #8
	str	x3, [x0], #8
	sub	x2, x2, #8
3:	cbz	x2, 5f
4:	ldrb	w3, [x1], #1		// then the bytes
	strb	w3, [x0], #1
	subs	x2, x2, #1
	b.ne	4b
5:	mov	x0, #ARA_APP_ACCESS_OK
	ret
	.globl	ara_app_access_end
	.hidden	ara_app_access_end
ara_app_access_end:
	.size	ara_app_access, . - ara_app_access

	.globl	ara_app_access_fault
	.hidden	ara_app_access_fault
	.type	ara_app_access_fault, %function
ara_app_access_fault:
	mov	x0, #ARA_APP_ACCESS_FAULT
	ret
	.size	ara_app_access_fault, . - ara_app_access_fault

	.section .note.GNU-stack, "", %progbits
