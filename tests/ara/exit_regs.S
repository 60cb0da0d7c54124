/* SPDX-License-Identifier: Apache-2.0 */
/*
 * int ara_test_call_and_capture(uint64_t fid, void *arg, uint64_t out[20])
 *   -> secure_call's status; out[0..16] = x1..x17, out[17] = NZCV,
 *      out[18] = x18, out[19] = x0 (all 64 bits), all as secure_call left them.
 * int ara_test_append_and_capture(uint64_t entry, uint64_t x1, uint64_t out[20])
 *   -> the same for ara_rtm_append(entry), called with x1 as given.
 *
 * Before the call every register the gate may use is set to a marker, so
 * that "zero after the call" means the gate cleared it, not that it was
 * zero already.
 */
	.text
.macro capture name, entry
	.globl	\name
	.type	\name, %function
\name:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x2, [sp, #16]
	mov	x2, #0x5a5a
	mov	x3, x2
	mov	x4, x2
	mov	x5, x2
	mov	x6, x2
	mov	x7, x2
	mov	x8, x2
	mov	x9, x2
	mov	x10, x2
	mov	x11, x2
	mov	x12, x2
	mov	x13, x2
	mov	x14, x2
	mov	x15, x2
	mov	x16, x2
	mov	x17, x2
	mov	x18, #0x1818		// must survive: DOM0 never uses x18
	mov	x12, #0xf0000000
	msr	nzcv, x12		// N, Z, C and V set
	mov	x12, x2
	bl	\entry
	str	x18, [sp, #24]		// keep the gate's x18 before we use registers
	ldr	x18, [sp, #16]
	stp	x1, x2, [x18, #0]
	stp	x3, x4, [x18, #16]
	stp	x5, x6, [x18, #32]
	stp	x7, x8, [x18, #48]
	stp	x9, x10, [x18, #64]
	stp	x11, x12, [x18, #80]
	stp	x13, x14, [x18, #96]
	stp	x15, x16, [x18, #112]
	str	x17, [x18, #128]
	str	x0, [x18, #152]
	mrs	x1, nzcv
	str	x1, [x18, #136]
	ldr	x1, [sp, #24]
	str	x1, [x18, #144]
	ldp	x29, x30, [sp], #32
	ret
	.size	\name, . - \name
.endm

	capture	ara_test_call_and_capture, secure_call
	capture	ara_test_append_and_capture, ara_rtm_append

/*
 * int ara_test_call_and_capture_simd(uint64_t fid, void *arg, uint64_t out[64])
 *   -> secure_call's status; out[2n], out[2n + 1] = the low and high halves
 *      of vn as secure_call left it. Before the call vn holds 0x5a5a...5a
 *      with n in its lowest byte.
 */
	.globl	ara_test_call_and_capture_simd
	.type	ara_test_call_and_capture_simd, %function
ara_test_call_and_capture_simd:
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x2, [sp, #16]
	mov	x3, #0x5a5a
	movk	x3, #0x5a5a, lsl #16
	movk	x3, #0x5a5a, lsl #32
	movk	x3, #0x5a5a, lsl #48
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	mov	x4, #\n
	bfi	x3, x4, #0, #8
	dup	v\n\().2d, x3
	.endr
	bl	secure_call
	ldr	x2, [sp, #16]
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	str	q\n, [x2, #16 * \n]
	.endr
	ldp	x29, x30, [sp], #32
	ret
	.size	ara_test_call_and_capture_simd, . - ara_test_call_and_capture_simd

	.section .note.GNU-stack, "", %progbits
