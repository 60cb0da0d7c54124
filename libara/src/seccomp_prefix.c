/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/seccomp_prefix.h"

#include <linux/seccomp.h>

/* seccomp_data.instruction_pointer; arm64 is little-endian. */
#define IP_LO 8u
#define IP_HI 12u

static struct sock_filter stmt(uint16_t code, uint32_t k)
{
	struct sock_filter f = { code, 0, 0, k };

	return f;
}

static struct sock_filter jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	struct sock_filter f = { code, jt, jf, k };

	return f;
}

int ara_seccomp_prefix(uint64_t start, uint64_t end, struct sock_filter out[ARA_SECCOMP_PREFIX_LEN])
{
	uint64_t last = end - 1;

	if (end <= start || (start >> 32) != (last >> 32))
		return -1;
	/* Jump offsets count from the next instruction; "policy" is index 6. */
	out[0] = stmt(BPF_LD | BPF_W | BPF_ABS, IP_HI);
	out[1] = jump(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(start >> 32), 0, 4);
	out[2] = stmt(BPF_LD | BPF_W | BPF_ABS, IP_LO);
	/*
	 * The instruction pointer seccomp sees is the svc's address plus 4: a
	 * call made on the page is above start, and start itself is an svc on
	 * the last word of the page below, which must go on to the policy.
	 */
	out[3] = jump(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)start, 0, 2);
	out[4] = jump(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)last, 1, 0);
	out[5] = stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return 0;
}
