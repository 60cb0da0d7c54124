/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test-only assembly for the attack programs: what a fully compromised App
 * can do with registers and branches.
 */

/*
 * void ara_test_hostile_jump(uint64_t target, uint64_t fill, uint64_t x16,
 *                            uint64_t sp, uint64_t x30)  -- never returns
 * Sets every general register to fill (x16 to x16, x17 to target, sp and
 * x30 as given) and branches to target.
 */
	.text
	.globl	ara_test_hostile_jump
	.type	ara_test_hostile_jump, %function
ara_test_hostile_jump:
	mov	x17, x0
	mov	sp, x3
	mov	x30, x4
	mov	x16, x2
	mov	x0, x1
	mov	x2, x1
	mov	x3, x1
	mov	x4, x1
	mov	x5, x1
	mov	x6, x1
	mov	x7, x1
	mov	x8, x1
	mov	x9, x1
	mov	x10, x1
	mov	x11, x1
	mov	x12, x1
	mov	x13, x1
	mov	x14, x1
	mov	x15, x1
	mov	x18, x1
	mov	x19, x1
	mov	x20, x1
	mov	x21, x1
	mov	x22, x1
	mov	x23, x1
	mov	x24, x1
	mov	x25, x1
	mov	x26, x1
	mov	x27, x1
	mov	x28, x1
	mov	x29, x1
	br	x17
	.size	ara_test_hostile_jump, . - ara_test_hostile_jump

/*
 * The App-chosen code of the attacks: reached, if at all, through x30.
 * It trusts no register: it takes its own stack and calls
 * ara_test_probe_main(), which never returns.
 */
	.globl	ara_test_probe_entry
	.type	ara_test_probe_entry, %function
ara_test_probe_entry:
	adrp	x9, ara_test_probe_stack
	add	x9, x9, :lo12:ara_test_probe_stack
	add	x9, x9, #16384
	mov	sp, x9
	mov	x29, xzr
	bl	ara_test_probe_main
	brk	#0x1
	.size	ara_test_probe_entry, . - ara_test_probe_entry

	.bss
	.balign	16
ara_test_probe_stack:
	.zero	16384

	.section .note.GNU-stack, "", %progbits
