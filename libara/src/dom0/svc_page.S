/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The system-call page's contents (svc_page.h), as data: the blob built
 * from libara/src/region/ (head.S at offset 0, then boot.c's code), which
 * svc_page.c copies into a page of its own and execve.c writes into the
 * image an exec starts.
 *
 * And ara_svc_boot, an `svc #0; ret` in libara's text, which DOM0's system
 * calls use until the page exists; once the filter is installed, a system
 * call from it would be trapped, so none is made.
 */
	.section .rodata
	.balign	16
	.globl	ara_svc_image
	.hidden	ara_svc_image
	.type	ara_svc_image, %object
ara_svc_image:
	.incbin	ARA_REGION_BIN
	.globl	ara_svc_image_end
	.hidden	ara_svc_image_end
ara_svc_image_end:
	.if	ara_svc_image_end - ara_svc_image > 4096
	.error	"the system-call page's blob is larger than a page"
	.endif
	.size	ara_svc_image, . - ara_svc_image

	.text
	.globl	ara_svc_boot
	.hidden	ara_svc_boot
	.type	ara_svc_boot, %function
ara_svc_boot:
	svc	#0
	ret
	.size	ara_svc_boot, . - ara_svc_boot

	.section .note.GNU-stack, "", %progbits
