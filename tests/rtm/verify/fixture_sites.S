/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verifier's target fixture: each kind of call, with a global label
 * right after it (a return site), a label that follows no call, and a
 * label whose address a data word holds (an R_AARCH64_RELATIVE relocation
 * in a PIE: an indirect-jump target that is no function). The tests take
 * every address from nm (fixture_addrs.cmake), never from the verifier.
 */
	.arch armv8.3-a
	.text

	.globl fx_callee
	.type fx_callee, %function
fx_callee:
	ret
	.size fx_callee, . - fx_callee

	.globl fx_caller
	.type fx_caller, %function
fx_caller:
	stp x29, x30, [sp, -16]!
	bl fx_callee
	.globl fx_ret_bl
fx_ret_bl:
	adr x1, fx_callee
	blr x1
	.globl fx_ret_blr
fx_ret_blr:
	blraaz x1
	.globl fx_ret_blraaz
fx_ret_blraaz:
	blrabz x1
	.globl fx_ret_blrabz
fx_ret_blrabz:
	blraa x1, x2
	.globl fx_ret_blraa
fx_ret_blraa:
	blrab x1, x2
	.globl fx_ret_blrab
fx_ret_blrab:
	nop
	.globl fx_not_ret
fx_not_ret:
	nop
	.globl fx_label
fx_label:
	ldp x29, x30, [sp], 16
	ret
	.size fx_caller, . - fx_caller

	.section .data.rel.ro, "aw"
	.balign 8
	.globl fx_table
fx_table:
	.quad fx_label
