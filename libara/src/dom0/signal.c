/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trap path (IV4, IV5). The filter traps App code's signal system calls
 * (rt_sigreturn, rt_sigaction, rt_sigprocmask, sigaltstack), its opens
 * (openat, openat2: open.c) and what would make memory executable (mmap,
 * mprotect with PROT_EXEC: exec.c; shmat with SHM_EXEC) with SIGSYS,
 * whose handler is the gate's signal entry; so is clone with CLONE_VM
 * (clone.c). The gate claims a DOM0 stack and calls ara_signal. ARA
 * performs the call for the App, after checking it, and returns to the App
 * with rt_sigreturn, made on ARA's system-call page, on a frame it built in its
 * own memory:
 *   - every frame ARA hands to rt_sigreturn restores DOM2's row in
 *     POR_EL0 (a frame of the App's asking for another row, or none, gets
 *     DOM2's), never has SIGSYS blocked, and arms the thread's DOM0 signal
 *     stack again (ara_signal_seal);
 *   - the kernel writes every frame of ARA's actions (all SA_ONSTACK) on
 *     the thread's DOM0 signal stack (thread.h), never at the sp App code
 *     chose; ARA reads it there once and wipes it;
 *   - the App's frames are read once, through the argument range checks
 *     (copy.c), into DOM0; the kernel reads ARA's copy.
 * Every other signal the App handles also reaches ARA first, which builds
 * the frame of the App's handler in App memory, on the App's sigaltstack
 * if it asked for one (kept in the thread's slot), and calls the handler
 * with DOM2's row (deliver). The App can also jump into the signal entry,
 * with any registers, or send itself SIGSYS with any siginfo: ARA then
 * reads a "frame" at the App's sp, which is App memory or refused, and
 * what it performs is what the App could have asked for anyway. A signal
 * that arrives while a thread runs inside ARA ends the process (deferring
 * it is not done yet: docs/security.md).
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "dom0.h"
#include "interrupted.h"
#include "live.h"
#include "mem.h"
#include "sigcalls.h"
#include "sigframe.h"
#include "sys.h"
#include "thread.h"
#include "vfork.h"

#define EPERM 1
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EINVAL 22
#define ENOSYS 38

#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define ARA_MINSIGSTKSZ 5120u /* arm64 MINSIGSTKSZ: do_sigaltstack's minimum */

#define BIT(sig) ARA_SIG_BIT(sig)
#define SIGKILL 9
#define SIGSTOP 19
#define UNBLOCKABLE ARA_SIG_UNBLOCKABLE /* sigcalls.h */

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
#define PSR_BTYPE_MASK 0xc00u
#define SIGBUS 7
#define SIGSEGV 11
#define SEGV_PKUERR 4

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

#ifdef ARA_TEST_VARIANT_FRAME_LEFTOVERS
/*
 * Test-only (tests/variants): DOM0's canary where a frame holds no data, as
 * an earlier frame or DOM0's own code could have left it: all of t's slot,
 * and the top of its signal stack, where the kernel writes its frames.
 */
static void plant_leftovers(struct ara_thread *t)
{
	static const char canary[16] = "ARA-DOM0-CANARY";
	const struct ara_sigstack ss = ara_thread_sigstack(t);
	unsigned char *slot = (unsigned char *)&t->exit_frame;
	unsigned char *top = (unsigned char *)(uintptr_t)(ss.ss_sp + ss.ss_size - 2 * sizeof(t->exit_frame));

	for (size_t i = 0; i < sizeof(t->exit_frame); i++)
		slot[i] = (unsigned char)canary[i % sizeof(canary)];
	for (size_t i = 0; i < 2 * sizeof(t->exit_frame); i++)
		top[i] = (unsigned char)canary[i % sizeof(canary)];
}
#endif

void ara_signals_init(uint64_t gate)
{
	const struct ksigaction own = { gate + ARA_GATE_SIG_OFFSET, ARA_ACTION_FLAGS, 0, ~UINT64_C(0) };
	long r;

	struct ara_thread *first = ara_thread_reserve();

	/* This thread, the only one yet, gets its signal stack before any frame. */
	if (!first)
		ara_fatal("no thread slot for the first thread", 0);
	ara_thread_bind(first);
	ara_thread_arm(first);
#ifdef ARA_TEST_VARIANT_FRAME_LEFTOVERS
	plant_leftovers(first);
#endif
	ara_live->threads_pid = (int32_t)ara_sys0(__NR_getpid);
	signal_entry = own.handler;
	handler_return = own.handler + ARA_GATE_SIGRETURN_OFFSET;
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
static long install(uint64_t sig, struct ksigaction *req)
{
	struct ksigaction k = { signal_entry, ARA_ACTION_FLAGS | (req->flags & PASSED_FLAGS), 0,
				~UINT64_C(0) };
	long r;

	req->mask &= ~UNBLOCKABLE;
	if ((req->handler == SIG_DFL || req->handler == SIG_IGN || sig == SIGKILL || sig == SIGSTOP) &&
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
	struct ksigaction req, old;
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
 * The App left sig (SIGSEGV, SIGBUS) to the default action: the kernel's action
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

/*
 * t's process ID, which ara_thread_self found equal to the kernel's for the
 * signal being handled: ARA's copies for t need not ask again.
 */
static int32_t pid_of(const struct ara_thread *t)
{
	int32_t tid, pid;

	ara_thread_id(t, &tid, &pid);
	return pid;
}

/* The kernel's on_sig_stack, for the App's sigaltstack. */
static int on_app_stack(const struct ara_sigstack *ss, uint64_t sp)
{
	if ((uint32_t)ss->ss_flags & SS_AUTODISARM)
		return 0;
	return sp > ss->ss_sp && sp - ss->ss_sp <= ss->ss_size;
}

/*
 * Writes the frame of the App's handler for the signal in out, as the
 * kernel would have (get_sigframe, setup_rt_frame): on the App's
 * sigaltstack if the action is SA_ONSTACK and the thread is not on it
 * already, else below the interrupted sp; a frame record above it. It
 * holds the interrupted state, with the App's sigaltstack as it stood.
 * Returns where, or 0 if that is not App memory the App can write.
 */
static uint64_t write_app_frame(struct ara_thread *t, struct ara_rt_sigframe *out, uint64_t flags)
{
	const struct ara_sigcontext *mc = &out->uc.uc_mcontext;
	const uint64_t record_regs[2] = { mc->regs[29], mc->regs[30] };
	struct ara_sigstack *as = ara_thread_app_stack(t);
	uint64_t top = mc->sp, record, frame_at;
	size_t used;

	if ((flags & SA_ONSTACK) && as->ss_size != 0 && !on_app_stack(as, mc->sp))
		top = as->ss_sp + as->ss_size;
	record = (top - 16) & ~UINT64_C(15);
	frame_at = record - sizeof(*out);
	out->uc.uc_stack = *as;
	if ((uint32_t)as->ss_flags & SS_AUTODISARM)
		*as = (struct ara_sigstack){ .ss_flags = SS_DISABLE };
	/*
	 * Only what ARA chose leaves DOM0: the fields and records, as the
	 * kernel writes them, with the gaps among the fields zeroed. The slot's
	 * bytes beyond the records (an earlier, longer frame's, perhaps one
	 * that interrupted DOM0) and the gaps (whatever the signal stack held)
	 * are not the App's. (Test-only variant, tests/variants: the slot's
	 * whole frame, as it stands.)
	 */
#ifdef ARA_TEST_VARIANT_FRAME_UNTRIMMED
	used = sizeof(*out);
#else
	used = ara_sigframe_used(out);
	ara_sigframe_clear_gaps(out);
#endif
	if (top < sizeof(*out) + 16 || used == 0 ||
	    ara_copy_to_app_as(pid_of(t), record, record_regs, sizeof(record_regs)) != ARA_OK ||
	    ara_copy_to_app_as(pid_of(t), frame_at, out, used) != ARA_OK)
		return 0;
	return frame_at;
}

/*
 * Turns out, the interrupted state and the kernel's siginfo for signal
 * sig, into the call of the App's handler: the handler's frame in App
 * memory (write_app_frame), which its rt_sigreturn hands back; DOM2's row
 * (seal); and a return to ARA's trampoline unless the App gave a restorer.
 */
static void deliver(struct ara_thread *t, struct ara_rt_sigframe *out, int sig)
{
	struct ara_sigcontext *mc = &out->uc.uc_mcontext;
	struct ksigaction act;
	uint64_t frame_at;
	int owned;

	if (sig == SIGSEGV && ara_sigframe_info_i32(out, ARA_SI_CODE) == SEGV_PKUERR)
		pkey_fault(out);
	ara_live_lock(&ara_live->signal_lock);
	act = app_action[sig];
	owned = app_owned[sig];
	if (owned && (act.flags & SA_RESETHAND))
		app_owned[sig] = 0; /* the kernel has reset its action too */
	if (owned && (act.handler == SIG_DFL || act.handler == SIG_IGN)) {
		const int synchronous = ara_sigframe_info_i32(out, ARA_SI_CODE) > 0;

		if (act.handler == SIG_DFL || synchronous) {
			app_owned[sig] = 0;
			take_default(sig);
		}
		owned = 0;
	}
	ara_live_unlock(&ara_live->signal_lock);
	if (!owned)
		return; /* nothing of the App's to call */
	frame_at = write_app_frame(t, out, act.flags);
	if (frame_at == 0) {
		/* The kernel's answer to a frame it cannot write: SIGSEGV, by default. */
		ara_live_lock(&ara_live->signal_lock);
		app_owned[SIGSEGV] = 0;
		take_default(SIGSEGV);
		ara_live_unlock(&ara_live->signal_lock);
		out->uc.uc_sigmask &= ~BIT(SIGSEGV);
		return;
	}
	mc->regs[0] = (uint64_t)sig;
	mc->regs[1] = frame_at + offsetof(struct ara_rt_sigframe, info);
	mc->regs[2] = frame_at + offsetof(struct ara_rt_sigframe, uc);
	mc->regs[29] = frame_at + sizeof(struct ara_rt_sigframe); /* the frame record */
	mc->regs[30] = (act.flags & SA_RESTORER) ? act.restorer : handler_return;
	mc->sp = frame_at;
	mc->pc = act.handler;
	mc->pstate &= ~PSR_BTYPE_MASK;
	out->uc.uc_sigmask |= act.mask | ((act.flags & SA_NODEFER) ? 0 : BIT(sig));
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

/*
 * The flags sigaltstack reports, as the kernel works them out (sas_ss_flags):
 * the slot holds only the stored mode, and "on it" depends on the App's sp.
 */
static int32_t reported_flags(const struct ara_sigstack *cur, uint64_t app_sp)
{
	if (cur->ss_size == 0)
		return SS_DISABLE;
	return on_app_stack(cur, app_sp) ? SS_ONSTACK : (int32_t)((uint32_t)cur->ss_flags & SS_AUTODISARM);
}

/*
 * Sets the App's sigaltstack to req, with the kernel's checks (do_sigaltstack)
 * and one more: ARA writes the App's frames there, so it must be App memory.
 */
static long set_app_stack(struct ara_thread *t, struct ara_sigstack req, uint64_t app_sp)
{
	const unsigned int mode = (unsigned int)req.ss_flags & ~SS_AUTODISARM;

	if (on_app_stack(ara_thread_app_stack(t), app_sp))
		return -EPERM; /* the kernel's rule: not while on it */
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		req.ss_sp = 0;
		req.ss_size = 0;
	} else if (req.ss_size < ARA_MINSIGSTKSZ) {
		return -ENOMEM;
	} else if (!ara_range_is_app(&ara_protected, req.ss_sp, req.ss_size)) {
		return -EPERM; /* on ARA's pages, or not a user address */
	}
	req.pad = 0;
	*ara_thread_app_stack(t) = req;
	return 0;
}

static long sigaltstack(struct ara_thread *t, uint64_t ss, uint64_t oss, uint64_t app_sp)
{
	struct ara_sigstack old = *ara_thread_app_stack(t);
	struct ara_sigstack req;

	old.ss_flags = reported_flags(ara_thread_app_stack(t), app_sp);
	if (ss) {
		long r;

		if (ara_copy_from_app_as(pid_of(t), &req, ss, sizeof(req)) != ARA_OK)
			return -EFAULT;
		r = set_app_stack(t, req, app_sp);
		if (r != 0)
			return r;
	}
	if (oss && ara_copy_to_app_as(pid_of(t), oss, &old, sizeof(old)) != ARA_OK)
		return -EFAULT;
	return 0;
}

static long perform(struct ara_thread *t, uint64_t nr, struct ara_rt_sigframe *out,
		    uint64_t stack_index)
{
	const uint64_t *a = out->uc.uc_mcontext.regs;

	switch (nr) {
	case __NR_rt_sigaction:
		return ara_app_sigaction(a[0], a[1], a[2], a[3]);
	case __NR_rt_sigprocmask: /* the mask the App returns to is the frame's */
		return ara_app_sigprocmask(a[0], a[1], a[2], a[3], &out->uc.uc_sigmask, pid_of(t));
	case __NR_sigaltstack:
		return sigaltstack(t, a[0], a[1], out->uc.uc_mcontext.sp);
	case __NR_clone:
		return ara_app_clone(t, out);
	case __NR_prctl: /* PR_SET_PDEATHSIG: vfork.h */
		return ara_app_prctl(t, a[0], a[1]);
	case __NR_openat:
		return ara_app_openat(a[0], a[1], a[2], a[3]);
	case __NR_openat2:
		return ara_app_openat2(a[0], a[1], a[2], a[3]);
	case __NR_mmap:
		return ara_app_mmap(a[0], a[1], a[2], a[3], a[4], a[5]);
	case __NR_mprotect:
		return ara_app_mprotect(a[0], a[1], a[2]);
	case __NR_execve:
		return ara_app_execveat(t, stack_index, (uint64_t)(int64_t)ARA_AT_FDCWD, a[0], a[1],
					a[2], 0, out->uc.uc_sigmask);
	case __NR_execveat:
		return ara_app_execveat(t, stack_index, a[0], a[1], a[2], a[3], a[4],
					out->uc.uc_sigmask);
	case __NR_shmat: /* with SHM_EXEC: shared memory has writable aliases */
		return -EACCES;
	default: /* only a forged SIGSYS gets here */
		return -ENOSYS;
	}
}

/* rt_sigreturn for App code: its frame, at its sp when it made the call. */
static void app_sigreturn(struct ara_thread *t, struct ara_rt_sigframe *out)
{
	const uint64_t at = out->uc.uc_mcontext.sp;

	if (ara_copy_from_app_as(pid_of(t), out, at, sizeof(*out)) != ARA_OK)
		ara_stop(ARA_EXIT_REFUSED, "rt_sigreturn with a frame not in App memory", (long)at);
	/* The kernel's restore_altstack: the frame's, errors ignored. */
	(void)set_app_stack(t, out->uc.uc_stack, at);
}

/* Every frame ARA hands to rt_sigreturn: t's signal stack armed again, SIGSYS unblocked. */
static void finish(const struct ara_thread *t, struct ara_rt_sigframe *out)
{
#ifdef ARA_TEST_VARIANT_NO_SIGNAL_STACK
	(void)t;
	out->uc.uc_stack = (struct ara_sigstack){ .ss_flags = SS_DISABLE };
#else
	out->uc.uc_stack = ara_thread_sigstack(t); /* rt_sigreturn arms it again */
#endif
	out->uc.uc_sigmask &= ~UNBLOCKABLE;
	ara_memzero(out->info, sizeof(out->info)); /* rt_sigreturn does not read it */
}

void ara_signal_seal(const struct ara_thread *t, struct ara_rt_sigframe *out)
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
	finish(t, out);
}

/*
 * Reads the frame at frame_at into out: the kernel's, on the thread's
 * signal stack (read once, then wiped: genuine, the return value), or,
 * after a jump into the signal entry, whatever App memory holds there,
 * read like any argument.
 */
static int read_frame(const struct ara_thread *t, uint64_t frame_at, struct ara_rt_sigframe *out)
{
	void *kernel_frame = (void *)(uintptr_t)frame_at;

	if (ara_thread_frame_on_sigstack(t, frame_at)) {
		/*
		 * Only the part the kernel wrote (ara_sigframe_used, about 1.2 KiB
		 * of 4.6), which is all the kernel reads back: the rest of out is
		 * never handed on (write_app_frame). A list the walk refuses is
		 * copied whole, and refused on the copy.
		 */
		const size_t used = ara_sigframe_copy_size(kernel_frame);

		memcpy(out, kernel_frame, used);
		ara_memzero(kernel_frame, used);
		return 1;
	}
	if (ara_copy_from_app_as(pid_of(t), out, frame_at, sizeof(*out)) == ARA_OK)
		return 0;
#ifdef ARA_TEST_VARIANT_NO_SIGNAL_STACK
	/* Test-only: the kernel's frame, wherever App code had pointed sp. */
	memcpy(out, kernel_frame, sizeof(*out));
	return 0;
#else
	ara_stop(ARA_EXIT_REFUSED, "a signal frame neither on the thread's signal stack nor in App memory",
		 (long)frame_at);
#endif
}

/*
 * A signal that interrupted ARA (interrupted.c): delivered to the App at
 * the App state the call was rolled to, or left waiting while ARA resumes
 * (does not return then).
 */
static void interrupted(struct ara_thread *t, struct ara_rt_sigframe *out, int sig, int genuine,
			uint64_t row, uint64_t stack_index)
{
	enum ara_interrupted r = ARA_INTERRUPTED_REFUSED;

	if (genuine && row == ARA_POR_ENTER && sig > 0 && sig <= ARA_NSIG)
		r = ara_interrupted(t, out, sig);
	if (r == ARA_INTERRUPTED_REFUSED)
		ara_stop(ARA_EXIT_REFUSED,
			 "a fault inside ARA, or a signal in its signal entry (POR_EL0 not DOM2's)", (long)row);
	if (r == ARA_INTERRUPTED_RESUME_DOM0) {
		finish(t, out); /* DOM0's row, as the frame says */
		ara_sigreturn_to(out, stack_index);
	}
	/* An App state now: the handler's frame shows the App's row, not DOM0's. */
	if (ara_sigframe_set_por(out, ARA_POR_LEAVE) != ARA_SIGFRAME_OK)
		ara_stop(ARA_EXIT_REFUSED, "a signal frame with records ARA does not accept", 0);
	if (sig > 0 && sig <= ARA_NSIG && sig != ARA_SIGSYS)
		deliver(t, out, sig);
}

void ara_signal(uint64_t frame_at, uint64_t stack_index)
{
	struct ara_rt_sigframe *out;
	struct ara_thread *t;
	const uint64_t *regs;
	uint64_t nr, row;
	int sig, genuine;

	ara_live_ensure(); /* first entry in a forked child: its empty heap (exec.c uses it) */
	t = ara_thread_self(frame_at);
#ifdef ARA_TEST_VARIANT_NO_SIGNAL_STACK
	if (!t && (t = ara_thread_reserve()) != NULL) /* Test-only: a forked child's thread */
		ara_thread_bind(t);
#endif
	if (!t)
		ara_stop(ARA_EXIT_REFUSED, "a signal for a thread ARA did not start", (long)frame_at);
	out = &t->exit_frame;
	regs = out->uc.uc_mcontext.regs;
	genuine = read_frame(t, frame_at, out);
	if (ara_sigframe_get_por(out, &row) != ARA_SIGFRAME_OK)
		ara_stop(ARA_EXIT_REFUSED, "a signal frame without a readable POR_EL0", 0);
	nr = regs[8];
	sig = ara_sigframe_info_i32(out, ARA_SI_SIGNO);
	/* App code runs with DOM2's row, always: any other row interrupted ARA. */
	if (row != ARA_POR_LEAVE)
		interrupted(t, out, sig, genuine, row, stack_index);
	else if (sig == ARA_SIGSYS && ara_sigframe_info_i32(out, ARA_SI_CODE) == ARA_SYS_SECCOMP &&
	    (uint64_t)ara_sigframe_info_i32(out, ARA_SI_SYSCALL) == nr) {
		/* A trap: the filter's SIGSYS for system call x8. */
		if (nr == __NR_rt_sigreturn)
			app_sigreturn(t, out);
		else
			out->uc.uc_mcontext.regs[0] = (uint64_t)perform(t, nr, out, stack_index);
	} else if (sig > 0 && sig <= ARA_NSIG && sig != ARA_SIGSYS) {
		deliver(t, out, sig);
	}
	/* Anything else (a SIGSYS from kill or sigqueue, a jump into the entry): nothing to do. */
	ara_signal_seal(t, out);
	ara_sigreturn_to(out, stack_index);
}
