/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's system call policy and the head that goes before everything
 * (libara/seccomp/cache_head.h), as classic BPF, generated at build time by
 * ara-seccomp-gen (libara/seccomp/) and embedded in DOM0's read-only data.
 */
	.section .rodata
	.balign	8
	.globl	ara_seccomp_head, ara_seccomp_head_end
	.hidden	ara_seccomp_head, ara_seccomp_head_end
ara_seccomp_head:
	.incbin	ARA_SECCOMP_HEAD_FILE
ara_seccomp_head_end:

	.balign	8
	.globl	ara_seccomp_policy, ara_seccomp_policy_end
	.hidden	ara_seccomp_policy, ara_seccomp_policy_end
ara_seccomp_policy:
	.incbin	ARA_SECCOMP_POLICY_FILE
ara_seccomp_policy_end:

	.section .note.GNU-stack, "", %progbits
