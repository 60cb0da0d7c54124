/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of the gate, shared by the entry object (entry/gate.S) and libara's
 * initialisation. Included from assembly.
 *
 * .ara_gate is three pages:
 *   page 0 (DOM0)  the landings that the trampoline and the signal entry
 *                  branch to, and the way out, whose POR_EL0 write is the
 *                  page's last instruction;
 *   page 1 (DOM1)  the App-callable trampoline: secure_call;
 *   page 2 (DOM2)  the signal entry (the handler of every signal ARA owns)
 *                  and the return trampoline of the App's handlers.
 * .ara_gate_data is one DOM0 page holding the control block below.
 */
#ifndef ARA_GATE_H
#define ARA_GATE_H

#define ARA_PAGE_SIZE 4096
#define ARA_GATE_TEXT_SIZE (3 * ARA_PAGE_SIZE)
#define ARA_GATE_DATA_SIZE ARA_PAGE_SIZE
#define ARA_GATE_DOM1_OFFSET ARA_PAGE_SIZE
#define ARA_GATE_SIG_OFFSET (2 * ARA_PAGE_SIZE)
/* In page 2: the return trampoline of the App's signal handlers. */
#define ARA_GATE_SIGRETURN_OFFSET 64

/*
 * The row the signal entry switches to on its way into DOM0: the entry
 * page (DOM2's key) and DOM0's text executable, nothing readable or
 * writable. The kernel enters the handler with only key 0 accessible, and
 * DOM0's own row does not execute DOM2 pages, hence a row in between.
 */
#define ARA_POR_SIGBRIDGE ARA_POR_ROW(ARA_PERM_X, ARA_PERM_NONE, ARA_PERM_X)
/*
 * The way out, the last four instructions of page 0:
 *   movz/movk x16, #ARA_POR_LEAVE; mov x17, #0; msr POR_EL0, x16
 */
#define ARA_GATE_LEAVE_OFFSET (ARA_PAGE_SIZE - 16)

/* Statuses the gate itself returns (static-asserted against enum ara_status). */
#define ARA_GATE_STATUS_NOT_READY 1
#define ARA_GATE_STATUS_BUSY 5

/*
 * DOM0 stacks: claimed per call from a bitmap, so no App state picks one.
 * (A test-only variant builds with one, to exercise ARA_E_BUSY.)
 */
#ifndef ARA_DOM0_STACKS
#define ARA_DOM0_STACKS 32
#endif
/*
 * The stacks ARA's signal handler runs on, bits ARA_DOM0_STACKS and up of
 * the same bitmap, apart from the calls' own: a signal that interrupts a
 * call needs a stack while the call holds one, so if both came from one
 * set, threads interrupted in calls that hold every stack would wait for
 * each other for ever. A handler waits for nothing but a handler stack.
 */
#define ARA_DOM0_HANDLER_STACKS 32
#define ARA_DOM0_STACK_SIZE (64 * 1024)

/* The stack ARA's initialisation runs on (libara's .bss, DOM0). */
#define ARA_INIT_STACK_SIZE (64 * 1024)

/* Control block offsets (struct ara_gate_cb). */
#define ARA_CB_CLAIMED 0
#define ARA_CB_STACK_MASK 8
#define ARA_CB_STACK_BASE 16
#define ARA_CB_STACK_STRIDE 24
#define ARA_CB_DISPATCH 32
#define ARA_CB_SIGNAL 40
#define ARA_CB_UNBLOCK 48
#define ARA_CB_HANDLER_MASK 56

/*
 * The call header: the top ARA_CALL_HEADER_SIZE bytes of the DOM0 stack a
 * secure_call runs on, written by the landing (struct ara_call_header).
 */
#define ARA_CALL_HEADER_SIZE 64
#define ARA_CALL_APP_SP 0
#define ARA_CALL_INDEX 8
#define ARA_CALL_APP_X29 16
#define ARA_CALL_APP_X30 24
#define ARA_CALL_STATE 32
#define ARA_CALL_MASK 40
#define ARA_CALL_STATUS 48
#define ARA_CALL_ACTIVE 1   /* the call runs; signals are taken as they come */
#define ARA_CALL_DEFERRED 2 /* signals arrived and wait for the way out */

/*
 * Where a signal can interrupt the gate with DOM0's row, as offsets in page
 * 0 (page 1 for the DOM1 ones); gate.S fails to assemble if its code does
 * not match. libara/src/dom0/interrupted.c says what each window means.
 */
