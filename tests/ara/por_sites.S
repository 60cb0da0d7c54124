/* SPDX-License-Identifier: Apache-2.0 */
/*
 * POR_EL0 writes in every encoding form, in the App's own text, for the
 * in-process scan test: ARA must turn each word between the labels into a
 * NOP at load and leave the fence words on either side as they are.
 * Never executed.
 */
	.text
	.balign	16
	.globl	ara_test_por_fence_before, ara_test_por_sites, ara_test_por_sites_end
	.globl	ara_test_por_fence_after
ara_test_por_fence_before:
	mrs	x0, S3_3_C10_C2_4	// a read of POR_EL0: must survive
ara_test_por_sites:
	.irp	rt, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	msr	S3_3_C10_C2_4, x\rt
	.endr
	msr	S3_3_C10_C2_4, xzr
	.inst	0xd51ba280 | 7		// the same, as a raw word
	.inst	0xd55ba280		// MSRR (FEAT_SYSREG128) form, x0:x1
	.inst	0xd55ba282		// MSRR, x2:x3
ara_test_por_sites_end:
ara_test_por_fence_after:
	msr	S3_3_C10_C2_5, x0	// a neighbouring system register: must survive
	ret

	.section .note.GNU-stack, "", %progbits
