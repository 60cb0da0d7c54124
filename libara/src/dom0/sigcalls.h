/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The signal path's files and what they share: trap.c routes what reaches
 * ARA's signal entry, app_signals.c keeps the App's signal state, deliver.c
 * builds the frames ARA hands to rt_sigreturn and calls the App's handlers.
 *
 * App code's signal calls, checked and performed by ARA (app_signals.c):
 * one policy for both ways in, the filter's trap (trap.c) and the system
 * call service (svc_syscall.c). Each takes the call's arguments as the
 * kernel would, App pointers read and written through the argument checks
 * (copy.c), and returns the call's result, -errno on failure.
 */
#ifndef ARA_DOM0_SIGCALLS_H
#define ARA_DOM0_SIGCALLS_H

#include <stdint.h>

#include "kernel.h"
#include "sigframe.h" /* ARA_SIGSYS */
#include "thread.h"

#define ARA_SIG_BIT(sig) (UINT64_C(1) << ((sig) - 1))
/* Signals the App can never block: SIGSYS carries its own trapped calls. */
#define ARA_SIG_UNBLOCKABLE                                                                        \
	(ARA_SIG_BIT(ARA_SIGSYS) | ARA_SIG_BIT(SIGKILL) | ARA_SIG_BIT(SIGSTOP))

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
	if (how == SIG_BLOCK)
		*mask = ara_app_mask_allowed(old | req);
	else if (how == SIG_UNBLOCK)
		*mask = ara_app_mask_allowed(old & ~req);
	else if (how == SIG_SETMASK)
		*mask = ara_app_mask_allowed(req);
	else
		return -EINVAL;
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

/*
 * sigaltstack for thread t of App code, whose sp is app_sp: the App's
 * sigaltstack, kept in t's slot.
 */
long ara_app_sigaltstack(struct ara_thread *t, uint64_t ss, uint64_t oss, uint64_t app_sp);
/* The App's sigaltstack set to req, as sigaltstack would (-errno, nothing set, if refused). */
long ara_app_set_altstack(struct ara_thread *t, struct ara_sigstack req, uint64_t app_sp);
/* The kernel's on_sig_stack: sp is on the App's sigaltstack ss. */
int ara_app_on_altstack(const struct ara_sigstack *ss, uint64_t sp);

/* struct sigaction as arm64's rt_sigaction takes it. */
struct ara_ksigaction {
	uint64_t handler, flags, restorer, mask;
};

/*
 * app_signals.c: ARA's actions for SIGSYS, SIGSEGV and SIGBUS, whose
 * handler is the gate's signal entry; at initialisation, before the filter.
 */
void ara_app_signals_init(uint64_t gate);
/*
 * The App's action for signal sig, now that it is delivered (synchronous:
 * raised by a fault, not sent): 1 and the action in *act if it is a handler
 * of the App's to call. 0 if there is none; for one the App left to the
 * default (or a synchronous one it ignores), the kernel's action becomes
 * the default and sig is sent again, to be taken once ARA's handler
 * returns. SA_RESETHAND applied as the kernel applies it.
 */
int ara_app_action_take(int sig, int synchronous, struct ara_ksigaction *act);
/* The App's handler's frame could not be written: SIGSEGV by default (as above). */
void ara_app_segv_default(void);

/*
 * t's process ID, which ara_thread_self found equal to the kernel's for the
 * signal being handled: ARA's copies for t need not ask again.
 */
static inline int32_t ara_sig_pid(const struct ara_thread *t)
{
	int32_t tid, pid;

	ara_thread_id(t, &tid, &pid);
	return pid;
}

/* deliver.c: at initialisation, where the gate returns from an App handler. */
void ara_deliver_init(uint64_t gate);
/*
 * Turns out, the interrupted state and the kernel's siginfo for signal
 * sig, into the call of the App's handler: the handler's frame in App
 * memory (write_app_frame), which its rt_sigreturn hands back; DOM2's row
 * (ara_signal_seal); and a return to ARA's trampoline unless the App gave a
 * restorer. out unchanged if the App has no handler to call. A SEGV_PKUERR
 * fault ends the process instead.
 */
void ara_deliver(struct ara_thread *t, struct ara_rt_sigframe *out, int sig);
/*
 * Every frame ARA hands to rt_sigreturn: t's signal stack armed again,
 * SIGSYS unblocked (ara_signal_seal, dom0.h, also sets DOM2's row).
 */
void ara_signal_finish(const struct ara_thread *t, struct ara_rt_sigframe *out);

#endif
