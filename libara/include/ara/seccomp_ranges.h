/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The middle of ARA's seccomp filter: App code may not point the mapping
 * calls at ARA's pages. munmap, mprotect, madvise, mmap, mseal, mlock,
 * munlock, mlock2, mbind, set_mempolicy_home_node, mincore (which pages
 * are present: DOM0's would show what it touched) and mremap (its old
 * range, and its new range with MREMAP_FIXED) get EPERM when
 * [addr, addr + len) overlaps a protected range, a zero length counting as
 * one byte. So do the futex operations whose read-modify-write the kernel
 * makes at EL1, where POR_EL0 does not apply (FUTEX_WAKE_OP and the PI
 * operations), when the word at uaddr, or at uaddr2 for those that write
 * it, overlaps one, and set_tid_address when the word the kernel will zero
 * at the thread's exit overlaps one. Every other call, and every call that
 * overlaps nothing, falls through to the instruction after the block. The
 * address's top byte is ignored, as the kernel strips tags.
 *
 * Generated at run time (the ranges are known then) as classic BPF, in
 * 32-bit halves; pure code, run by DOM0 and unit-tested on the host.
 */
#ifndef ARA_SECCOMP_RANGES_H
#define ARA_SECCOMP_RANGES_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "../../src/regions.h"

/* arm64 system call numbers (asm-generic/unistd.h). */
#define ARA_NR_MUNMAP 215
#define ARA_NR_MREMAP 216
#define ARA_NR_MMAP 222
#define ARA_NR_MPROTECT 226
#define ARA_NR_MADVISE 233
#define ARA_NR_MSEAL 462
#define ARA_NR_FUTEX 98
#define ARA_NR_SET_TID_ADDRESS 96
#define ARA_NR_CLONE 220
#define ARA_NR_MLOCK 228
#define ARA_NR_MUNLOCK 229
#define ARA_NR_MLOCK2 284
#define ARA_NR_MBIND 235
#define ARA_NR_SET_MEMPOLICY_HOME_NODE 450
#define ARA_NR_MINCORE 232

/* Instructions needed for n ranges. */
size_t ara_seccomp_ranges_len(size_t n);

/*
 * Writes the block for the ranges of set into out (room for cap
 * instructions). Returns its length, or 0 if cap is too small or the set
 * is empty.
 */
size_t ara_seccomp_ranges(const struct ara_region_set *set, struct sock_filter *out, size_t cap);

#endif
