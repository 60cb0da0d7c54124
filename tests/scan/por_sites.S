/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scanner test input, never executed: every form of a POR_EL0 write the
 * scanner must find in executable code, each at a label expect_por_write_*
 * (test_scan_elf reads the labels back with nm), the near misses it must
 * leave alone, and the write encodings again in .data, which is not
 * executable and so must not be touched.
 */
	.text
	.globl	_start
_start:
	nop

	/* The assembler's own encoding of the mnemonic, every Rt and XZR. */
	.irp	rt, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
expect_por_write_msr_x\rt:
	msr	S3_3_C10_C2_4, x\rt
	.endr
expect_por_write_msr_xzr:
	msr	S3_3_C10_C2_4, xzr

	/* The same 32 words written as numbers (0xd51ba280 | Rt), and the
	 * FEAT_SYSREG128 pair write MSRR (bit 22 set), which binutils 2.40
	 * cannot assemble by name. */
	.irp	rt, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
expect_por_write_inst_\rt:
	.inst	0xd51ba280 + \rt
expect_por_write_msrr_\rt:
	.inst	0xd55ba280 + \rt
	.endr

	/* Near misses: reads of POR_EL0, the other Exception levels' POR
	 * registers, each register field one off, and SYS with POR_EL0's
	 * op1/CRn/CRm/op2. */
	.irp	rt, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	mrs	x\rt, S3_3_C10_C2_4
	.endr
	.inst	0xd57ba280		/* mrrs x0, x1, s3_3_c10_c2_4 */
	msr	S3_0_C10_C2_4, x0	/* POR_EL1 */
	msr	S3_4_C10_C2_4, x1	/* POR_EL2 */
	msr	S3_5_C10_C2_4, x2	/* POR_EL12 */
	msr	S3_6_C10_C2_4, x3	/* POR_EL3 */
	msr	S2_3_C10_C2_4, x4	/* op0 */
	msr	S3_2_C10_C2_4, x5	/* op1 */
	msr	S3_3_C9_C2_4, x6	/* CRn */
	msr	S3_3_C11_C2_4, x7
	msr	S3_3_C10_C1_4, x8	/* CRm */
	msr	S3_3_C10_C3_4, x9
	msr	S3_3_C10_C2_3, x10	/* op2 */
	msr	S3_3_C10_C2_5, x11
	sys	#3, C10, C2, #4, x12
	msr	tpidr_el0, x13
	ret

	.data
	.balign	4
data_copy:
	.irp	rt, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.word	0xd51ba280 + \rt, 0xd55ba280 + \rt
	.endr
