/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hooks the RTM's pass plugin inserts before every indirect call,
 * indirect jump and return of instrumented code (docs/rtm.md,
 * "Instrumentation"): void __ara_rtm_icall/ijmp/ret(void *dest).
 *
 * Each builds its entry (ara_rtm_entry(kind, dest), ara/rtm.h) and hands
 * it to the gate's stackless append (ara_rtm_append). ARA_OK, the common
 * case, returns at once; any other status goes, with the entry, to
 * ara_rtm_log_slow (hooks.c), which fails closed. DOM0 orders the log, so
 * the hooks take no lock. In assembly because the floor of a hook is what
 * this is (docs/performance.md, "The floor"): no frame record (a hook calls
 * only the gate, which never unwinds) and the entry kept with the return
 * address in one pair, where C adds a frame record and a store of its own.
 *
 * Entry: x0 the destination, x30 the return address (a plain bl from
 *        instrumented code, which treats the hook as a C call).
 * Exit:  as a C function returning void.
 */
#include "runtime_internal.h"

	.text

.macro	rtm_hook name, kind
	.globl	\name
	.type	\name, %function
	.p2align 4
\name:
	and	x0, x0, #((1 << ARA_RTM_HOOK_KIND_SHIFT) - 1)	// the address
	orr	x0, x0, #(\kind << ARA_RTM_HOOK_KIND_SHIFT)		// the kind
	adrp	x1, :got:ara_rtm_append				// in libara-entry.so
	ldr	x1, [x1, #:got_lo12:ara_rtm_append]
	stp	x0, x30, [sp, #-16]!	// the entry, for the slow path
	blr	x1
	ldp	x1, x30, [sp], #16
	cbnz	w0, 1f
	ret
1:	b	ara_rtm_log_slow	// (status, entry): returns to our caller
	.size	\name, . - \name
.endm

	rtm_hook __ara_rtm_icall, ARA_RTM_HOOK_ICALL
	rtm_hook __ara_rtm_ijmp, ARA_RTM_HOOK_IJMP
	rtm_hook __ara_rtm_ret, ARA_RTM_HOOK_RET

	.section .note.GNU-stack, "", %progbits
