/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gate: ARA's entries, secure_call (page 1) and the signal entry (page
 * 2, below), and the only code in the process that writes POR_EL0 once ARA
 * has initialised (invariants IV1, IV2, IV3).
 *
 * int secure_call(uint32_t fid, void *arg)
 *   x0 = fid, x1 = arg (any values: the dispatcher validates them)
 *   -> x0 = enum ara_status
 *
 * Entry:    DOM2's row in POR_EL0 (checked: otherwise ARA_E_NOT_READY).
 * Exit:     DOM2's row in POR_EL0, switched by the last instruction of a DOM0
 *           page so that the next fetch comes from the DOM1 page.
 * Stack:    the call runs on a DOM0 stack claimed from a bitmap for its
 *           duration; the App's sp, x29 and x30 are kept on that stack, never
 *           read from App memory.
 * Corrupts: x1-x17 and NZCV, all zero on return (AAPCS64 caller-saved;
 *           nothing of DOM0 leaves in them). x18 and x19-x29 are preserved:
 *           DOM0 is built with -ffixed-x18 and follows AAPCS64. DOM0 is built
 *           with -mgeneral-regs-only, so the SIMD/FP registers never hold
 *           DOM0 data and are not touched here.
 *
 * Why entering anywhere is safe (IV3); the App can branch to any instruction
 * of page 1 with any register values:
 *   - before the msr, and after it, POR_EL0 holds the App's own row;
 *   - at the msr, with x16 chosen by the App, the only instructions that can
 *     run before DOM0 code are isb and a direct branch to the landing; the
 *     landing's first act is to write DOM0's row, and it then claims a stack
 *     and calls the fixed dispatcher, which validates fid and arg;
 *   - every other word of page 1 is zero, which is UDF (undefined);
 *   - page 0 and the control block are DOM0: the App's row can neither
 *     execute nor read them.
 */
#include <asm/unistd.h>

#include "ara/domains.h"
#include "ara/gate.h"

#define POR_EL0 S3_3_C10_C2_4

/* Loads a 32-bit constant in a fixed two instructions, whatever its value. */
.macro mov32 reg, value
	movz	\reg, #((\value) & 0xffff)
	movk	\reg, #(((\value) >> 16) & 0xffff), lsl #16
.endm

/*
 * Claims the lowest free DOM0 stack of the set x13 (a mask): x16 =
 * &ara_gate_cb, x12 = &bitmap in, x15 = its index out; branches to \busy if
 * none is free. Uses x14, x17. \check labels the branch after the store:
 * there, w14 == 0 means the stack is taken.
 */
.macro claim_stack busy, check
1:	ldaxr	x17, [x12]
	bic	x14, x13, x17
	cbz	x14, \busy
	rbit	x15, x14
	clz	x15, x15
	mov	x14, #1
	lsl	x14, x14, x15
	orr	x17, x17, x14
	stxr	w14, x17, [x12]
\check:
	cbnz	w14, 1b
.endm

/* Fails the build unless label is at offset off of page 0 (ara/gate.h). */
.macro at_offset label, off
	.ifne	(\label - ara_gate_dom0) - (\off)
	.error	"entry/gate.S and ara/gate.h disagree on a window offset"
	.endif
.endm

	.section .ara_gate, "ax", %progbits
	.balign ARA_PAGE_SIZE

/* ---- page 0: DOM0 ---------------------------------------------------- */
ara_gate_dom0:

/*
 * Reached only by the direct branch at the end of secure_call, with the
 * App's x0, x1, x29, x30 and sp. A signal can arrive at any instruction
 * here, with DOM0's row: libara/src/dom0/interrupted.c turns such an
 * interruption into an App state (the call rolled back to secure_call, or
 * forward to its return) using the window offsets of ara/gate.h, asserted
 * below; inside the dispatcher, the signal waits for the way out.
 */
