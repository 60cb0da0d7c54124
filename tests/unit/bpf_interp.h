/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A classic-BPF interpreter for seccomp filters, test-only: runs a filter
 * on a struct seccomp_data as the kernel would and returns its verdict.
 * Covers the instructions libseccomp emits and the prefix uses; anything
 * else fails the test.
 */
#ifndef ARA_TEST_BPF_INTERP_H
#define ARA_TEST_BPF_INTERP_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>

/* Returns the filter's 32-bit verdict, or 0xdead0000 | pc on a bad program. */
uint32_t bpf_run(const struct sock_filter *prog, size_t len, const struct seccomp_data *d);

/*
 * Whether the kernel's action cache marks system call nr of arch as always
 * allowed: the emulation seccomp_is_const_allow() (kernel/seccomp.c, Linux
 * 5.11 to 6.12) runs over the filter when it is attached. It knows nr and
 * arch only; it follows loads of those, JA, JEQ/JGE/JGT/JSET and AND with
 * a constant, and gives up (not cached) at any other instruction, any other
 * load included. 1 if it reaches RET SECCOMP_RET_ALLOW, else 0.
 */
int bpf_const_allow(const struct sock_filter *prog, size_t len, uint32_t nr, uint32_t arch);

#endif
