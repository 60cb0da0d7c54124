/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Layout of the gate, shared by the entry object (entry/gate.S) and libara's
 * initialisation. Included from assembly.
 *
 * .ara_gate is three pages:
 *   page 0 (DOM0)  the landings that the trampoline and the signal entry
 *                  branch to, and the way out, whose POR_EL0 write is the
 *                  page's last instruction;
 *   page 1 (DOM1)  the App-callable trampolines: secure_call and
 *                  ara_rtm_append, the RTM's stackless append;
 *   page 2 (DOM2)  the signal entry (the handler of every signal ARA owns)
 *                  and the return trampoline of the App's handlers.
 * .ara_gate_data is one DOM0 page holding the control block below.
 *
 * Two kinds of offsets into those pages. Inputs, here: where gate.S places
 * code (the landing, the RTM append's entry, the zeroes, the sigreturn
 * trampoline, the way out at the end of page 0), with .org, which fails
 * the build if the code before does not fit; gate.S's own instructions use
 * some of them. Outputs, in ara/gate_offsets.h (included below, for C):
 * where labels inside that code fell, the windows libara/src/interrupt.c
 * tells apart when a signal interrupts the gate. gate.S names each with
 * for_c (an absolute symbol in its object), and entry/gate-offsets.cmake
 * writes the header from the object's symbols. The header is checked in,
 * and every arm64 build regenerates it and fails, with the command that
 * updates it, if the two differ: the host tree, which unit-tests
 * interrupt.c, assembles no gate, and a changed window is worth a look at
 * interrupt.c before its numbers are taken.
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
 * The way out, the last two instructions of page 0:
 *   movz x16, #ARA_POR_LEAVE; msr POR_EL0, x16
 */
#define ARA_GATE_LEAVE_OFFSET (ARA_PAGE_SIZE - 8)
/* Page 0: secure_call's landing and fast path, which end at the way out. */
#define ARA_GATE_LANDING 0xf58
/* Page 0: 128 zero bytes, what the way out loads into x1-x15 and x17. */
#define ARA_GATE_ZEROES 0x100
/* Page 1: ara_rtm_append, after secure_call. */
#define ARA_GATE_RTM_APPEND 0x40

/* Statuses the gate itself returns (static-asserted against enum ara_status). */
#define ARA_GATE_STATUS_OK 0
#define ARA_GATE_STATUS_NOT_READY 1
#define ARA_GATE_STATUS_BUSY 5
/* The null call, answered in the landing, and the dispatcher's status filter. */
#define ARA_GATE_FID_NULL 1
#define ARA_GATE_STATUS_INTERNAL 9
#define ARA_GATE_STATUS_COUNT 17

/*
 * DOM0 stacks: one per call, claimed by an atomic on its header's claim
 * word, so no App state picks one. (A test-only variant of libara builds
 * with one, to exercise ARA_E_BUSY: the gate takes the number from the
 * control block.)
 */
#ifndef ARA_DOM0_STACKS
#define ARA_DOM0_STACKS 32
#endif
/*
 * The stacks ARA's signal handler runs on, after the calls' own and
 * claimed from a bitmap (struct ara_gate_cb's claimed, bits ARA_DOM0_STACKS
 * and up): a signal that interrupts a call needs a stack while the call
 * holds one, so if both came from one set, threads interrupted in calls
 * that hold every stack would wait for each other for ever. A handler
 * waits for nothing but a handler stack.
 */
#define ARA_DOM0_HANDLER_STACKS 32
#define ARA_DOM0_STACK_SIZE (64 * 1024)
/* Guard page + stack: an add's shifted immediate in gate.S. */
#define ARA_DOM0_STACK_STRIDE (ARA_PAGE_SIZE + ARA_DOM0_STACK_SIZE)

/* The stack ARA's initialisation runs on (libara's .bss, DOM0). */
#define ARA_INIT_STACK_SIZE (64 * 1024)

/*
 * The service table, in the control block: a slot per hash of the function
 * ID, built at initialisation (a collision is fatal there), with the full
 * 64-bit fid compared on every call. A slot holds the fid and the DOM0
 * function the gate calls with x0 = the call's argument slot (struct
 * ara_call_header's arg): the service's handler itself for a service with
 * no or a value argument, else the dispatcher's copying wrapper. Empty
 * slots call ara_gate_nofunc.
 */
#define ARA_GATE_SLOTS 128
#define ARA_GATE_HASH_SHIFT 11 /* module m, function f < 32: slot (m % 4) * 32 + f */
#define ARA_GATE_SLOT_SIZE 16

/*
 * Control block offsets (struct ara_gate_cb). The table comes first: the
 * control block is page-aligned, so a slot's address is the block's with
 * the slot number inserted at bit 4 (one bfi, ara_gate_slot_address).
 */
