/* SPDX-License-Identifier: Apache-2.0 */
#include "bpf_interp.h"

#include <string.h>

#define BAD(pc) (0xdead0000u | (uint32_t)(pc))

uint32_t bpf_run(const struct sock_filter *prog, size_t len, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };

	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &prog[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (f->code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (f->k > sizeof(*d) - 4 || f->k % 4)
					return BAD(pc);
				memcpy(&a, (const char *)d + f->k, 4);
			} else if (f->code == (BPF_LD | BPF_IMM)) {
				a = f->k;
			} else if (f->code == (BPF_LD | BPF_MEM) && f->k < BPF_MEMWORDS) {
				a = mem[f->k];
			} else {
				return BAD(pc);
			}
			break;
		case BPF_LDX:
			if (f->code == (BPF_LDX | BPF_IMM))
				x = f->k;
			else if (f->code == (BPF_LDX | BPF_MEM) && f->k < BPF_MEMWORDS)
				x = mem[f->k];
			else
				return BAD(pc);
			break;
		case BPF_ST:
		case BPF_STX:
			if (f->k >= BPF_MEMWORDS)
				return BAD(pc);
			mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_AND: a &= src; break;
			case BPF_OR: a |= src; break;
			case BPF_ADD: a += src; break;
			case BPF_SUB: a -= src; break;
			case BPF_RSH: if (src >= 32) return BAD(pc); a >>= src; break;
			case BPF_LSH: if (src >= 32) return BAD(pc); a <<= src; break;
			default: return BAD(pc);
			}
			break;
		case BPF_JMP: {
			int taken;

			if (BPF_OP(f->code) == BPF_JA) {
				pc += f->k;
				break;
			}
			switch (BPF_OP(f->code)) {
			case BPF_JEQ: taken = a == src; break;
			case BPF_JGT: taken = a > src; break;
			case BPF_JGE: taken = a >= src; break;
			case BPF_JSET: taken = (a & src) != 0; break;
			default: return BAD(pc);
			}
			pc += taken ? f->jt : f->jf;
			break;
		}
		case BPF_RET:
			return BPF_RVAL(f->code) == BPF_A ? a : f->k;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			return BAD(pc);
		}
	}
	return BAD(len); /* fell off the end: the kernel's verifier refuses that */
}

int bpf_const_allow(const struct sock_filter *prog, size_t len, uint32_t nr, uint32_t arch)
{
	uint32_t a = 0;

	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &prog[pc];
		int taken;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k == offsetof(struct seccomp_data, nr))
				a = nr;
			else if (f->k == offsetof(struct seccomp_data, arch))
				a = arch;
			else
				return 0; /* a value it does not know */
			break;
		case BPF_RET | BPF_K:
			return f->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			switch (BPF_OP(f->code)) {
			case BPF_JEQ: taken = a == f->k; break;
			case BPF_JGE: taken = a >= f->k; break;
			case BPF_JGT: taken = a > f->k; break;
			default: taken = (a & f->k) != 0; break;
			}
			pc += taken ? f->jt : f->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		default:
			return 0; /* an instruction it does not follow */
		}
	}
	return 0; /* ran off the end */
}
