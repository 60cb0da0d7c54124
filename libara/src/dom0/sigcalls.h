/* SPDX-License-Identifier: Apache-2.0 */
/*
 * App code's signal calls, checked and performed by ARA (signal.c): one
 * policy for both ways in, the filter's trap (signal.c) and the system
 * call service (svc_syscall.c). Each takes the call's arguments as the
 * kernel would, App pointers read and written through the argument checks
 * (copy.c), and returns the call's result, -errno on failure.
 */
#ifndef ARA_DOM0_SIGCALLS_H
#define ARA_DOM0_SIGCALLS_H

#include <stdint.h>

#include "sigframe.h" /* ARA_SIGSYS */

#define ARA_SIG_BLOCK 0
#define ARA_SIG_UNBLOCK 1
#define ARA_SIG_SETMASK 2
#define ARA_SIG_BIT(sig) (UINT64_C(1) << ((sig) - 1))
/* Signals the App can never block: SIGSYS carries its own trapped calls. */
#define ARA_SIG_UNBLOCKABLE (ARA_SIG_BIT(ARA_SIGSYS) | ARA_SIG_BIT(9) | ARA_SIG_BIT(19))

/* A mask of the App's as ARA lets it be: without SIGSYS, SIGKILL and SIGSTOP. */
static inline uint64_t ara_app_mask_allowed(uint64_t mask)
{
#ifdef ARA_TEST_VARIANT_NO_UNBLOCKABLE /* test-only (tests/variants): the App may block them */
	return mask;
#else
	return mask & ~ARA_SIG_UNBLOCKABLE;
#endif
}

/*
 * rt_sigprocmask's how applied to the App's mask old with the set req:
 * the App's new mask (allowed) in *mask and 0, or -EINVAL (22) for another
 * how, *mask unchanged. The one policy of both ways in.
 */
static inline long ara_app_mask_apply(uint64_t how, uint64_t old, uint64_t req, uint64_t *mask)
{
	if (how == ARA_SIG_BLOCK)
		*mask = ara_app_mask_allowed(old | req);
	else if (how == ARA_SIG_UNBLOCK)
		*mask = ara_app_mask_allowed(old & ~req);
	else if (how == ARA_SIG_SETMASK)
		*mask = ara_app_mask_allowed(req);
	else
		return -22;
	return 0;
}

/*
 * rt_sigaction: the App's handler is kept in DOM0 and ARA's signal entry
 * installed for it; EINVAL for SIGSYS, which is ARA's.
 */
long ara_app_sigaction(uint64_t sig, uint64_t act, uint64_t oact, uint64_t size);

/*
 * rt_sigprocmask on *mask, the App's mask, for the trap path: the new one
 * (ara_app_mask_apply) goes back in *mask, which the trap path applies
 * through the frame it hands rt_sigreturn, the old one to oset. pid: the
 * process's ID as the caller has it from the kernel for this call
 * (ara_copy_*_as), or 0 to ask. (The system call service applies the same
 * policy with the kernel's own call: svc_syscall.c.)
 */
long ara_app_sigprocmask(uint64_t how, uint64_t set, uint64_t oset, uint64_t size, uint64_t *mask,
			 int32_t pid);

#endif