#define ARA_GATE_SECURE_CALL 0x0c      /* page 1: secure_call */
#define ARA_GATE_DOM1_ENTERED 0x2c     /* page 1: the isb after secure_call's msr */
#define ARA_GATE_DOM1_ENTERED_END 0x34 /* page 1: after its branch to the landing */
#define ARA_GATE_CLAIM_CHECK 0x40      /* the landing's cbnz after its stxr */
#define ARA_GATE_CLAIMED 0x44	       /* the stack is the call's */
#define ARA_GATE_HEADER_DONE 0x64      /* the header is written; sp moves to it next */
#define ARA_GATE_EXIT 0x74	       /* the dispatcher has returned */
#define ARA_GATE_SP_RESTORED 0x90      /* sp, x29 and x30 are the App's again */
#define ARA_GATE_RELEASE_CHECK 0xb0    /* the cbnz after the release's stlxr */
#define ARA_GATE_SCRUB 0xb4	       /* the stack is given back */
#define ARA_GATE_BUSY 0xf8	       /* no stack was free */
#define ARA_GATE_DEFERRED 0x104	       /* the way out through ara_unblock_deferred */
#define ARA_GATE_SIG_LANDING 0x11c     /* the signal landing, to the way out */

#ifdef __ASSEMBLER__
/*
 * Zeroes x1-x15: what a way back to the App does with the caller-saved
 * registers DOM0 may have used (x16/x17 are handled by the way out itself).
 */
.macro ara_zero_x1_to_x15
	.irp	n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	mov	x\n, xzr
	.endr
.endm
#else
#include <stddef.h>
#include <stdint.h>

/*
 * The bitmap of claimed stacks is not here but in DOM0's arena, on a page
 * that a forked child gets zeroed (MADV_WIPEONFORK): the stacks that other
 * threads held at the fork are free again in the child, where those threads
 * do not exist.
 */
struct ara_gate_cb {
	uint64_t claimed;      /* address of the bitmap: bit i set, stack i in use */
	uint64_t stack_mask;   /* bit i set: stack i is one for calls */
	uint64_t stack_base;   /* stack i's top is base + (i + 1) * stride */
	uint64_t stack_stride; /* guard page + stack */
	uint64_t dispatch;     /* ara_dispatch in libara.so */
	uint64_t signal;       /* ara_signal in libara.so */
	uint64_t unblock;      /* ara_unblock_deferred in libara.so */
	uint64_t handler_mask; /* bit i set: stack i is one for ARA's signal handler */
};

struct ara_call_header {
	uint64_t app_sp, stack_index, app_x29, app_x30;
	uint64_t state;	 /* ARA_CALL_ACTIVE or ARA_CALL_DEFERRED */
	uint64_t mask;	 /* ARA_CALL_DEFERRED: the App's signal mask to restore */
	uint64_t status; /* on the way out: what the dispatcher returned */
	uint64_t pad;
};

_Static_assert(offsetof(struct ara_gate_cb, claimed) == ARA_CB_CLAIMED, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_mask) == ARA_CB_STACK_MASK, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_base) == ARA_CB_STACK_BASE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_stride) == ARA_CB_STACK_STRIDE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, dispatch) == ARA_CB_DISPATCH, "cb");
_Static_assert(offsetof(struct ara_gate_cb, signal) == ARA_CB_SIGNAL, "cb");
_Static_assert(offsetof(struct ara_gate_cb, unblock) == ARA_CB_UNBLOCK, "cb");
_Static_assert(offsetof(struct ara_gate_cb, handler_mask) == ARA_CB_HANDLER_MASK, "cb");
_Static_assert(sizeof(struct ara_call_header) == ARA_CALL_HEADER_SIZE, "header");
_Static_assert(offsetof(struct ara_call_header, app_sp) == ARA_CALL_APP_SP, "header");
_Static_assert(offsetof(struct ara_call_header, stack_index) == ARA_CALL_INDEX, "header");
_Static_assert(offsetof(struct ara_call_header, app_x29) == ARA_CALL_APP_X29, "header");
_Static_assert(offsetof(struct ara_call_header, app_x30) == ARA_CALL_APP_X30, "header");
_Static_assert(offsetof(struct ara_call_header, state) == ARA_CALL_STATE, "header");
_Static_assert(offsetof(struct ara_call_header, mask) == ARA_CALL_MASK, "header");
_Static_assert(offsetof(struct ara_call_header, status) == ARA_CALL_STATUS, "header");
_Static_assert(ARA_DOM0_STACKS + ARA_DOM0_HANDLER_STACKS <= 64,
	       "the free-stack bitmap is one 64-bit word");
#endif

#endif
