/* SPDX-License-Identifier: Apache-2.0 */
/*
 * void ara_unblock_deferred(void)
 *
 * The gate's way out calls it (entry/gate.S .Ldeferred) when signals
 * arrived during the call and wait (interrupted.c): it gives the thread back
 * the App's signal mask, which the call's header holds (sp points to the
 * header, struct ara_call_header). The kernel takes the first waiting
 * signal on the way back from the system call, with the pc at the
 * system-call page's ARA_SVC_DEFERRED_POINT (svc_page.h), which no other
 * call passes: there interrupted.c knows the call is over. If none is
 * taken (another thread made the App ignore it meanwhile), it returns.
 * x0-x3, x8, x16 and x17 are its only registers; the App's callee-saved
 * ones stay.
 */
#include <asm/unistd.h>

#include "ara/gate.h"
#include "svc_page.h"

	.text
	.globl	ara_unblock_deferred
	.hidden	ara_unblock_deferred
	.type	ara_unblock_deferred, %function
ara_unblock_deferred:
	mov	x17, x30
	adrp	x16, ara_svc_entry
	ldr	x16, [x16, :lo12:ara_svc_entry]
	add	x16, x16, #ARA_SVC_DEFERRED
	mov	x0, #2			// SIG_SETMASK
	add	x1, sp, #ARA_CALL_MASK
	mov	x2, xzr
	mov	x3, #8
	mov	x8, #__NR_rt_sigprocmask
	blr	x16			// returns through ARA_SVC_DEFERRED_POINT
	/* The one instruction between that point and the gate's page 0: a
	 * signal here is resolved like one at the point (interrupt.c). */
	.globl	ara_unblock_deferred_ret
	.hidden	ara_unblock_deferred_ret
ara_unblock_deferred_ret:
	ret	x17
	.size	ara_unblock_deferred, . - ara_unblock_deferred

	.section .note.GNU-stack, "", %progbits
