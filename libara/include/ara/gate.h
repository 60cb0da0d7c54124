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
	uint64_t stack_mask;   /* bit i set: stack i exists */
	uint64_t stack_base;   /* stack i's top is base + (i + 1) * stride */
	uint64_t stack_stride; /* guard page + stack */
	uint64_t dispatch;     /* ara_dispatch in libara.so */
	uint64_t signal;       /* ara_signal in libara.so */
};

_Static_assert(offsetof(struct ara_gate_cb, claimed) == ARA_CB_CLAIMED, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_mask) == ARA_CB_STACK_MASK, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_base) == ARA_CB_STACK_BASE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_stride) == ARA_CB_STACK_STRIDE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, dispatch) == ARA_CB_DISPATCH, "cb");
_Static_assert(offsetof(struct ara_gate_cb, signal) == ARA_CB_SIGNAL, "cb");
_Static_assert(ARA_DOM0_STACKS <= 64, "the free-stack bitmap is one 64-bit word");
#endif

#endif
