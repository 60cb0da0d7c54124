/* SPDX-License-Identifier: Apache-2.0 */
/*
 * New tasks that share the App's memory: threads, and vfork children
 * (clone with CLONE_VM, which the filter traps; clone3, whose arguments
 * the filter cannot read, is answered ENOSYS, and glibc falls back to
 * clone).
 *
 * A task sharing the memory needs its own DOM0 signal stack before its
 * first App instruction (thread.h says why), so ARA makes the clone call
 * itself: the child starts in ARA's code (clone.S), on the signal stack
 * of the slot ARA reserved for it (no frame can land there before it enters
 * the App: it starts with every signal blocked), with DOM0's row; it binds
 * the slot, arms the signal stack, and enters the App where the kernel would have put it (after the
 * clone call, x0 = 0, sp = the stack the App asked for) with rt_sigreturn
 * on a frame of ARA's, sealed like every other (signal.c). A clone
 * without CLONE_VM (fork) is not trapped: the child's memory is a copy,
 * its signal stack the parent thread's copy.
 *
 * The kernel writes the thread IDs clone asks for with the caller's row,
 * which here is DOM0's: those addresses must be App memory.
 */
#include "dom0.h"
#include "thread.h"

#define EAGAIN 11
#define EFAULT 14
#define CLONE_VM 0x100u
#define CLONE_PIDFD 0x1000u
#define CLONE_VFORK 0x4000u
#define CLONE_PARENT_SETTID 0x100000u
#define CLONE_CHILD_CLEARTID 0x200000u
#define CLONE_CHILD_SETTID 0x1000000u
#define SS_DISABLE 2

/* What the child needs, at the top of the signal stack it starts on. */
struct ara_clone_start {
	struct ara_rt_sigframe frame; /* where and how it enters the App */
	struct ara_sigstack app_stack;
	struct ara_thread *slot;
} __attribute__((aligned(16)));

long ara_clone_enter(uint64_t flags, uint64_t child_sp, uint64_t ptid, uint64_t tls, uint64_t ctid);
__attribute__((noreturn)) void ara_thread_start(const struct ara_clone_start *s);

static int app_word(uint64_t addr)
{
	return ara_range_is_app(&ara_protected, addr, sizeof(int32_t));
}

long ara_app_clone(const struct ara_thread *parent, const struct ara_rt_sigframe *trap)
{
	const uint64_t *a = trap->uc.uc_mcontext.regs;
	const uint64_t flags = a[0], newsp = a[1], ptid = a[2], tls = a[3], ctid = a[4];
	struct ara_clone_start *start;
	struct ara_thread *child;
	struct ara_sigstack ss;
	long r;

	if ((flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) && !app_word(ptid))
		return -EFAULT;
	if ((flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) && !app_word(ctid))
		return -EFAULT;
	child = ara_thread_reserve();
	if (!child)
		return -EAGAIN; /* ARA_THREAD_SLOTS live threads */
	ss = ara_thread_sigstack(child);
	start = (struct ara_clone_start *)(uintptr_t)(ss.ss_sp + ss.ss_size - sizeof(*start));
	start->frame = *trap;
	start->frame.uc.uc_mcontext.regs[0] = 0;
	if (newsp)
		start->frame.uc.uc_mcontext.sp = newsp;
	/* The kernel's rule: a task sharing the memory starts without one, unless vfork. */
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM)
		start->app_stack = (struct ara_sigstack){ .ss_flags = SS_DISABLE };
	else
		start->app_stack = *ara_thread_app_stack(parent);
	start->slot = child;
	r = ara_clone_enter(flags, (uint64_t)(uintptr_t)start, ptid, tls, ctid);
	/*
	 * A vfork parent resumes once its child has left this memory (by
	 * execve or exit): the child's slot is free again, even while the
	 * program it started runs (execve.c).
	 */
	if (r > 0 && (flags & CLONE_VFORK))
		ara_execve_release(child);
	if (r < 0 || (flags & CLONE_VFORK))
		ara_thread_unreserve(child);
	return r;
}

/* In the child, on its signal stack, whose top holds s. */
void ara_thread_start(const struct ara_clone_start *s)
{
	struct ara_thread *t = s->slot;

	ara_thread_bind(t);
	ara_thread_arm(t);
	*ara_thread_app_stack(t) = s->app_stack;
	t->exit_frame = s->frame;
	ara_signal_seal(t, &t->exit_frame);
	ara_sigreturn_to(&t->exit_frame, ARA_NO_STACK);
}
