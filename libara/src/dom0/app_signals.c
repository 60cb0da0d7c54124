/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App's signal state, as ARA keeps it: its handlers, its mask and its
 * sigaltstack, and the signal calls that read and change them
 * (rt_sigaction, rt_sigprocmask, sigaltstack; sigcalls.h), which the trap
 * path (trap.c) routes here.
 *
 * For a signal the App handles, the kernel's handler is ARA's signal entry,
 * with every signal blocked; ARA calls the App's handler from there with
 * DOM2's row (deliver.c), as this file's table says. The App's mask is the
 * kernel's, less what the App may not block (sigcalls.h); its sigaltstack
 * is kept with its thread's slot (thread.h), where ARA builds the App's
 * frames.
 */
#include "ara/gate.h"
#include "dom0.h"
#include "kernel.h"
#include "live.h"
#include "sigcalls.h"
#include "sigframe.h"
#include "sys.h"
#include "thread.h"

#define UNBLOCKABLE ARA_SIG_UNBLOCKABLE /* sigcalls.h */

/*
 * What the kernel still decides for a signal whose handler ARA calls. (The
 * App's SA_ONSTACK is about the App's sigaltstack, which ARA applies.)
 */
#define PASSED_FLAGS (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_RESTART | SA_RESETHAND)
/*
 * Every action of ARA's: frames on the thread's DOM0 signal stack. (Test-only
 * variant, tests/variants: without it, the kernel writes frames wherever App
 * code points sp.)
 */
#ifdef ARA_TEST_VARIANT_NO_SIGNAL_STACK
#define ARA_ACTION_FLAGS SA_SIGINFO
#else
#define ARA_ACTION_FLAGS (SA_SIGINFO | SA_ONSTACK)
#endif

/*
 * The App's handlers. The table is process-wide, like the kernel's; a fork
 * inherits it as the child inherits the handlers. Its lock is on the
 * per-process page (a forked child's is free).
 */
static struct ara_ksigaction app_action[_NSIG + 1];
static uint8_t app_owned[_NSIG + 1];
static uint64_t signal_entry;

void ara_app_signals_init(uint64_t gate)
{
	const struct ara_ksigaction own = { gate + ARA_GATE_SIG_OFFSET, ARA_ACTION_FLAGS, 0,
					    ~UINT64_C(0) };
	long r;

	signal_entry = own.handler;
	/* SIGSYS, which the filter raises for the calls it traps, is ARA's alone. */
	r = ara_sys4(__NR_rt_sigaction, ARA_SIGSYS, &own, NULL, sizeof(own.mask));
	if (r != 0)
		ara_fatal("rt_sigaction(SIGSYS) failed", r);
	/*
	 * SIGSEGV too, for its pkey faults, and SIGBUS: both for the faults of
	 * the system call service's copies (app_access.S), which ARA resumes.
	 * The App's disposition is the default.
	 */
	r = ara_sys4(__NR_rt_sigaction, SIGSEGV, &own, NULL, sizeof(own.mask));
	if (r != 0)
		ara_fatal("rt_sigaction(SIGSEGV) failed", r);
	r = ara_sys4(__NR_rt_sigaction, SIGBUS, &own, NULL, sizeof(own.mask));
	if (r != 0)
		ara_fatal("rt_sigaction(SIGBUS) failed", r);
	app_owned[SIGSEGV] = 1; /* app_action[SIGSEGV] is zero: SIG_DFL */
	app_owned[SIGBUS] = 1;
}

/*
 * With the lock held: the kernel's action for sig, after the App asked for
 * req. SIGSEGV and SIGBUS stay ARA's whatever the App asks (a fault on
 * ARA's memory is ARA's to report, one of the service's copies ARA's to
 * resume); the App's own disposition is kept for the others.
 */
static long install(uint64_t sig, struct ara_ksigaction *req)
{
	struct ara_ksigaction k = { signal_entry, ARA_ACTION_FLAGS | (req->flags & PASSED_FLAGS), 0,
				    ~UINT64_C(0) };
	long r;

	req->mask &= ~UNBLOCKABLE;
	if ((req->handler == ARA_SIG_DFL || req->handler == ARA_SIG_IGN || sig == SIGKILL ||
	     sig == SIGSTOP) &&
	    sig != SIGSEGV && sig != SIGBUS) {
		r = ara_sys4(__NR_rt_sigaction, sig, req, NULL, sizeof(req->mask));
		if (r == 0)
			app_owned[sig] = 0;
		return r;
	}
	r = ara_sys4(__NR_rt_sigaction, sig, &k, NULL, sizeof(k.mask));
	if (r == 0) {
		app_action[sig] = *req;
		app_owned[sig] = 1;
	}
	return r;
}

