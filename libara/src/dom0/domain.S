/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The doors of the service domains (domain.h): the only code that switches
 * POR_EL0 between the core's row and a service domain's.
 *
 * struct ara_domain_exit ara_domain_enter(uint64_t top, uint64_t *header_word, uint64_t d)
 *   x0 = the top of slot (d, i), whose ticket the caller has written;
 *   x1 = &the core's call header i's domain word; x2 = d, a service domain
 *   -> x0 = what the ticket's function returned, x1 = how the call left:
 *   ARA_DOMAIN_RETURNED, or ARA_DOMAIN_RELAYED (the service waits for a
 *   call the core makes for it, ara_domain_yield; the core resumes it with
 *   a ticket for ara_domain_resume), or whatever else the service wrote.
 *
 * Entry:    the core's row, on the core's stack (call stack i, or the
 *           initialisation stack).
 * Exit:     the core's row, the core's sp, x18-x30 as they were; x0, x1
 *           as above.
 * Corrupts: x2-x17 and NZCV (AAPCS64 caller-saved), and whatever of them
 *           the service left.
 *
 * Why entering anywhere is safe: a service whose control flow is taken can
 * branch to any instruction here with any registers.
 *   - Each door's msr writes its domain's row as an immediate and is
 *     followed by a compare of the register it wrote with that immediate:
 *     a jump to the msr with another value stops at the udf, under a row
 *     that lets nothing more than the jumper had, or less.
 *   - A door then calls only what the slot's ticket names: the core
 *     writes a ticket in domain d's own memory right before it enters, and
 *     the door takes it with one atomic swap, so a ticket is used once, by
 *     one thread. A jump into domain d's door from another domain finds no
 *     ticket it can have written (it cannot write d's memory), or takes
 *     the one a call is about to use and runs that call's function on that
 *     call's argument; the call's own thread then stops at the udf.
 *   - The door stores the function's result and a flag in the slot, still
 *     under the domain's row: only that domain (and the core) can.
 *   - The way back writes the core's row as an immediate and compares it
 *     likewise, then believes nothing of the registers: the call is the one
 *     whose slot sp is the exact start of, its domain word must name that
 *     slot's domain, the slot's return flag is taken with one swap (so only
 *     the slot's own domain can end its call), the result read from the
 *     slot, and one compare-and-swap takes the call, so it returns once;
 *     sp, x18-x30 come from the core's stack.
 * The udf ends the process (libara/src/dom0/trap.c: a fault in a service).
 */
#include "ara/domains.h"
#include "ara/gate.h"
#include "domain.h"

#define POR_EL0 S3_3_C10_C2_4

	.arch	armv8.1-a		// LSE atomics: every POE CPU has them
	.text

	.globl	ara_domain_enter
	.hidden	ara_domain_enter
	.type	ara_domain_enter, %function
ara_domain_enter:
	stp	x29, x30, [sp, #-112]!
	mov	x29, sp
	stp	x18, x19, [sp, #16]
	stp	x20, x21, [sp, #32]
	stp	x22, x23, [sp, #48]
	stp	x24, x25, [sp, #64]
	stp	x26, x27, [sp, #80]
	str	x28, [sp, #96]
	mov	x9, sp
	orr	x9, x9, x2		// the domain's index in sp's low bits (16-byte aligned)
	stlr	x9, [x1]		// the way back finds the call by it
	cmp	x2, #ARA_DOMAIN_PROVISION
	b.eq	.Ldoor_provision
	cmp	x2, #ARA_DOMAIN_RTS
	b.eq	.Ldoor_rts
	cmp	x2, #ARA_DOMAIN_RTM
	b.eq	.Ldoor_rtm
	cmp	x2, #ARA_DOMAIN_EXTRA
	b.eq	.Ldoor_extra
	udf	#0			// not a service domain: the caller's bug
	.size	ara_domain_enter, . - ara_domain_enter

/*
 * Domain d's door: its row, checked; the slot x0 is the top of checked
 * to be one of d's; the ticket taken; the function called on d's stack.
 */
.macro door d, key, label
\label:
	mov_row	x16, ARA_POR_SERVICE(\key)
	msr	POR_EL0, x16
	isb
	mov_row	x17, ARA_POR_SERVICE(\key)
	cmp	x16, x17
	b.ne	.Lrefuse
	adrp	x9, ara_domain_map
	add	x9, x9, :lo12:ara_domain_map
	ldr	x10, [x9, #ARA_DOMAIN_MAP_STACKS]
	sub	x10, x0, x10		// (slot index + 1) << ARA_DOMAIN_SLOT_SHIFT, if a slot's top
	tst	x10, #(ARA_DOMAIN_SLOT - 1)
	b.ne	.Lrefuse
	lsr	x10, x10, #ARA_DOMAIN_SLOT_SHIFT
	sub	x10, x10, #1
	lsr	x10, x10, #ARA_DOMAIN_SLOTS_SHIFT
	cmp	x10, #\d		// a slot of d's (0 - 1 shifts to another number)
	b.ne	.Lrefuse
	sub	x9, x0, #ARA_DOMAIN_TICKET
	swpal	xzr, x10, [x9]		// the ticket's function, taken: the ticket is void
	cbz	x10, .Lrefuse
	ldr	x11, [x9, #8]
	sub	sp, x0, #ARA_DOMAIN_RESERVE
	mov	x0, x11
	mov	x29, xzr
	blr	x10
	b	.Lreturned
.endm

	door	ARA_DOMAIN_PROVISION, ARA_PKEY_PROVISION, .Ldoor_provision
	door	ARA_DOMAIN_RTS, ARA_PKEY_RTS, .Ldoor_rts
	door	ARA_DOMAIN_RTM, ARA_PKEY_RTM, .Ldoor_rtm
	door	ARA_DOMAIN_EXTRA, ARA_PKEY_EXTRA, .Ldoor_extra

/*
 * The function returned, x0 its result, under its domain's row: the return
 * goes into the slot, which only this domain and the core can write, so
 * that no other domain can end this call (a jump here from another domain
 * faults on the store).
 */
.Lreturned:
	add	x9, sp, #(ARA_DOMAIN_RESERVE - ARA_DOMAIN_TICKET + 16)
	mov	x10, #ARA_DOMAIN_RETURNED
	stp	x0, x10, [x9]

/* The way back: sp = where the door started the function, the return in its slot. */
ara_domain_back:
	mov_row	x16, ARA_POR_DOM0
	msr	POR_EL0, x16
	isb
	mov_row	x17, ARA_POR_DOM0
	cmp	x16, x17
	b.ne	.Lrefuse
	adrp	x9, ara_domain_map
	add	x9, x9, :lo12:ara_domain_map
	ldr	x10, [x9, #ARA_DOMAIN_MAP_STACKS]
	mov	x11, sp
	add	x11, x11, #ARA_DOMAIN_RESERVE
	sub	x11, x11, x10		// (slot index + 1) << ARA_DOMAIN_SLOT_SHIFT, if a door's sp
	tst	x11, #(ARA_DOMAIN_SLOT - 1)
	b.ne	.Lrefuse
	lsr	x11, x11, #ARA_DOMAIN_SLOT_SHIFT
	sub	x11, x11, #1
	cmp	x11, #(ARA_DOMAIN_COUNT << ARA_DOMAIN_SLOTS_SHIFT)
	b.hs	.Lrefuse
	lsr	x12, x11, #ARA_DOMAIN_SLOTS_SHIFT	// d
	and	x11, x11, #((1 << ARA_DOMAIN_SLOTS_SHIFT) - 1)	// i
	cmp	x11, #ARA_DOM0_STACKS	// a slot with a call stack (the rest have no header)
	b.hs	.Lrefuse
	ldp	x13, x14, [x9, #ARA_DOMAIN_MAP_HEADERS]	// header 0, the stride
	madd	x13, x11, x14, x13
	add	x13, x13, #ARA_CALL_DOMAIN
	ldr	x15, [x13]
	cbz	x15, .Lrefuse		// no call in a domain there
	and	x14, x15, #15
	cmp	x14, x12		// the call entered this slot's domain
	b.ne	.Lrefuse
	add	x9, sp, #(ARA_DOMAIN_RESERVE - ARA_DOMAIN_TICKET + 24)
	swpal	xzr, x1, [x9]		// the return's flag, taken: written by the slot's domain
	cbz	x1, .Lrefuse
	ldur	x0, [x9, #-8]		// its result
	mov	x14, x15
	casal	x14, xzr, [x13]		// taken once
	cmp	x14, x15
	b.ne	.Lrefuse
	and	x15, x15, #~15
	mov	sp, x15
	ldp	x18, x19, [sp, #16]
	ldp	x20, x21, [sp, #32]
	ldp	x22, x23, [sp, #48]
	ldp	x24, x25, [sp, #64]
	ldp	x26, x27, [sp, #80]
	ldr	x28, [sp, #96]
	ldp	x29, x30, [sp], #112
	ret

.Lrefuse:				// a jump into a door, or a way back no call waits for
	udf	#0

/*
 * uint64_t ara_domain_yield(uint64_t top, struct ara_domain_relay *r)
 *   x0 = the top of the running call's slot; x1 = its relay, whose fid and
 *   argument the service has written -> x0 = the relayed call's status,
 *   once the core has resumed the service (ara_domain_resume).
 *
 * Entry:    a service's row, on its slot.
 * Exit:     the core's row, through the way back, with RELAYED as the
 *           return's flag, x2-x8 cleared (the way back writes the rest of
 *           x0-x17); later, through ara_domain_resume, the service's row,
 *           sp and x19-x30 as they were here.
 * Corrupts: x1-x17.
 *
 * Nothing here is trusted more than the service: it saves its own
 * registers in its own slot and leaves as its function's return does; the
 * way back believes none of it but the slot sp names.
 */
	.globl	ara_domain_yield
	.hidden	ara_domain_yield
	.type	ara_domain_yield, %function
ara_domain_yield:
	stp	x19, x20, [x1]
	stp	x21, x22, [x1, #16]
	stp	x23, x24, [x1, #32]
	stp	x25, x26, [x1, #48]
	stp	x27, x28, [x1, #64]
	stp	x29, x30, [x1, #80]
	mov	x9, sp
	str	x9, [x1, #ARA_RELAY_SP]
	.irp	n, 2,3,4,5,6,7,8	// nothing of the caller's scratch reaches the callee
	mov	x\n, xzr
	.endr
	sub	sp, x0, #ARA_DOMAIN_RESERVE	// where the door started the call
	add	x9, sp, #(ARA_DOMAIN_RESERVE - ARA_DOMAIN_TICKET + 16)
	mov	x10, #ARA_DOMAIN_RELAYED
	stp	xzr, x10, [x9]
	b	ara_domain_back
	.size	ara_domain_yield, . - ara_domain_yield

/*
 * uint64_t ara_domain_resume(void *r)
 *   x0 = the relay of the slot the door runs on, as the core's ticket
 *   names it -> returns into ara_domain_yield's caller, x0 = r->status.
 *
 * Entry:    the service's row, from its door (the core's ticket).
 * Exit:     sp and x19-x30 from r; x1-x17 cleared: the core's, and the
 *           relayed call's domain's, values do not reach the service.
 */
	.globl	ara_domain_resume
	.hidden	ara_domain_resume
	.type	ara_domain_resume, %function
ara_domain_resume:
	ldp	x19, x20, [x0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	x29, x30, [x0, #80]
	ldr	x9, [x0, #ARA_RELAY_SP]
	mov	sp, x9
	ldrsw	x0, [x0, #ARA_RELAY_STATUS]
	.irp	n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
	mov	x\n, xzr
	.endr
	ret
	.size	ara_domain_resume, . - ara_domain_resume

	.section .note.GNU-stack, "", %progbits