#define ARA_CB_TABLE 0
#define ARA_CB_HEADERS (ARA_GATE_SLOTS * ARA_GATE_SLOT_SIZE)
#define ARA_CB_HEADERS_END (ARA_CB_HEADERS + 8)
#define ARA_CB_NOFUNC (ARA_CB_HEADERS + 16)
#define ARA_CB_CLAIMED (ARA_CB_HEADERS + 24)
#define ARA_CB_HANDLER_MASK (ARA_CB_HEADERS + 32)
#define ARA_CB_STACK_BASE (ARA_CB_HEADERS + 40)
#define ARA_CB_STACK_STRIDE (ARA_CB_HEADERS + 48)
#define ARA_CB_SIGNAL (ARA_CB_HEADERS + 56)
#define ARA_CB_UNBLOCK (ARA_CB_HEADERS + 64)
#define ARA_CB_LIVE (ARA_CB_HEADERS + 72)

/*
 * The call header: the top ARA_CALL_HEADER_SIZE bytes of a call's DOM0
 * stack (struct ara_call_header). Its claim word comes first (an LSE
 * atomic takes no offset).
 */
#define ARA_CALL_HEADER_SIZE 80
#define ARA_CALL_CLAIM 0
#define ARA_CALL_APP_SP 8
#define ARA_CALL_APP_X29 16
#define ARA_CALL_APP_X30 24
#define ARA_CALL_STATE 32
#define ARA_CALL_FID 40
#define ARA_CALL_ARG 48
#define ARA_CALL_MASK 56
#define ARA_CALL_STATUS 64
#define ARA_CALL_DOMAIN 72
#define ARA_CALL_ACTIVE 0   /* the call runs; signals are taken as they come */
#define ARA_CALL_DEFERRED 2 /* signals arrived and wait for the way out */

/*
 * The RTM's append entry (ara_rtm_append, ara/rtm.h), the one entry of a
 * service: what its landing reads of the RTM's state in DOM0, asserted
 * against services/rtm (log.c) and libara/src/dom0/live.h. The open
 * segment is struct ara_rtm_segment (services/rtm/rtm_state.h): a fill
 * word at its start, then ARA_GATE_RTM_ENTRIES slots.
 */
#define ARA_GATE_FID_RTM_LOG 0x20001    /* ARA_FID_RTM_LOG: the append's regular path */
#define ARA_GATE_RTM_ENTRIES 0x20000    /* ARA_RTM_SEGMENT_ENTRIES */
#define ARA_GATE_RTM_SLOTS 64           /* offsetof(struct ara_rtm_segment, slot) */
#define ARA_GATE_LIVE_RTM_OPEN 80       /* offsetof(struct ara_live, rtm_open) */
/* An entry's top 16 bits: its kind (1..3) above 8 zero bits (a user address). */
#define ARA_GATE_RTM_ENTRY_SHIFT 48
#define ARA_GATE_RTM_ENTRY_MASK 0xfcff  /* bits that must be 0 there (kind bits 0-1 aside) */

#ifdef __ASSEMBLER__
/*
 * The address of the fid in x0's slot of the service table, into \cb (the
 * control block's address in, page-aligned, the table at its start);
 * \tmp is used. The slot number is the hash's low bits, inserted by bfi.
 */
.macro ara_gate_slot_address cb, tmp
	.if	ARA_CB_TABLE != 0 || ARA_GATE_SLOTS != 128 || ARA_GATE_SLOT_SIZE != 16
	.error	"the service table is no longer 128 slots of 16 bytes at the control block's start"
	.endif
	eor	\tmp, x0, x0, lsr #ARA_GATE_HASH_SHIFT
	bfi	\cb, \tmp, #4, #7	// log2 ARA_GATE_SLOT_SIZE, log2 ARA_GATE_SLOTS
.endm

/* Zeroes x1-x15 (ctor.S's way back to ld.so, through the gate's way out). */
.macro ara_zero_x1_to_x15
	.irp	n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	mov	x\n, xzr
	.endr
.endm
#else
#include <stddef.h>
#include <stdint.h>

#include "ara/gate_offsets.h"

static inline uint64_t ara_gate_slot(uint64_t fid)
{
	return (fid ^ (fid >> ARA_GATE_HASH_SHIFT)) & (ARA_GATE_SLOTS - 1);
}

struct ara_gate_slot {
	uint64_t fid; /* compared in full: 0 in an empty slot */
	uint64_t fn;  /* enum ara_status fn(uint64_t *arg), in libara.so */
};

/*
 * Written once at initialisation. The stacks' claim words and the
 * handlers' bitmap are not here but in DOM0's arena, on pages that a
 * forked child gets zeroed (MADV_WIPEONFORK): the stacks that other
 * threads held at the fork are free again in the child, where those
 * threads do not exist.
 */
