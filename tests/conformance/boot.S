/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry, exception vectors and the small code fragments whose exact
 * instructions the checks depend on (a probe must fault on one known
 * instruction so that the handler can step over it).
 */
#include "conformance.h"

	.section .text.boot, "ax"
	.global _start
_start:
	ldr	x0, =__stack_top
	mrs	x1, CurrentEL
	cmp	x1, #(2 << 2)
	b.ne	el1_entry
	/*
	 * Started at EL2 (-M virt,virtualization=on): el2_prepare() sets up
	 * EL2 so that EL1 can run the same checks, then EL1 takes over.
	 */
	mov	sp, x0
	adr	x1, el2_vectors
	msr	vbar_el2, x1
	bl	el2_prepare
	ldr	x0, =__stack_top
	msr	sp_el1, x0
	adr	x1, el1_entry
	msr	elr_el2, x1
	mov	x1, #0x3c5		/* SPSR: M = EL1h, DAIF masked */
	msr	spsr_el2, x1
	eret

	/*
	 * EL1 from here on, unless the image was entered at EL3; main()
	 * reports that, so the stack and .bss are set up in any case.
	 */
el1_entry:
	msr	spsel, #1
	mov	sp, x0
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
1:	cmp	x0, x1
	b.hs	2f
	stp	xzr, xzr, [x0], #16
	b	1b
2:	adr	x0, vectors
	msr	vbar_el1, x0
	isb
	bl	main
	b	.

/*
 * One 128-byte slot per exception kind (D1.4.1.6). Every slot saves x0/x1,
 * passes its index in x1 and joins exc_common; exc_handle() decides.
 */
	.macro	ventry index
	.balign	128
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp]
	mov	x1, #\index
	b	exc_common
	.endm

	.balign	2048
vectors:
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	ventry	\i
	.endr

/*
 * Nothing the checks do should reach EL2; if something does (a trap left
 * enabled), el2_exception() reports it instead of hanging.
 */
	.balign	2048
el2_vectors:
	.rept	16
	.balign	128
	b	el2_exception
	.endr

/*
 * Saves x2-x30, ELR_EL1 and SPSR_EL1 after x0/x1 into a struct frame,
 * calls exc_handle(frame, index) and returns to whatever ELR/SPSR and
 * registers the handler left in the frame.
 */
exc_common:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	stp	x30, x2, [sp, #240]
	str	x3, [sp, #256]
	mov	x0, sp
	bl	exc_handle
	ldr	x3, [sp, #256]
	ldp	x30, x2, [sp, #240]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	ldp	x0, x1, [sp]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	add	sp, sp, #FRAME_SIZE
	eret

/*
 * Probes: each access is the first instruction, so a faulting one is
 * skipped (ELR + 4) and the function still returns.
 *   uint64_t probe_ldr(uintptr_t va)          x0 = [va], or va if it faulted
 *   void     probe_str(uintptr_t va, uint64_t v)
 *   uint64_t probe_ldtr(uintptr_t va)         unprivileged load (C6.2.244)
 *   uint64_t probe_ldadd(uintptr_t va, uint64_t v)  x0 = old [va]; [va] += v
 *   void     probe_dczva(uintptr_t va)        zeroes the DC ZVA block at va
 *   uint64_t probe_call(uintptr_t va)         x0 of the code at va; on an
 *            Instruction Abort the handler returns to the caller with
 *            EXEC_FAULTED, using the link register that blr set.
 */
	.text
	.global	probe_ldr, probe_str, probe_ldtr, probe_ldadd, probe_dczva
	.global	probe_call
probe_ldr:
	ldr	x0, [x0]
	ret
probe_str:
	str	x1, [x0]
	ret
probe_ldtr:
	ldtr	x0, [x0]
	ret
probe_ldadd:
	ldadd	x1, x0, [x0]
	ret
probe_dczva:
	dc	zva, x0
	ret
probe_call:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	blr	x0
	ldp	x29, x30, [sp], #16
	ret

/*
 * uint64_t run_el0(uintptr_t entry, uint64_t x0, uint64_t x1)
 * Runs entry at EL0 (EL0t, interrupts masked) with x0/x1 as given. The
 * EL0 code ends with svc, and exc_handle() then resumes at el0_return
 * with EL0's x0. SP_EL1 is untouched by EL0, so the saved registers below
 * are found again at el0_return.
 * Corrupts: x0-x18 (AAPCS64 caller-saved).
 */
	.global	run_el0, el0_return
run_el0:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	mov	x29, sp
	msr	elr_el1, x0
	mov	x3, #0x3c0		/* SPSR: M = EL0t, DAIF masked */
	msr	spsr_el1, x3
	mov	x0, x1
	mov	x1, x2
	eret
el0_return:
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

/*
 * Code that checks execute through aliases: its own page, so that the
 * alias's permissions are the only ones that apply. Data from
 * EXEC_PAGE_DATA on is a store target for the WXN checks.
 */
	.section .text.exec_page, "ax"
	.balign	4096
	.global	exec_page
exec_page:
	mov	x0, #EXEC_MAGIC
	ret
	.balign	4096

/* EL0 fragments, mapped EL0-executable; each returns to EL1 by svc. */
	.section .text.el0_page, "ax"
	.balign	4096
	.global	el0_page, el0_ldr, el0_str, el0_mrs_por, el0_msr_por
el0_page:
el0_ldr:
	ldr	x0, [x0]
	svc	#0
el0_str:
	str	x1, [x0]
	svc	#0
el0_mrs_por:
	mrs	x0, s3_3_c10_c2_4	/* POR_EL0 */
	svc	#0
el0_msr_por:
	msr	s3_3_c10_c2_4, x0	/* POR_EL0 */
	svc	#0
	.balign	4096