ara_gate_landing:
	mov32	x16, ARA_POR_ENTER	// whatever row brought us here, run with DOM0's
	msr	POR_EL0, x16
	isb
	adrp	x16, ara_gate_cb
	add	x16, x16, :lo12:ara_gate_cb
	ldp	x12, x13, [x16, #ARA_CB_CLAIMED]	// &bitmap, the calls' stacks
	claim_stack .Lbusy, .Lclaim_check
.Lclaimed:
	ldp	x13, x14, [x16, #ARA_CB_STACK_BASE]	// base, stride
	madd	x13, x15, x14, x13
	add	x13, x13, x14		// top of stack x15
	mov	x14, sp
	/* The header (struct ara_call_header): the App's state, kept in DOM0. */
	stp	x14, x15, [x13, #ARA_CALL_APP_SP - ARA_CALL_HEADER_SIZE]
	stp	x29, x30, [x13, #ARA_CALL_APP_X29 - ARA_CALL_HEADER_SIZE]
	mov	x12, #ARA_CALL_ACTIVE
	stp	x12, xzr, [x13, #ARA_CALL_STATE - ARA_CALL_HEADER_SIZE]
.Lheader_done:
	sub	sp, x13, #ARA_CALL_HEADER_SIZE
	mov	x29, xzr		// DOM0 frame chain starts here
	ldr	x16, [x16, #ARA_CB_DISPATCH]
	blr	x16			// x0 = ara_dispatch(fid, arg)
.Lexit:
	str	x0, [sp, #ARA_CALL_STATUS]
	ldr	x16, [sp, #ARA_CALL_STATE]
	cmp	x16, #ARA_CALL_ACTIVE
	b.ne	.Ldeferred		// signals waited for the way out
.Lrestore:
	ldp	x14, x15, [sp, #ARA_CALL_APP_SP]
	ldp	x29, x30, [sp, #ARA_CALL_APP_X29]
	mov	sp, x14
.Lsp_restored:
	adrp	x16, ara_gate_cb
	add	x16, x16, :lo12:ara_gate_cb
	ldr	x12, [x16, #ARA_CB_CLAIMED]
	mov	x14, #1
	lsl	x14, x14, x15
.Lrelease:
	ldxr	x17, [x12]
	bic	x17, x17, x14
	stlxr	w13, x17, [x12]
.Lrelease_check:
	cbnz	w13, .Lrelease
.Lscrub:				// x0 = status; nothing else leaves DOM0
	ara_zero_x1_to_x15
	msr	nzcv, xzr
	b	.Lleave
.Lbusy:					// every DOM0 stack is taken
	clrex
	mov	x0, #ARA_GATE_STATUS_BUSY
	b	.Lscrub
.Ldeferred:
	adrp	x16, ara_gate_cb
	add	x16, x16, :lo12:ara_gate_cb
	ldr	x16, [x16, #ARA_CB_UNBLOCK]
	blr	x16			// the App's mask again: what waited is taken there
	ldr	x0, [sp, #ARA_CALL_STATUS]
	b	.Lrestore

/*
 * Reached only by the direct branch at the end of the signal entry (page
 * 2): the kernel delivering a signal ARA handles (sp = its frame, on the
 * thread's DOM0 signal stack, with every signal blocked), or App code that
 * jumped there with any registers. Nothing here is trusted: ara_signal
 * reads the frame at the incoming sp only from the thread's own signal
 * stack or from App memory, through the argument checks. It does not
 * return; it leaves with rt_sigreturn on ARA's system-call page.
 */
ara_gate_sig_landing:
	mov32	x16, ARA_POR_ENTER
	msr	POR_EL0, x16
	isb
	mov	x9, sp			// where the frame should be
	adrp	x16, ara_gate_cb
	add	x16, x16, :lo12:ara_gate_cb
.Lsig_claim:
	ldr	x12, [x16, #ARA_CB_CLAIMED]
	ldr	x13, [x16, #ARA_CB_HANDLER_MASK]	// the handler's own stacks
	claim_stack .Lsig_wait, .Lsig_claim_check
	ldp	x13, x14, [x16, #ARA_CB_STACK_BASE]	// base, stride
	madd	x13, x15, x14, x13
	add	x13, x13, x14		// top of stack x15
	str	xzr, [x13, #ARA_CALL_STATE - ARA_CALL_HEADER_SIZE]	// no call runs on it
	mov	sp, x13
	mov	x29, xzr
	mov	x30, xzr
	mov	x0, x9
	mov	x1, x15
	ldr	x16, [x16, #ARA_CB_SIGNAL]
	br	x16			// ara_signal(frame, stack index)
.Lsig_wait:				// every handler stack is taken: a signal cannot fail
	clrex
	yield
	b	.Lsig_claim

	at_offset .Lclaim_check, ARA_GATE_CLAIM_CHECK
	at_offset .Lclaimed, ARA_GATE_CLAIMED
	at_offset .Lheader_done, ARA_GATE_HEADER_DONE
	at_offset .Lexit, ARA_GATE_EXIT
	at_offset .Lsp_restored, ARA_GATE_SP_RESTORED
	at_offset .Lrelease_check, ARA_GATE_RELEASE_CHECK
	at_offset .Lscrub, ARA_GATE_SCRUB
	at_offset .Lbusy, ARA_GATE_BUSY
	at_offset .Ldeferred, ARA_GATE_DEFERRED
	at_offset ara_gate_sig_landing, ARA_GATE_SIG_LANDING

	/* Zero fill up to the way out: 0x00000000 is UDF. */
	.org	ara_gate_dom0 + ARA_GATE_LEAVE_OFFSET
.Lleave:
	mov32	x16, ARA_POR_LEAVE
	mov	x17, xzr
	msr	POR_EL0, x16		// last word of the DOM0 page
	/*
	 * .org cannot move backwards: if the way out grew past the page, this
	 * fails the build. (If it shrank, UDF would follow the msr and every
	 * call would stop there: the first test catches it.)
	 */
	.org	ara_gate_dom0 + ARA_PAGE_SIZE

/* ---- page 1: DOM1 ---------------------------------------------------- */
ara_gate_dom1:
	isb				// first fetch under the App's row
	mov	x16, xzr		// held DOM2's row, public, but leave nothing
	ret

	.globl	secure_call
	.type	secure_call, %function
secure_call:
	mrs	x16, POR_EL0
	mov32	x17, ARA_POR_LEAVE
	cmp	x16, x17
	b.ne	.Lnot_ready		// no ARA in this process, or not called from DOM2
	mov32	x16, ARA_POR_ENTER
	msr	POR_EL0, x16
.Ldom1_entered:				// DOM0's row from here: ara/gate.h's DOM1 window
	isb
	b	ara_gate_landing	// the only branch from DOM1 into DOM0
.Ldom1_entered_end:
	.ifne	(secure_call - ara_gate_dom1) - ARA_GATE_SECURE_CALL
	.error	"entry/gate.S and ara/gate.h disagree on secure_call's offset"
	.endif
	.ifne	(.Ldom1_entered - ara_gate_dom1) - ARA_GATE_DOM1_ENTERED
	.error	"entry/gate.S and ara/gate.h disagree on the DOM1 window"
	.endif
	.ifne	(.Ldom1_entered_end - ara_gate_dom1) - ARA_GATE_DOM1_ENTERED_END
	.error	"entry/gate.S and ara/gate.h disagree on the DOM1 window"
	.endif
.Lnot_ready:
	mov	x0, #ARA_GATE_STATUS_NOT_READY
	mov	x16, xzr
	mov	x17, xzr
	ret
	.size	secure_call, . - secure_call

	.org	ara_gate_dom1 + ARA_PAGE_SIZE	// zero fill: UDF; fails if page 1 overflows

/* ---- page 2: the signal entry, on DOM2's key --------------------------- */
/*
 * ARA's SIGSYS handler. The kernel runs handlers with POR_EL0_INIT (only
 * key 0, DOM2's, accessible), so this page must be DOM2's, and App code can
 * reach it too. It is built like secure_call: the bridge row lets only this
 * page and DOM0's text execute and no data be touched, so between the msr
 * (whatever x16 the App jumped in with) and the landing, which writes
 * DOM0's row first, only isb and a direct branch run. Every other word of
 * the page is UDF.
 */
ara_gate_sig:
	mov32	x16, ARA_POR_SIGBRIDGE
	msr	POR_EL0, x16
	isb
	b	ara_gate_sig_landing	// the only branch from here into DOM0

/*
 * Where the App's signal handlers return to (ARA calls them with x30 here
 * unless they have a restorer of their own): an rt_sigreturn from App
 * code, which the filter traps to ARA like any other.
 */
	.org	ara_gate_sig + ARA_GATE_SIGRETURN_OFFSET
	mov	x8, #__NR_rt_sigreturn
	svc	#0

	.org	ara_gate_sig + ARA_PAGE_SIZE	// zero fill: UDF; fails if page 2 overflows

/* ---- the control block: DOM0 data, written by libara at initialisation --- */
	.section .ara_gate_data, "aw", %progbits
	.balign	ARA_PAGE_SIZE
	.hidden	ara_gate_cb
ara_gate_cb:
	.zero	ARA_GATE_DATA_SIZE

	.section .note.GNU-stack, "", %progbits
