/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gate: ARA's entries, secure_call and the RTM's append (page 1) and
 * the signal entry (page 2, below), and the only code in the process that writes POR_EL0 once ARA
 * has initialised (invariants IV1, IV2, IV3).
 *
 * int secure_call(uint32_t fid, void *arg)
 *   x0 = fid, x1 = arg (any values; fid is compared in all 64 bits)
 *   -> x0 = enum ara_status
 *
 * Entry:    DOM2's row in POR_EL0 (checked: otherwise ARA_E_NOT_READY).
 * Exit:     DOM2's row in POR_EL0, switched by the last instruction of a DOM0
 *           page so that the next fetch comes from the DOM1 page.
 * Stack:    a call that reaches a service runs on a DOM0 stack it claims
 *           with one atomic on the stack's header; the App's sp, x29 and
 *           x30 are kept in that header, never read from App memory. The
 *           null call (ARA_FID_NULL) is answered in the landing, with no
 *           stack and no memory access.
 * Corrupts: x1-x17 and NZCV (AAPCS64 caller-saved). On return x16 holds
 *           DOM2's row (the App's own, public), NZCV and the others zero
 *           or the App's own: after the null call x1-x15 and x17 are the
 *           App's, untouched, and NZCV the flags of comparing the fid with
 *           ARA_FID_NULL; the side exits (a wrong row, no free stack)
 *           leave the registers they never wrote the App's. Nothing of
 *           DOM0 leaves in them. x18 and x19-x29 are preserved:
 *           DOM0 is built with -ffixed-x18 and follows AAPCS64. The SIMD/FP
 *           registers: DOM0 is built with -mgeneral-regs-only but for the
 *           AES code, and the services that reach it scrub them on their way
 *           out (ARA_SVC_SIMD, libara/src/dom0/dispatch.c).
 *
 * Why entering anywhere is safe (IV3); the App can branch to any instruction
 * of page 1 with any register values (ara_rtm_append and its landing are
 * built the same way as secure_call and its landing):
 *   - before the msr, and after it, POR_EL0 holds the App's own row;
 *   - at the msr, with x16 chosen by the App, the only instructions that can
 *     run before DOM0 code are isb and a direct branch to the landing; the
 *     landing touches no memory before it has compared x16, the row the msr
 *     wrote, with DOM0's and left through the way out if they differ (the
 *     null call's answer, before that compare, touches no memory either);
 *     it then claims a stack and calls the function the service table
 *     names for the fid, after a full compare of the fid;
 *   - every other word of page 1 is zero, which is UDF (undefined);
 *   - page 0 and the control block are DOM0: the App's row can neither
 *     execute nor read them.
 *
 * A signal can arrive at any instruction of page 0 with DOM0's row:
 * libara/src/interrupt.c turns such an interruption into an App state (the
 * call rolled back to secure_call, or forward to its return) using the
 * window offsets this object names for C (for_c below): the build writes
 * them from the object into ara/gate_offsets.h; inside a service, the
 * signal waits for the way out.
 *
 * Page 0's layout: the side exits and slow paths at its start, then the
 * signal landing, the zeroes, the RTM append's landing, then (ending at
 * the page's last word) the landing of secure_call and its fast path, one
 * straight line through the call to the way out. Each entry has its
 * straight line, its offsets named with for_c, and its windows in
 * interrupt.c. What places code (the landing, the RTM append's entry, the
 * zeroes, the sigreturn trampoline, the way out at the page's end) are
 * constants of ara/gate.h, and .org puts the code there or fails.
 */
#include <asm/unistd.h>

#include "ara/domains.h"
#include "ara/gate.h"

#define POR_EL0 S3_3_C10_C2_4

	.arch	armv8.1-a		// LSE atomics: every POE CPU has them

/*
 * Claims the lowest free DOM0 stack of the set x13 (a mask): x16 =
 * &ara_gate_cb, x12 = &bitmap in, x15 = its index out; branches to \busy if
 * none is free. Uses x14, x17. (The signal landing's handler stacks.)
 */
.macro claim_stack busy
1:	ldaxr	x17, [x12]
	bic	x14, x13, x17
	cbz	x14, \busy
	rbit	x15, x14
	clz	x15, x15
	mov	x14, #1
	lsl	x14, x14, x15
	orr	x17, x17, x14
	stxr	w14, x17, [x12]
	cbnz	w14, 1b
.endm

/*
 * Names label's offset in its page (from base, the page's start) for C:
 * the absolute symbol ara_gate_offset_<name> of this object, which
 * entry/gate-offsets.cmake writes into ara/gate_offsets.h as
 * ARA_GATE_<NAME>, and checks the checked-in header against at every
 * arm64 build. The assembler resolves it once the code is laid out, so it
 * can measure across an .org.
 */
.macro for_c label, name, base=ara_gate_dom0
	.set	ara_gate_offset_\name, \label - \base
.endm

	.section .ara_gate, "ax", %progbits
	.balign ARA_PAGE_SIZE

/* ---- page 0: DOM0 ---------------------------------------------------- */
ara_gate_dom0:

/* Side exits, each with sp, x29 and x30 the App's and no stack held. */
.Lnull:					// ARA_FID_NULL: ARA_OK
	mov	x0, xzr
	b	.Lleave
.Lwrong_row:				// the App jumped to secure_call's msr
	mov	x0, #ARA_GATE_STATUS_NOT_READY
	mov	x17, xzr		// the row compared with (public, but not the App's)
	msr	nzcv, xzr
	b	.Lleave
.Lbusy:					// every DOM0 stack is taken
	mov	x0, #ARA_GATE_STATUS_BUSY
	mov	x13, xzr		// DOM0 addresses
	mov	x17, xzr
	msr	nzcv, xzr
	b	.Lleave

.Ltaken:				// x13's stack is another call's: the next one
	add	x13, x13, #(ARA_DOM0_STACK_STRIDE >> 12), lsl #12
	ldr	x17, [x16, #ARA_CB_HEADERS_END]
	cmp	x13, x17
	b.lo	.Lclaim
	b	.Lbusy

.Lmiss:					// the slot holds another fid, or none
	and	x16, x16, #~(ARA_GATE_SLOTS * ARA_GATE_SLOT_SIZE - 1)	// the control block
	ldr	x12, [x16, #ARA_CB_NOFUNC]
	b	.Lcall

.Ldeferred:				// signals waited: x0 = status, sp = header
	str	x0, [sp, #ARA_CALL_STATUS]
	adrp	x16, ara_gate_cb
	ldr	x16, [x16, #ARA_CB_UNBLOCK]
	blr	x16			// the App's mask again: what waited is taken there
	ldr	x0, [sp, #ARA_CALL_STATUS]
	str	xzr, [sp, #ARA_CALL_STATE]
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
	mov_row	x16, ARA_POR_ENTER
	msr	POR_EL0, x16
	isb
	mov_row	x17, ARA_POR_ENTER	// a jump to the msr with another row stops here
	cmp	x16, x17
	b.ne	.Lsig_wrong_row
	mov	x9, sp			// where the frame should be
	adrp	x16, ara_gate_cb	// page-aligned: no :lo12: part
.Lsig_claim:
	ldr	x12, [x16, #ARA_CB_CLAIMED]
	ldr	x13, [x16, #ARA_CB_HANDLER_MASK]	// the handler's own stacks
	claim_stack .Lsig_wait
	ldr	x13, [x16, #ARA_CB_STACK_BASE]	// (beyond ldp's reach)
	ldr	x14, [x16, #ARA_CB_STACK_STRIDE]
	madd	x13, x15, x14, x13
	add	x13, x13, x14		// top of stack x15
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
.Lsig_wrong_row:			// a service's code jumped to the msr (the kernel's and the
	udf	#0			// signal entry's come with this row): it ends there

	/*
	 * What the way out loads into the caller-saved registers: zeroes in
	 * this read-only page, which no DOM0 write can reach. Its ldp use
	 * the offset, so .org places them (zero fill up to them: UDF).
	 */
	.org	ara_gate_dom0 + ARA_GATE_ZEROES
.Lzeroes:				// 16-byte aligned (ara/gate.h); udf #0 is the zero word
	.rept	32
	udf	#0
	.endr

/*
 * The RTM's append (int ara_rtm_append(uint64_t entry), ara/rtm.h), reached
 * only by the direct branch at the end of ara_rtm_append (page 1), with the
 * App's x0 (the entry), x29, x30 and sp, and x16 the row its msr wrote.
 * No stack: it reserves a slot of the open segment (struct
 * ara_rtm_segment, services/rtm/rtm_state.h) with one atomic add on its
 * fill and stores the entry there, as services/rtm/log.c's append does.
 * Anything else (not an entry, no log yet, the segment full) takes
 * secure_call's landing as secure_call(ARA_FID_RTM_LOG, entry): refused,
 * made, sealed or ARA_RTM_LOG_FULL there.
 * Exit (ARA_OK): x0 = 0, x16 = DOM2's row, x17 = 0, NZCV the flags of
 *           comparing a slot index with the capacity (the same for every
 *           append), x1-x15 the App's own, untouched.
 */
ara_gate_rtm_landing:
	mov_row	x17, ARA_POR_ENTER
	cmp	x16, x17
	b.ne	.Lwrong_row		// nothing touched memory before this
	lsr	x17, x0, #ARA_GATE_RTM_ENTRY_SHIFT
	tst	x17, #(ARA_GATE_RTM_ENTRY_MASK * 0x0001000100010001)
	ccmp	x17, #0, #4, eq		// Z: a bit out of place, or kind 0
#ifndef ARA_TEST_VARIANT_NO_RTM_ENTRY_CHECK
	b.eq	.Lrtm_regular		// not an entry: refused and counted there
#else
	nop				// test-only variant: any value is stored
#endif
	adrp	x16, ara_gate_cb	// page-aligned: no :lo12: part
	ldr	x16, [x16, #ARA_CB_LIVE]
	ldr	x16, [x16, #ARA_GATE_LIVE_RTM_OPEN]	// the open segment
	cbz	x16, .Lrtm_regular	// no log yet (or a forked child's wiped state)
	mov	x17, #1
	ldadda	x17, x17, [x16]		// x17 = the slot reserved (acquire: after its zeroing)
.Lrtm_reserved:
	cmp	x17, #ARA_GATE_RTM_ENTRIES
	b.hs	.Lrtm_regular		// full: nothing reserved, sealed there
	add	x16, x16, x17, lsl #3
.Lrtm_store:
	str	x0, [x16, #ARA_GATE_RTM_SLOTS]	// not 0: the seal sees the slot written
.Lrtm_stored:
	mov	x0, xzr			// ARA_OK
	mov	x17, xzr		// the slot
	b	.Lleave
.Lrtm_regular:				// as secure_call(ARA_FID_RTM_LOG, entry)
	mov	x1, x0
	movz	x0, #(ARA_GATE_FID_RTM_LOG >> 16), lsl #16
	movk	x0, #(ARA_GATE_FID_RTM_LOG & 0xffff)
	mov_row	x16, ARA_POR_ENTER	// the row checked above
	b	ara_gate_landing
.Lrtm_end:

	/* Page 0's windows before the landing (libara/src/interrupt.c). */
	for_c	.Lnull, null			// the null call's answer
	for_c	.Lwrong_row, wrong_row		// entered with another row than DOM0's
	for_c	.Lbusy, busy			// no stack was free
	for_c	.Ltaken, taken			// a stack was taken: try the next
	for_c	.Lmiss, miss			// no service has the fid: ara_gate_nofunc
	for_c	.Ldeferred, deferred		// the way out through ara_unblock_deferred
	for_c	ara_gate_sig_landing, sig_landing	// the signal landing, to the fast path
	for_c	ara_gate_rtm_landing, rtm_landing	// the RTM append's landing: nothing done yet
	for_c	.Lrtm_reserved, rtm_reserved	// after the ldadd: x17 = the slot, x16 = the segment
	for_c	.Lrtm_store, rtm_store		// the str: x16 = the slot - ARA_GATE_RTM_SLOTS
	for_c	.Lrtm_stored, rtm_stored	// the entry is in its slot
	for_c	.Lrtm_regular, rtm_regular	// to secure_call's landing: x0 = the entry, then x1
	for_c	.Lrtm_end, rtm_end		// after the branch to secure_call's landing

	/* Zero fill up to the landing: 0x00000000 is UDF. */
	.org	ara_gate_dom0 + ARA_GATE_LANDING
/*
 * Reached only by the direct branch at the end of secure_call, with the
 * App's x0, x1, x29, x30 and sp, and x16 the row its msr wrote.
 */
ara_gate_landing:
	cmp	x0, #ARA_GATE_FID_NULL
	b.eq	.Lnull			// answered here: no stack, no memory
	mov_row	x17, ARA_POR_ENTER
	cmp	x16, x17
	b.ne	.Lwrong_row		// nothing touched memory before this
	adrp	x16, ara_gate_cb	// page-aligned: no :lo12: part
	ldr	x13, [x16, #ARA_CB_HEADERS]	// stack 0's header, its claim word first
.Lclaim:
	ldsetal	x16, x17, [x13]		// non-zero: taken; x17 = what it was
.Lclaim_check:
	cbnz	x17, .Ltaken
.Lclaimed:
	/* The header (struct ara_call_header): the App's state, kept in DOM0. */
	mov	x14, sp
	stp	x14, x29, [x13, #ARA_CALL_APP_SP]
	stp	x30, xzr, [x13, #ARA_CALL_APP_X30]	// state: ARA_CALL_ACTIVE
	stp	x0, x1, [x13, #ARA_CALL_FID]	// the argument's DOM0 copy, and the fid
	mov	sp, x13
.Lon_stack:
	ara_gate_slot_address x16, x14
	ldp	x17, x12, [x16]		// the slot: fid, function
	cmp	x17, x0
	b.ne	.Lmiss
.Lcall:
	add	x0, sp, #ARA_CALL_ARG
	blr	x12			// x0 = fn(&header->arg)
.Lexit:
	cmp	w0, #ARA_GATE_STATUS_COUNT	// only documented statuses leave
	mov	w16, #ARA_GATE_STATUS_INTERNAL
	csel	w0, w0, w16, lo
.Lrestore:
	ldp	x14, x29, [sp, #ARA_CALL_APP_SP]
	ldp	x30, x16, [sp, #ARA_CALL_APP_X30]	// x16 = state
	cbnz	x16, .Ldeferred
	/* x1-x15, x17 from zeroes in this page: nothing else of DOM0 leaves. */
	adrp	x17, ara_gate_dom0	// page 0 itself
	ldp	x1, x2, [x17, #ARA_GATE_ZEROES]
	ldp	x3, x4, [x17, #ARA_GATE_ZEROES + 16]
	ldp	x5, x6, [x17, #ARA_GATE_ZEROES + 32]
	ldp	x7, x8, [x17, #ARA_GATE_ZEROES + 48]
	ldp	x9, x10, [x17, #ARA_GATE_ZEROES + 64]
	ldp	x11, x12, [x17, #ARA_GATE_ZEROES + 80]
	ldp	x13, x15, [x17, #ARA_GATE_ZEROES + 96]
	stlr	xzr, [sp]		// the stack is free again
.Lreleased:
	mov	sp, x14
	ldp	x14, x17, [x17, #ARA_GATE_ZEROES + 112]	// the base last
	msr	nzcv, xzr
.Lleave:				// x17 is the App's own or zero (the side exits)
	mov_row	x16, ARA_POR_LEAVE
	msr	POR_EL0, x16		// last word of the DOM0 page
	/*
	 * .org cannot move backwards: if the way out ends past the page, this
	 * fails the build; the check below, if it ends before.
	 */
	.org	ara_gate_dom0 + ARA_PAGE_SIZE

	/* The msr is the page's last word (the landing is where the first .org
	 * put it; the assembler cannot measure across an .org here). */
	.ifne	(.Lleave - ara_gate_landing) - (ARA_GATE_LEAVE_OFFSET - ARA_GATE_LANDING)
	.error	"the way out no longer ends at the last word of page 0 (ARA_GATE_LEAVE_OFFSET)"
	.endif
	/* The fast path's windows (libara/src/interrupt.c). */
	for_c	.Lclaim_check, claim_check	// the cbnz after the claim's ldsetal
	for_c	.Lclaimed, claimed		// the stack is the call's
	for_c	.Lon_stack, on_stack		// sp is the header: fid and arg are in it
	for_c	.Lexit, exit			// the service has returned
	for_c	.Lreleased, released		// the stack is given back; sp next

/* ---- page 1: DOM1 ---------------------------------------------------- */
ara_gate_dom1:
	isb				// first fetch under the App's row
	ret

	.globl	secure_call
	.type	secure_call, %function
secure_call:
	mrs	x16, POR_EL0
	cmp	x16, #ARA_POR_LEAVE
	b.ne	.Lnot_ready		// no ARA in this process, or not called from DOM2
	mov_row	x16, ARA_POR_ENTER
	msr	POR_EL0, x16
.Ldom1_entered:				// DOM0's row from here: ara/gate.h's DOM1 window
	isb
	b	ara_gate_landing	// the only branch from DOM1 into DOM0
.Ldom1_entered_end:
	for_c	secure_call, secure_call, ara_gate_dom1
	for_c	.Ldom1_entered, dom1_entered, ara_gate_dom1	// the isb after secure_call's msr
	for_c	.Ldom1_entered_end, dom1_entered_end, ara_gate_dom1	// after its branch to the landing
.Lnot_ready:
	mov	x0, #ARA_GATE_STATUS_NOT_READY
	ret
	.size	secure_call, . - secure_call

/*
 * int ara_rtm_append(uint64_t entry): the RTM's append (ara/rtm.h), built
 * like secure_call; its landing (page 0) says what it does.
 *   x0 = entry (any value) -> x0 = enum ara_status
 * Corrupts: as secure_call; an append that returns ARA_OK leaves x1-x15
 *           untouched.
 */
	.org	ara_gate_dom1 + ARA_GATE_RTM_APPEND	// zero fill: UDF
	.globl	ara_rtm_append
	.type	ara_rtm_append, %function
ara_rtm_append:
	mrs	x16, POR_EL0
	cmp	x16, #ARA_POR_LEAVE
	b.ne	.Lrtm_not_ready		// no ARA in this process, or not called from DOM2
	mov_row	x16, ARA_POR_ENTER
	msr	POR_EL0, x16
.Lrtm_entered:				// DOM0's row from here: ara/gate.h's window
	isb
	b	ara_gate_rtm_landing	// its only branch into DOM0
.Lrtm_entered_end:
	/* The .org above placed ara_rtm_append (it fails if secure_call ends past it). */
	for_c	.Lrtm_entered, rtm_entered, ara_gate_dom1	// the isb after its msr
	for_c	.Lrtm_entered_end, rtm_entered_end, ara_gate_dom1	// after its branch to the landing
.Lrtm_not_ready:
	mov	x0, #ARA_GATE_STATUS_NOT_READY
	ret
	.size	ara_rtm_append, . - ara_rtm_append

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
	mov_row	x16, ARA_POR_SIGBRIDGE
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

#ifdef ARA_TEST_VARIANT_NO_RTM_ENTRY_CHECK
/* ara-loader refuses this entry object unless ARA_ALLOW_TEST_VARIANT=1 (tests/variants). */
	.section .ara_test_variant, "a", %progbits
	.asciz	"no-rtm-entry-check"
#endif

/* ---- the control block: DOM0 data, written by libara at initialisation --- */
	.section .ara_gate_data, "aw", %progbits
	.balign	ARA_PAGE_SIZE
	.hidden	ara_gate_cb
ara_gate_cb:
	.zero	ARA_GATE_DATA_SIZE

	.section .note.GNU-stack, "", %progbits
