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
 * The App can also jump into the signal entry, with any registers, or send
 * itself SIGSYS with any siginfo: ARA then reads a "frame" at the App's sp,
 * which is App memory or refused, and what it performs is what the App
 * could have asked for anyway. Signals other than SIGSYS go to the App's
 * handlers directly (a signal that arrives while a thread runs in DOM0 is
 * not handled yet: docs/security.md).
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "dom0.h"
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

void ara_sigreturn_to(struct ara_rt_sigframe *frame, uint64_t stack_index)
	__attribute__((noreturn));

static long sigaction(uint64_t sig, uint64_t act, uint64_t oact, uint64_t size)
{
	struct ksigaction new, old;
	long r;

	if (size != sizeof(uint64_t) || sig == ARA_SIGSYS) /* SIGSYS is ARA's */
		return -EINVAL;
	if (act && ara_copy_from_app(&new, act, sizeof(new)) != ARA_OK)
		return -EFAULT;
	new.mask &= ~UNBLOCKABLE;
	r = ara_sys4(__NR_rt_sigaction, sig, act ? &new : NULL, oact ? &old : NULL, size);
	if (r == 0 && oact && ara_copy_to_app(oact, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return r;
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

static int32_t info_i32(const struct ara_rt_sigframe *f, unsigned int off)
{
	int32_t v;

	memcpy(&v, f->info + off, sizeof(v));
	return v;
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
	uint64_t nr;

	if (ara_copy_from_app(out, app_sp, sizeof(*out)) != ARA_OK)
		ara_stop(ARA_EXIT_REFUSED,
			 "SIGSYS with its frame not in App memory (sent while the thread was in ARA?)",
			 (long)app_sp);
	nr = regs[8];
	/*
	 * A trap: the filter's SIGSYS for system call x8. Anything else (a
	 * SIGSYS from kill or sigqueue, or a jump into the entry) performs
	 * nothing and returns to where it came from.
	 */
	if (info_i32(out, ARA_SI_SIGNO) == ARA_SIGSYS && info_i32(out, ARA_SI_CODE) == ARA_SYS_SECCOMP &&
	    (uint64_t)info_i32(out, ARA_SI_SYSCALL) == nr) {
		if (nr == __NR_rt_sigreturn) {
			/* The App's frame, at its sp when it made the call. */
			if (ara_copy_from_app(out, out->uc.uc_mcontext.sp, sizeof(*out)) != ARA_OK)
				ara_stop(ARA_EXIT_REFUSED, "rt_sigreturn with a frame not in App memory",
					 (long)out->uc.uc_mcontext.sp);
		} else {
			out->uc.uc_mcontext.regs[0] = (uint64_t)perform(nr, regs, out);
		}
	}
	seal(out);
	ara_sigreturn_to(out, stack_index);
}