long ara_app_sigaction(uint64_t sig, uint64_t act, uint64_t oact, uint64_t size)
{
	struct ara_ksigaction req, old;
	long r;

	if (size != sizeof(uint64_t) || sig == ARA_SIGSYS) /* SIGSYS is ARA's */
		return -EINVAL;
	if (act && ara_copy_from_app(&req, act, sizeof(req)) != ARA_OK)
		return -EFAULT;
	ara_live_lock(&ara_live->signal_lock);
	r = ara_sys4(__NR_rt_sigaction, sig, NULL, &old, size); /* also checks sig */
	if (r == 0) {
		if (app_owned[sig])
			old = app_action[sig];
		if (act)
			r = install(sig, &req);
	}
	ara_live_unlock(&ara_live->signal_lock);
	if (r == 0 && oact && ara_copy_to_app(oact, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return r;
}

/*
 * The App left sig (SIGSEGV, SIGBUS) to the default action: the kernel's action
 * becomes the default again, and sig is sent again, to be taken once ARA's
 * handler returns. An ignored fault is not ignorable either (the kernel's
 * rule for synchronous signals).
 */
static void take_default(int sig)
{
	const struct ara_ksigaction dfl = { ARA_SIG_DFL, 0, 0, 0 };

	ara_sys4(__NR_rt_sigaction, sig, &dfl, NULL, sizeof(dfl.mask));
	ara_sys3(__NR_tgkill, ara_sys0(__NR_getpid), ara_sys0(__NR_gettid), sig);
}

int ara_app_action_take(int sig, int synchronous, struct ara_ksigaction *act)
{
	int owned;

	ara_live_lock(&ara_live->signal_lock);
	*act = app_action[sig];
	owned = app_owned[sig];
	if (owned && (act->flags & SA_RESETHAND))
		app_owned[sig] = 0; /* the kernel has reset its action too */
	if (owned && (act->handler == ARA_SIG_DFL || act->handler == ARA_SIG_IGN)) {
		if (act->handler == ARA_SIG_DFL || synchronous) {
			app_owned[sig] = 0;
			take_default(sig);
		}
		owned = 0;
	}
	ara_live_unlock(&ara_live->signal_lock);
	return owned;
}

void ara_app_segv_default(void)
{
	ara_live_lock(&ara_live->signal_lock);
	app_owned[SIGSEGV] = 0;
	take_default(SIGSEGV);
	ara_live_unlock(&ara_live->signal_lock);
}

long ara_app_sigprocmask(uint64_t how, uint64_t set, uint64_t oset, uint64_t size, uint64_t *mask,
			 int32_t pid)
{
	const uint64_t old = *mask;
	uint64_t req;

	if (size != sizeof(uint64_t))
		return -EINVAL;
	if (set) {
		long r;

		if (ara_copy_from_app_as(pid, &req, set, sizeof(req)) != ARA_OK)
			return -EFAULT;
		r = ara_app_mask_apply(how, old, req, mask);
		if (r != 0)
			return r;
	}
	if (oset && ara_copy_to_app_as(pid, oset, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return 0;
}

/* The kernel's on_sig_stack, for the App's sigaltstack. */
int ara_app_on_altstack(const struct ara_sigstack *ss, uint64_t sp)
{
	if ((uint32_t)ss->ss_flags & SS_AUTODISARM)
		return 0;
	return sp > ss->ss_sp && sp - ss->ss_sp <= ss->ss_size;
}

/*
 * The flags sigaltstack reports, as the kernel works them out (sas_ss_flags):
 * the slot holds only the stored mode, and "on it" depends on the App's sp.
 */
static int32_t reported_flags(const struct ara_sigstack *cur, uint64_t app_sp)
{
	if (cur->ss_size == 0)
		return SS_DISABLE;
	return ara_app_on_altstack(cur, app_sp) ? SS_ONSTACK
						: (int32_t)((uint32_t)cur->ss_flags & SS_AUTODISARM);
}

/*
 * Sets the App's sigaltstack to req, with the kernel's checks (do_sigaltstack)
 * and one more: ARA writes the App's frames there, so it must be App memory.
 */
long ara_app_set_altstack(struct ara_thread *t, struct ara_sigstack req, uint64_t app_sp)
{
	const unsigned int mode = (unsigned int)req.ss_flags & ~SS_AUTODISARM;

	if (ara_app_on_altstack(ara_thread_app_stack(t), app_sp))
		return -EPERM; /* the kernel's rule: not while on it */
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		req.ss_sp = 0;
		req.ss_size = 0;
	} else if (req.ss_size < MINSIGSTKSZ) {
		return -ENOMEM;
	} else if (!ara_range_is_app(&ara_protected, req.ss_sp, req.ss_size)) {
		return -EPERM; /* on ARA's pages, or not a user address */
	}
	req.pad = 0;
	*ara_thread_app_stack(t) = req;
	return 0;
}

long ara_app_sigaltstack(struct ara_thread *t, uint64_t ss, uint64_t oss, uint64_t app_sp)
{
	struct ara_sigstack old = *ara_thread_app_stack(t);
	struct ara_sigstack req;

	old.ss_flags = reported_flags(ara_thread_app_stack(t), app_sp);
	if (ss) {
		long r;

		if (ara_copy_from_app_as(ara_sig_pid(t), &req, ss, sizeof(req)) != ARA_OK)
			return -EFAULT;
		r = ara_app_set_altstack(t, req, app_sp);
		if (r != 0)
			return r;
	}
	if (oss && ara_copy_to_app_as(ara_sig_pid(t), oss, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return 0;
}