struct ara_gate_cb {
	struct ara_gate_slot table[ARA_GATE_SLOTS];
	uint64_t headers;      /* the call header of stack 0; stack i's is i strides up */
	uint64_t headers_end;  /* the last call stack's header, one stride up */
	uint64_t nofunc;       /* ara_gate_nofunc: what a fid without a service calls */
	uint64_t claimed;      /* address of the handler stacks' bitmap: bit i set, stack i in use */
	uint64_t handler_mask; /* bit i set: stack i is one for ARA's signal handler */
	uint64_t stack_base;   /* stack i's top is base + (i + 1) * stride */
	uint64_t stack_stride; /* ARA_DOM0_STACK_STRIDE */
	uint64_t signal;       /* ara_signal in libara.so */
	uint64_t unblock;      /* ara_unblock_deferred in libara.so */
	uint64_t live;	       /* DOM0's per-process state page (libara/src/dom0/live.h) */
};

struct ara_call_header {
	uint64_t claim;	 /* non-zero: a call runs on this stack */
	uint64_t app_sp, app_x29, app_x30;
	uint64_t state;	 /* ARA_CALL_ACTIVE or ARA_CALL_DEFERRED */
	uint64_t fid;	 /* the App's x0 */
	uint64_t arg;	 /* the App's x1: the service's value argument, or its pointer */
	uint64_t mask;	 /* ARA_CALL_DEFERRED: the App's signal mask to restore */
	uint64_t status; /* on the deferred way out: what the service returned */
	uint64_t domain; /* inside a service domain: the core's sp | the domain's index (domain.S) */
};

_Static_assert(offsetof(struct ara_gate_cb, headers) == ARA_CB_HEADERS, "cb");
_Static_assert(offsetof(struct ara_gate_cb, headers_end) == ARA_CB_HEADERS_END, "cb");
_Static_assert(offsetof(struct ara_gate_cb, nofunc) == ARA_CB_NOFUNC, "cb");
_Static_assert(offsetof(struct ara_gate_cb, claimed) == ARA_CB_CLAIMED, "cb");
_Static_assert(offsetof(struct ara_gate_cb, handler_mask) == ARA_CB_HANDLER_MASK, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_base) == ARA_CB_STACK_BASE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, stack_stride) == ARA_CB_STACK_STRIDE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, signal) == ARA_CB_SIGNAL, "cb");
_Static_assert(offsetof(struct ara_gate_cb, unblock) == ARA_CB_UNBLOCK, "cb");
_Static_assert(offsetof(struct ara_gate_cb, live) == ARA_CB_LIVE, "cb");
_Static_assert(offsetof(struct ara_gate_cb, table) == ARA_CB_TABLE, "cb");
_Static_assert(ARA_GATE_ZEROES % 16 == 0, "the way out's ldp of the zeroes: 16-byte aligned");
/* ara_gate_slot_address's bfi: 7 bits of slot number at bit 4. */
_Static_assert(ARA_GATE_SLOTS == 1 << 7 && ARA_GATE_SLOT_SIZE == 1 << 4 &&
		       sizeof(struct ara_gate_slot) == ARA_GATE_SLOT_SIZE,
	       "the gate's bfi no longer matches the service table");
_Static_assert(sizeof(struct ara_gate_slot) == ARA_GATE_SLOT_SIZE, "slot");
_Static_assert(sizeof(struct ara_gate_cb) <= ARA_GATE_DATA_SIZE, "the control block is one page");
_Static_assert(sizeof(struct ara_call_header) == ARA_CALL_HEADER_SIZE, "header");
_Static_assert(offsetof(struct ara_call_header, claim) == ARA_CALL_CLAIM, "header");
_Static_assert(offsetof(struct ara_call_header, app_sp) == ARA_CALL_APP_SP, "header");
_Static_assert(offsetof(struct ara_call_header, app_x29) == ARA_CALL_APP_X29, "header");
_Static_assert(offsetof(struct ara_call_header, app_x30) == ARA_CALL_APP_X30, "header");
_Static_assert(offsetof(struct ara_call_header, state) == ARA_CALL_STATE, "header");
_Static_assert(offsetof(struct ara_call_header, fid) == ARA_CALL_FID, "header");
_Static_assert(offsetof(struct ara_call_header, arg) == ARA_CALL_ARG, "header");
_Static_assert(offsetof(struct ara_call_header, mask) == ARA_CALL_MASK, "header");
_Static_assert(offsetof(struct ara_call_header, status) == ARA_CALL_STATUS, "header");
_Static_assert(offsetof(struct ara_call_header, domain) == ARA_CALL_DOMAIN, "header");
_Static_assert(ARA_CALL_HEADER_SIZE % 16 == 0, "sp stays 16-byte aligned");
_Static_assert(ARA_DOM0_STACKS + ARA_DOM0_HANDLER_STACKS <= 64,
	       "the handler stacks' bitmap is one 64-bit word");
_Static_assert(ARA_DOM0_STACK_STRIDE % ARA_PAGE_SIZE == 0 && ARA_DOM0_STACK_STRIDE < (1 << 24),
	       "gate.S steps through the stacks with a 12-bit immediate shifted by 12");
#endif

#endif
