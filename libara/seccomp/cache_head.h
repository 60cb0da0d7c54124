/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The head of ARA's seccomp filter: the system call numbers whose outcome is
 * ALLOW for every caller and every argument are decided here by arch and nr
 * alone, before anything loads the instruction pointer or an argument, so
 * that the kernel's emulator (seccomp_is_const_allow() in kernel/seccomp.c)
 * marks them constant and skips the filter for them. Every other number,
 * and every other architecture, falls through to the instruction after the
 * head: the rest of the filter, unchanged (docs/syscalls.md).
 *
 * The head uses only what that emulator follows: loads of nr and arch,
 * JEQ/JGE/JGT with a constant, JA and RET with a constant. Pure code: the
 * generator (ara_seccomp_gen.c) writes it at build time, the unit tests
 * build it with chosen numbers.
 */
#ifndef ARA_SECCOMP_CACHE_HEAD_H
#define ARA_SECCOMP_CACHE_HEAD_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes the head for AUDIT_ARCH_AARCH64 into out (at most cap
 * instructions): number n passes if n < count and allowed[n] is not 0.
 * Returns its length, or 0 if it does not fit cap or count is 0.
 */
size_t ara_seccomp_cache_head(const uint8_t *allowed, uint32_t count, struct sock_filter *out, size_t cap);

#endif
