/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The system-call page's contents (svc_page.h), as data: svc_page.c copies
 * them into a page of their own. The offsets are checked here.
 *
 * And ara_svc_boot, the same pair in libara's text, which DOM0's system
 * calls use until the page exists; once the filter is installed, a system
 * call from it would be trapped, so none is made.
 */
#include "svc_page.h"

	.section .rodata
	.balign	8
	.globl	ara_svc_image
	.hidden	ara_svc_image
	.type	ara_svc_image, %object
ara_svc_image:
	svc	#0			// ARA_SVC_CALL
	ret
	svc	#0			// ARA_SVC_DEFERRED
1:	ret				// ARA_SVC_DEFERRED_POINT
	.if	1b - ara_svc_image != ARA_SVC_DEFERRED_POINT
	.error	"ARA_SVC_DEFERRED_POINT does not match svc_page.S"
	.endif
	.size	ara_svc_image, . - ara_svc_image
	.globl	ara_svc_image_end
	.hidden	ara_svc_image_end
ara_svc_image_end:

	.text
	.globl	ara_svc_boot
	.hidden	ara_svc_boot
	.type	ara_svc_boot, %function
ara_svc_boot:
	svc	#0
	ret
	.size	ara_svc_boot, . - ara_svc_boot

	.section .note.GNU-stack, "", %progbits
