/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trap path (IV4, IV5). The filter traps App code's signal system calls
 * (rt_sigreturn, rt_sigaction, rt_sigprocmask, sigaltstack), its opens
 * (openat, openat2: open.c) and what would make memory executable (mmap,
 * mprotect with PROT_EXEC: exec.c; shmat with SHM_EXEC) with SIGSYS,
 * whose handler is the gate's signal entry; the gate claims a DOM0 stack
 * and calls ara_signal. ARA performs the call for the App, after checking
 * it, and returns to the App with rt_sigreturn, made from libara's text, on
 * a frame it built in its own memory:
 *   - every frame ARA hands to rt_sigreturn restores DOM2's row in
 *     POR_EL0 (a frame of the App's asking for another row, or none, gets
 *     DOM2's), never has SIGSYS blocked, and never puts the signal stack on
 *     ARA's pages;
 *   - the App's frames are read once, through the argument range checks
 *     (copy.c), into DOM0; the kernel reads ARA's copy.
 * Every other signal the App handles also reaches ARA first, which calls
 * the App's handler with DOM2's row (deliver). The App can also jump into
 * the signal entry, with any registers, or send itself SIGSYS with any
 * siginfo: ARA then reads a "frame" at the App's sp, which is App memory or
 * refused, and what it performs is what the App could have asked for
 * anyway. A signal that arrives while a thread runs inside ARA ends the
 * process (deferring it is not done yet: docs/security.md).
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "dom0.h"
#include "live.h"
#include "mem.h"
#include "sigframe.h"
#include "sys.h"
#include "thread.h"

#define EPERM 1
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EINVAL 22
#define ENOSYS 38

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define ARA_MINSIGSTKSZ 5120u /* arm64 MINSIGSTKSZ: do_sigaltstack's minimum */

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))
#define SIGKILL 9
#define SIGSTOP 19
/* Signals the App can never block: SIGSYS carries its own trapped calls. */
#define UNBLOCKABLE (BIT(ARA_SIGSYS) | BIT(SIGKILL) | BIT(SIGSTOP))

/* struct sigaction as arm64's rt_sigaction takes it. */
struct ksigaction {
	uint64_t handler, flags, restorer, mask;
};

#define ARA_NSIG 64
#define SIG_DFL 0
#define SIG_IGN 1
#define SA_NOCLDSTOP 0x1u
#define SA_NOCLDWAIT 0x2u
#define SA_SIGINFO 0x4u
#define SA_RESTORER 0x04000000u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u
/* What the kernel still decides for a signal whose handler ARA calls. */
#define PASSED_FLAGS (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_ONSTACK | SA_RESTART | SA_RESETHAND)
#define PSR_BTYPE_MASK 0xc00u
#define SIGSEGV 11
#define SEGV_PKUERR 4

void ara_sigreturn_to(struct ara_rt_sigframe *frame, uint64_t stack_index)
	__attribute__((noreturn));

/*
 * The App's handlers. For a signal the App handles, the kernel's handler is
 * ARA's signal entry, with every signal blocked; ARA calls the App's handler
 * from there with DOM2's row (deliver, below). The table is process-wide,
 * like the kernel's; a fork inherits it as the child inherits the
 * handlers. Its lock is on the per-process page (a forked child's is free).
 */
static struct ksigaction app_action[ARA_NSIG + 1];
static uint8_t app_owned[ARA_NSIG + 1];
static uint64_t signal_entry, handler_return;

static void lock(void)
{
	while (__atomic_exchange_n(&ara_live->signal_lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&ara_live->signal_lock, __ATOMIC_RELAXED))
			__asm__ volatile("yield");
}

static void unlock(void)
{
	__atomic_store_n(&ara_live->signal_lock, 0, __ATOMIC_RELEASE);
}

void ara_signals_init(uint64_t gate)
{
	const struct ksigaction own = { gate + ARA_GATE_SIG_OFFSET, SA_SIGINFO, 0, ~UINT64_C(0) };
	long r;

	signal_entry = own.handler;
	handler_return = own.handler + ARA_GATE_SIGRETURN_OFFSET;
	/* SIGSYS, which the filter raises for the calls it traps, is ARA's alone. */
	r = ara_sys4(__NR_rt_sigaction, ARA_SIGSYS, &own, NULL, sizeof(own.mask));
	if (r != 0)
		ara_fatal("rt_sigaction(SIGSYS) failed", r);
	/* SIGSEGV too, for its pkey faults; the App's disposition is the default. */
	r = ara_sys4(__NR_rt_sigaction, SIGSEGV, &own, NULL, sizeof(own.mask));
	if (r != 0)
		ara_fatal("rt_sigaction(SIGSEGV) failed", r);
	app_owned[SIGSEGV] = 1; /* app_action[SIGSEGV] is zero: SIG_DFL */
}

