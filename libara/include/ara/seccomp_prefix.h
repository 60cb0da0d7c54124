/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The head of ARA's seccomp filter: system calls made from ARA's system-call
 * page (libara/src/dom0/svc_page.h) pass,
 * everything else goes on to the policy (libara/seccomp/policy.c).
 *
 * libseccomp cannot test seccomp_data.instruction_pointer, so this part is
 * written here, as classic BPF, and prepended at run time, when DOM0's
 * address is known. BPF loads 32 bits at a time: the 64-bit compare is done
 * in two halves, and the range must lie within one 4 GiB-aligned window.
 * Pure code: DOM0 runs it, the host unit tests it.
 */
#ifndef ARA_SECCOMP_PREFIX_H
#define ARA_SECCOMP_PREFIX_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#define ARA_SECCOMP_PREFIX_LEN 6u

/*
 * Writes the prefix for the allowed code [start, end) into out: it passes a
 * call whose svc lies in [start, end - 4), that is, whose instruction
 * pointer (the svc's address plus 4) lies in (start, end - 1]; an svc on
 * the last word of the page below has start for its instruction pointer
 * and does not pass. The page's last word holds no svc. Returns 0, or -1
 * if the range is empty, wraps, or crosses a 4 GiB boundary. The prefix
 * falls through to the instruction after it for any other instruction
 * pointer.
 */
int ara_seccomp_prefix(uint64_t start, uint64_t end, struct sock_filter out[ARA_SECCOMP_PREFIX_LEN]);

#endif
