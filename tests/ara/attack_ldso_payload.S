/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What attack_ldso.c writes into its dynamic linker's file, as code that
 * runs first in the next image if that image runs the file (ld.so's first
 * instruction becomes a branch here): it opens /proc/self/mem (a call the
 * inherited filter traps, which ARA's boot code performs before libara
 * exists, with no open check), keeps the descriptor at ATTACK_LDSO_MEM_FD
 * for the App, says so, and resumes ld.so: its first instruction, moved
 * here, then a branch to its second (attack_ldso.c fills both in).
 * Position-independent; data, never run here.
 */
#include "attack_ldso.h"

	.section .rodata
	.balign 4
	.global ara_test_ldso_payload, ara_test_ldso_payload_resume, ara_test_ldso_payload_end
ara_test_ldso_payload:
	mov	x0, #-100		/* AT_FDCWD */
	adr	x1, 1f
	mov	x2, #2			/* O_RDWR */
	mov	x3, #0
	mov	x8, #56			/* openat */
	svc	#0
	mov	x1, #ATTACK_LDSO_MEM_FD
	mov	x2, #0
	mov	x8, #24			/* dup3 */
	svc	#0
	mov	x0, #2
	adr	x1, 2f
	mov	x2, #(3f - 2f)
	mov	x8, #64			/* write */
	svc	#0
ara_test_ldso_payload_resume:
	nop				/* becomes ld.so's first instruction */
	b	.			/* becomes a branch to its second */
1:	.asciz	"/proc/self/mem"
2:	.ascii	"BREACH: code written into the dynamic linker's file runs before ARA\n"
3:
	.balign 4
ara_test_ldso_payload_end:

	.section .note.GNU-stack, "", %progbits