/*
 * With the lock held: the kernel's action for sig, after the App asked for
 * req. SIGSEGV stays ARA's whatever the App asks (a fault on ARA's memory
 * is ARA's to report); the App's own disposition is kept for the others.
 */
static long install(uint64_t sig, struct ksigaction *req)
{
	struct ksigaction k = { signal_entry, SA_SIGINFO | (req->flags & PASSED_FLAGS), 0, ~UINT64_C(0) };
	long r;

	req->mask &= ~UNBLOCKABLE;
	if ((req->handler == SIG_DFL || req->handler == SIG_IGN || sig == SIGKILL || sig == SIGSTOP) &&
	    sig != SIGSEGV) {
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

static long sigaction(uint64_t sig, uint64_t act, uint64_t oact, uint64_t size)
{
	struct ksigaction req, old;
	long r;

	if (size != sizeof(uint64_t) || sig == ARA_SIGSYS) /* SIGSYS is ARA's */
		return -EINVAL;
	if (act && ara_copy_from_app(&req, act, sizeof(req)) != ARA_OK)
		return -EFAULT;
	lock();
	r = ara_sys4(__NR_rt_sigaction, sig, NULL, &old, size); /* also checks sig */
	if (r == 0) {
		if (app_owned[sig])
			old = app_action[sig];
		if (act)
			r = install(sig, &req);
	}
	unlock();
	if (r == 0 && oact && ara_copy_to_app(oact, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return r;
}

/*
 * Turns out, the frame the kernel wrote at app_sp for signal sig, into the
 * call of the App's handler: as the kernel would have made it, but with
 * DOM2's row (seal) and returning to ARA's trampoline unless the App gave a
 * restorer. The App's frame at app_sp is left as the kernel wrote it: it is
 * what the handler gets, and what its rt_sigreturn will hand back.
 */
static int32_t info_i32(const struct ara_rt_sigframe *f, unsigned int off)
{
	int32_t v;

	memcpy(&v, f->info + off, sizeof(v));
	return v;
}

/* App code touched ARA's memory: say where, never what is there, and end. */
static __attribute__((noreturn)) void pkey_fault(const struct ara_rt_sigframe *f)
{
	struct ara_msg m = { .len = 0 };
	uint64_t addr;

	memcpy(&addr, f->info + ARA_SI_ADDR, sizeof(addr));
	ara_msg_str(&m, "ara: App code at pc ");
	ara_msg_hex(&m, f->uc.uc_mcontext.pc);
	ara_msg_str(&m, " touched memory its domain may not (SEGV_PKUERR at ");
	ara_msg_hex(&m, addr);
	ara_msg_str(&m, "); ending the process\n");
	ara_msg_emit(&m);
	ara_sys_exit_group(ARA_EXIT_PKEY_FAULT);
}

/*
 * The App left sig (SIGSEGV) to the default action: the kernel's action
 * becomes the default again, and sig is sent again, to be taken once ARA's
 * handler returns. An ignored fault is not ignorable either (the kernel's
 * rule for synchronous signals).
 */
static void take_default(int sig)
{
	const struct ksigaction dfl = { SIG_DFL, 0, 0, 0 };

	ara_sys4(__NR_rt_sigaction, sig, &dfl, NULL, sizeof(dfl.mask));
	ara_sys3(__NR_tgkill, ara_sys0(__NR_getpid), ara_sys0(__NR_gettid), sig);
}

static void deliver(struct ara_rt_sigframe *out, uint64_t app_sp, int sig)
{
	struct ara_sigcontext *mc = &out->uc.uc_mcontext;
	struct ksigaction act;
	int owned;

	if (sig == SIGSEGV && info_i32(out, ARA_SI_CODE) == SEGV_PKUERR)
		pkey_fault(out);
	lock();
	act = app_action[sig];
	owned = app_owned[sig];
	if (owned && (act.flags & SA_RESETHAND))
		app_owned[sig] = 0; /* the kernel has reset its action too */
	if (owned && (act.handler == SIG_DFL || act.handler == SIG_IGN)) {
		const int synchronous = info_i32(out, ARA_SI_CODE) > 0;

		if (act.handler == SIG_DFL || synchronous) {
			app_owned[sig] = 0;
			take_default(sig);
		}
		owned = 0;
	}
	unlock();
	if (!owned)
		return; /* nothing of the App's to call */
	mc->regs[0] = (uint64_t)sig;
	mc->regs[1] = app_sp + offsetof(struct ara_rt_sigframe, info);
	mc->regs[2] = app_sp + offsetof(struct ara_rt_sigframe, uc);
	mc->regs[29] = app_sp + sizeof(struct ara_rt_sigframe); /* the kernel's frame record */
	mc->regs[30] = (act.flags & SA_RESTORER) ? act.restorer : handler_return;
	mc->sp = app_sp;
	mc->pc = act.handler;
	mc->pstate &= ~PSR_BTYPE_MASK;
	out->uc.uc_sigmask |= act.mask | ((act.flags & SA_NODEFER) ? 0 : BIT(sig));
}

/* The mask the App returns to is the frame's: rt_sigreturn sets it. */
static long sigprocmask(uint64_t how, uint64_t set, uint64_t oset, uint64_t size, uint64_t *mask)
{
	const uint64_t old = *mask;
	uint64_t req;

	if (size != sizeof(uint64_t))
		return -EINVAL;
	if (set) {
		if (ara_copy_from_app(&req, set, sizeof(req)) != ARA_OK)
			return -EFAULT;
		if (how == SIG_BLOCK)
			*mask = old | req;
		else if (how == SIG_UNBLOCK)
			*mask = old & ~req;
		else if (how == SIG_SETMASK)
			*mask = req;
		else
			return -EINVAL;
		*mask &= ~UNBLOCKABLE;
	}
	if (oset && ara_copy_to_app(oset, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return 0;
}

/* A signal stack the kernel may write frames to, with every key enabled. */
static int stack_allowed(const struct ara_sigstack *ss)
{
	const unsigned int mode = (unsigned int)ss->ss_flags & ~SS_AUTODISARM;

	if (mode == SS_DISABLE)
		return 1;
	if (mode != 0 && mode != SS_ONSTACK)
		return 0;
	return ss->ss_size >= ARA_MINSIGSTKSZ && ara_range_is_app(&ara_protected, ss->ss_sp, ss->ss_size);
}

/*
 * The flags sigaltstack reports, as the kernel works them out (sas_ss_flags):
 * the frame holds only the stored mode, and "on it" depends on the App's sp.
 */
static int32_t reported_flags(const struct ara_sigstack *cur, uint64_t app_sp)
{
	const uint32_t autodisarm = (uint32_t)cur->ss_flags & SS_AUTODISARM;

	if (cur->ss_size == 0)
		return SS_DISABLE;
	if (!autodisarm && app_sp > cur->ss_sp && app_sp - cur->ss_sp <= cur->ss_size)
		return SS_ONSTACK;
	return (int32_t)autodisarm;
}

/* The signal stack the App returns with is the frame's: rt_sigreturn sets it. */
static long sigaltstack(uint64_t ss, uint64_t oss, struct ara_sigstack *cur, uint64_t app_sp)
{
	struct ara_sigstack old = *cur;
	struct ara_sigstack req;

	old.ss_flags = reported_flags(cur, app_sp);
	if (ss) {
		unsigned int mode;

		if (ara_copy_from_app(&req, ss, sizeof(req)) != ARA_OK)
			return -EFAULT;
		if (old.ss_flags == SS_ONSTACK)
			return -EPERM; /* the kernel's rule: not while on it */
		mode = (unsigned int)req.ss_flags & ~SS_AUTODISARM;
		if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
			return -EINVAL;
		if (mode == SS_DISABLE) {
			req.ss_sp = 0;
			req.ss_size = 0;
		} else if (req.ss_size < ARA_MINSIGSTKSZ) {
			return -ENOMEM;
		} else if (!stack_allowed(&req)) {
			return -EPERM; /* on ARA's pages, or not a user address */
		}
		req.pad = 0;
		*cur = req;
	}
	if (oss && ara_copy_to_app(oss, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return 0;
}

static long perform(uint64_t nr, const uint64_t *a, struct ara_rt_sigframe *out)
{
	switch (nr) {
	case __NR_rt_sigaction:
		return sigaction(a[0], a[1], a[2], a[3]);
	case __NR_rt_sigprocmask:
		return sigprocmask(a[0], a[1], a[2], a[3], &out->uc.uc_sigmask);
	case __NR_sigaltstack:
		return sigaltstack(a[0], a[1], &out->uc.uc_stack, out->uc.uc_mcontext.sp);
	case __NR_openat:
		return ara_app_openat(a[0], a[1], a[2], a[3]);
	case __NR_openat2:
		return ara_app_openat2(a[0], a[1], a[2], a[3]);
	case __NR_mmap:
		return ara_app_mmap(a[0], a[1], a[2], a[3], a[4], a[5]);
	case __NR_mprotect:
		return ara_app_mprotect(a[0], a[1], a[2]);
	case __NR_shmat: /* with SHM_EXEC: shared memory has writable aliases */
		return -EACCES;
	default: /* only a forged SIGSYS gets here */
		return -ENOSYS;
	}
}


/* What rt_sigreturn will restore: DOM2's row, SIGSYS unblocked, an App stack. */
static void seal(struct ara_rt_sigframe *out)
{
	enum ara_sigframe_result r;

#ifdef ARA_TEST_VARIANT_NO_FRAME_CHECK
	/* Test-only (tests/variants): the frame's POR_EL0 is left as the App wrote it. */
	r = ARA_SIGFRAME_OK;
#else
	r = ara_sigframe_set_por(out, ARA_POR_LEAVE);
#endif
	if (r != ARA_SIGFRAME_OK)
		ara_stop(ARA_EXIT_REFUSED,
			 "a signal frame with records ARA does not accept (extra_context: SVE or SME "
			 "state beyond 4 KiB?)",
			 r);
	if (!stack_allowed(&out->uc.uc_stack))
		ara_stop(ARA_EXIT_REFUSED, "rt_sigreturn on a frame whose signal stack is on ARA's pages",
			 0);
	out->uc.uc_sigmask &= ~UNBLOCKABLE;
	ara_memzero(out->info, sizeof(out->info)); /* rt_sigreturn does not read it */
}

void ara_signal(uint64_t app_sp, uint64_t stack_index)
{
	struct ara_thread *t = ara_thread_self();
	struct ara_rt_sigframe *out = &t->exit_frame;
	const uint64_t *regs = out->uc.uc_mcontext.regs;
	uint64_t nr, row;
	int sig;

	if (ara_copy_from_app(out, app_sp, sizeof(*out)) != ARA_OK)
		ara_stop(ARA_EXIT_REFUSED,
			 "a signal arrived while the thread ran inside ARA (or its frame is not in "
			 "App memory)",
			 (long)app_sp);
	/*
	 * App code runs with DOM2's row, always. A frame with another row
	 * interrupted the gate on its way in or out, with the App's sp: it
	 * cannot be resumed from a frame in App memory.
	 */
	if (ara_sigframe_get_por(out, &row) != ARA_SIGFRAME_OK || row != ARA_POR_LEAVE)
		ara_stop(ARA_EXIT_REFUSED, "a signal arrived while the thread entered or left ARA",
			 (long)row);
	nr = regs[8];
	sig = info_i32(out, ARA_SI_SIGNO);
	if (sig == ARA_SIGSYS && info_i32(out, ARA_SI_CODE) == ARA_SYS_SECCOMP &&
	    (uint64_t)info_i32(out, ARA_SI_SYSCALL) == nr) {
		/* A trap: the filter's SIGSYS for system call x8. */
		if (nr == __NR_rt_sigreturn) {
			/* The App's frame, at its sp when it made the call. */
			if (ara_copy_from_app(out, out->uc.uc_mcontext.sp, sizeof(*out)) != ARA_OK)
				ara_stop(ARA_EXIT_REFUSED, "rt_sigreturn with a frame not in App memory",
					 (long)out->uc.uc_mcontext.sp);
		} else {
			out->uc.uc_mcontext.regs[0] = (uint64_t)perform(nr, regs, out);
		}
	} else if (sig > 0 && sig <= ARA_NSIG && sig != ARA_SIGSYS) {
		deliver(out, app_sp, sig);
	}
	/* Anything else (a SIGSYS from kill or sigqueue, a jump into the entry): nothing to do. */
	seal(out);
	ara_sigreturn_to(out, stack_index);
}
