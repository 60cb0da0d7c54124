/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Installing the system call filter (IV4), the last step of ARA's
 * initialisation, assembled in DOM0's memory from four parts:
 *   1. the head generated at build time (libara/seccomp/cache_head.h): the
 *      numbers allowed whatever the caller and the arguments pass on arch
 *      and nr alone, so that the kernel caches them; the rest fall through;
 *   2. the prefix that lets ARA's system-call page through
 *      (ara/seccomp_prefix.h, svc_page.h);
 *   3. the block that refuses mapping calls on ARA's ranges
 *      (ara/seccomp_ranges.h), generated from the protected set now that
 *      the addresses are known;
 *   4. the policy generated at build time (libara/seccomp/policy.c).
 * It is installed with raw system calls and applies to every thread and
 * every child from then on.
 */
#include "ara/gate.h"
#include "ara/seccomp_prefix.h"
#include "ara/seccomp_ranges.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "mem.h"
#include "svc_page.h"
#include "sys.h"

extern const struct sock_filter ara_seccomp_head[];
extern const char ara_seccomp_head_end[];
extern const struct sock_filter ara_seccomp_policy[];
extern const char ara_seccomp_policy_end[];

#define ARA_BPF_MAXINSNS 4096u /* the kernel's BPF_MAXINSNS */

static struct sock_filter program[ARA_BPF_MAXINSNS];

void ara_seccomp_install(void)
{
	const uint64_t page = ara_svc_page();
	const size_t head_bytes = (size_t)(ara_seccomp_head_end - (const char *)ara_seccomp_head);
	const size_t head_len = head_bytes / sizeof(struct sock_filter);
	const size_t bytes = (size_t)(ara_seccomp_policy_end - (const char *)ara_seccomp_policy);
	const size_t policy_len = bytes / sizeof(struct sock_filter);
	struct sock_filter *prefix;
	struct sock_fprog prog;
	size_t ranges;
	long r;

#ifdef ARA_TEST_VARIANT_NO_SECCOMP
	/* Test-only variant (tests/variants/): no filter, so attacks get through. */
	(void)page, (void)head_len, (void)policy_len, (void)prog, (void)ranges, (void)r;
	return;
#endif

	if (bytes % sizeof(struct sock_filter) || policy_len == 0)
		ara_fatal("the embedded seccomp policy is malformed; bytes", (long)bytes);
	if (head_bytes % sizeof(struct sock_filter) || head_len == 0 ||
	    head_len + ARA_SECCOMP_PREFIX_LEN > ARA_BPF_MAXINSNS)
		ara_fatal("the embedded seccomp head is malformed; bytes", (long)head_bytes);
	memcpy(program, ara_seccomp_head, head_bytes);
	prefix = program + head_len;
	if (ara_seccomp_prefix(page, page + ARA_PAGE_SIZE, prefix))
		ara_fatal("the system-call page is not a page; it starts at", (long)page);
	ranges = ara_seccomp_ranges(&ara_protected, prefix + ARA_SECCOMP_PREFIX_LEN,
				    ARA_BPF_MAXINSNS - head_len - ARA_SECCOMP_PREFIX_LEN);
	if (ranges == 0 || head_len + ARA_SECCOMP_PREFIX_LEN + ranges + policy_len > ARA_BPF_MAXINSNS)
		ara_fatal("the seccomp filter does not fit BPF_MAXINSNS; protected ranges",
			  (long)ara_protected.n);
	memcpy(prefix + ARA_SECCOMP_PREFIX_LEN + ranges, ara_seccomp_policy, bytes);
	prog.len = (unsigned short)(head_len + ARA_SECCOMP_PREFIX_LEN + ranges + policy_len);
	prog.filter = program;

	/* Required to install a filter without CAP_SYS_ADMIN; also keeps set-ID exec out. */
	r = ara_sys5(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (r != 0)
		ara_fatal("prctl(PR_SET_NO_NEW_PRIVS) failed", r);
	r = ara_sys3(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
	if (r != 0)
		ara_fatal("installing the seccomp filter failed", r);
}
