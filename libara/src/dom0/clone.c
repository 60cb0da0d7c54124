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
 * on a frame of ARA's, sealed like every other (deliver.c). A clone
 * without CLONE_VM (fork) is not trapped: the child's memory is a copy,
 * its signal stack the parent thread's copy.
 *
 * Which of them ARA makes. DOM0's state (the claimed stacks, its locks,
 * the heap, the slots) lives in the shared memory, and a task can die at
 * any instruction inside ARA: killed by SIGKILL, or ended by ARA itself
 * (exit_group, for a fault or a step that failed under limits the task
 * set: rlimits belong to a thread group). Whatever it held then stays
 * held, or half-changed. A thread dies with its whole thread group, so no
 * one is left to find it. Any other task sharing the memory would leave
 * its thread group running on that state, so ARA refuses it (EPERM),
 * except the one the C library needs (posix_spawn, system, popen):
 * vfork. A vfork child runs while its parent thread waits in this
 * clone, and leaves the memory by execve or by exit; when the parent
 * resumes here, ARA works out how it left (vfork_child_left): only through
 * ARA's execveat (thread.h: exec_window) or by an exit of the App's can it
 * have held nothing but what ARA gives back here. Any other end (a signal,
 * one of ARA's own exit statuses, a status ARA cannot read) means DOM0's
 * state can no longer be trusted, and ARA ends the parent's thread group
 * too, as it would for a thread. (CLONE_PARENT with CLONE_VFORK is
 * refused too: ARA could not wait for that child.)
 *
 * The other way round, the parent dying first (vfork.h): the kernel's wait
 * for a vfork child is killable (wait_for_vfork_done), so the parent
 * thread can die in this clone (its process killed or ended by ARA,
 * another thread's execve) while the child runs on alone in DOM0's state.
 * The child is tied to it before its first App instruction
 * (ara_vfork_child_tie): the kernel sends a task the parent-death signal
 * when the thread that made it exits (forget_original_parent), whichever
 * way; ARA sets SIGKILL, and keeps it from App code until its execveat
 * (ara_app_prctl; execve.c). The kernel also clears it when the task's
 * effective or file-system IDs change, or its permitted capabilities grow
 * (commit_creds), none of which App code can do: without CAP_SETUID and
 * CAP_SETGID (privilege.c drops them) a task may only move each ID to
 * another of its real, effective and saved ones, and those are one ID
 * wherever ara-loader starts ARA (execve makes the saved and file-system
 * IDs the effective ones, and a process whose effective ID is not its real
 * one starts in secure mode, where the dynamic linker ignores the loader's
 * --preload of libara). ara_attack_vfork_setuid_pdeath shows the first.
 *
 * The kernel writes the thread IDs clone asks for with the caller's row,
 * which here is DOM0's: those addresses must be App memory.
 */
#include "dom0.h"
#include "kernel.h"
#include "live.h"
#include "mem.h"
#include "sys.h"
#include "thread.h"
#include "vfork.h"

/* si_status's offset in waitid(2)'s siginfo (sigframe.h has the others) */
#define SIGINFO_STATUS 24

#define INT32_MAX_WAKE 0x7fffffff

/* What the child needs, at the top of the signal stack it starts on. */
struct ara_clone_start {
	struct ara_rt_sigframe frame; /* where and how it enters the App */
	struct ara_sigstack app_stack;
	struct ara_thread *slot;
	int32_t vfork_parent; /* a vfork child's: its parent's process ID; else 0 */
} __attribute__((aligned(16)));
_Static_assert(sizeof(struct ara_clone_start) == 4736,
	       "tests/ara/attack_signal.c: CLONE_START_SIZE");

long ara_clone_enter(uint64_t flags, uint64_t child_sp, uint64_t ptid, uint64_t tls, uint64_t ctid);
__attribute__((noreturn)) void ara_thread_start(const struct ara_clone_start *s);

static int app_word(uint64_t addr)
{
	return ara_range_is_app(&ara_protected, addr, sizeof(int32_t));
}

/*
 * The tasks ARA makes: threads, vfork children, and anything without
 * CLONE_VM (which the filter does not trap). Test-only variant
 * (tests/variants): every task sharing the memory.
 */
static bool allowed(uint64_t flags, const struct ara_thread *caller)
{
#ifndef ARA_TEST_VARIANT_CLONE_NEWUSER_KEPT /* test-only (tests/variants) */
	/*
	 * The filter denies CLONE_NEWUSER (policy.c), but a SIGSYS that App
	 * code forged (a jump into the signal entry) arrives here without the
	 * filter's check, and ARA's own clone is not filtered.
	 */
	if (flags & CLONE_NEWUSER)
		return false;
#endif
#ifdef ARA_TEST_VARIANT_NO_CLONE_GUARD
	(void)flags, (void)caller;
	return true;
#else
	int32_t tid, pid;

	if (!(flags & CLONE_VM))
		return true;
	/*
	 * Only the process that owns the memory makes tasks that share it: a
	 * vfork child's thread would belong to the child's thread group, which
	 * can end (and kill that thread inside ARA) while the parent, seeing a
	 * clean exit, goes on.
	 */
	ara_thread_id(caller, &tid, &pid);
	if (pid != __atomic_load_n(&ara_live->threads_pid, __ATOMIC_ACQUIRE))
		return false;
	if (flags & CLONE_THREAD)
		return true;
	return (flags & CLONE_VFORK) && !(flags & CLONE_PARENT);
#endif
}

/* An exit status that ARA's own end of a task gives (ara/boot.h: ARA_EXIT_*, after initialisation). */
static bool ara_status(int32_t status)
{
	return status >= ARA_EXIT_INIT_FAILED && status <= ARA_EXIT_SERVICE_FAULT;
}

#ifndef ARA_TEST_VARIANT_NO_CLONE_GUARD
/* The calling task is a vfork child: a process other than the one that owns the memory. */
static bool in_vfork_child(void)
{
	return (int32_t)ara_sys0(__NR_getpid) != __atomic_load_n(&ara_live->threads_pid, __ATOMIC_ACQUIRE);
}
#endif

void ara_vfork_child_tie(int32_t parent)
{
#ifdef ARA_TEST_VARIANT_NO_CLONE_GUARD
	/* Test-only: the child outlives its parent. */
	(void)parent;
#else
	int execs;
	long r = ara_sys2(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL);

	if (r != 0)
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "a vfork child's parent-death signal was refused", r);
	/*
	 * Whether the parent thread died before that. The kernel hands its
	 * children to another task (forget_original_parent) and reads their
	 * parent-death signal in one section under tasklist_lock; a wait (for
	 * nothing: WNOHANG, WNOWAIT) takes that lock after the prctl, so
	 * either the kernel saw the signal, or getppid sees the new parent.
	 * One that is a sibling thread of the parent dies with it (a SIGKILL
	 * or exit_group ends the whole group), signalling the child then.
	 */
	ara_sys5(__NR_waitid, P_ALL, 0, NULL, WEXITED | WNOHANG | WNOWAIT, NULL);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (ara_sys0(__NR_getppid) != parent)
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "a vfork child's parent died before the child started",
			 parent);
	/*
	 * Except after another thread's execve: the kernel ends the parent
	 * thread (de_thread) and gives its children to the thread that
	 * executes, whose process ID is the same, in a new memory. Such an
	 * execve is counted before it starts (ara_vfork_exec_begin): either
	 * the parent's death found the signal set, or the count is seen here.
	 * Then the child waits until that execve fails (the count drops, the
	 * parent lives); if it succeeds, the child sleeps, never running App
	 * code again, until the signal comes with the end of the new program.
	 */
	while ((execs = __atomic_load_n(&ara_live->sibling_execs, __ATOMIC_ACQUIRE)) != 0)
		ara_sys4(__NR_futex, &ara_live->sibling_execs, FUTEX_WAIT_PRIVATE, execs, NULL);
#endif
}

void ara_vfork_exec_begin(void)
{
#ifndef ARA_TEST_VARIANT_NO_CLONE_GUARD
	if (in_vfork_child()) {
		const struct ara_thread *t = ara_thread_calling();

		/*
		 * The program it starts must not die with the parent thread
		 * (posix_spawn from a thread that exits). The parent can die
		 * from here on: the child then holds only what its parent would
		 * give back (clone.c); if the image is refused, it ties itself
		 * again before App code runs (ara_vfork_exec_end).
		 */
		ara_sys2(__NR_prctl, PR_SET_PDEATHSIG, t ? t->app_pdeath_signal : 0);
		return;
	}
	__atomic_add_fetch(&ara_live->sibling_execs, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

void ara_vfork_exec_end(void)
{
#ifndef ARA_TEST_VARIANT_NO_CLONE_GUARD
	if (in_vfork_child()) {
		ara_vfork_child_tie(__atomic_load_n(&ara_live->threads_pid, __ATOMIC_ACQUIRE));
		return;
	}
	__atomic_sub_fetch(&ara_live->sibling_execs, 1, __ATOMIC_SEQ_CST);
	ara_sys3(__NR_futex, &ara_live->sibling_execs, FUTEX_WAKE_PRIVATE, INT32_MAX_WAKE);
#endif
}

/*
 * Only PR_SET_PDEATHSIG traps. In a vfork child, ARA keeps SIGKILL and
 * gives the App's signal at its execveat (the program then has it, as it
 * would have); PR_GET_PDEATHSIG answers SIGKILL until then. Test-only
 * variant (no-pdeath-lock): the App's call is made at once.
 */
long ara_app_prctl(struct ara_thread *t, uint64_t option, uint64_t sig)
{
	if ((uint32_t)option != PR_SET_PDEATHSIG)
		return -ENOSYS; /* a forged SIGSYS */
#if !defined(ARA_TEST_VARIANT_NO_CLONE_GUARD) && !defined(ARA_TEST_VARIANT_NO_PDEATH_LOCK)
	if (in_vfork_child()) {
		if (sig > _NSIG) /* valid_signal */
			return -EINVAL;
		t->app_pdeath_signal = (uint32_t)sig;
		return 0;
	}
#else
	(void)t;
#endif
	return ara_sys2(__NR_prctl, PR_SET_PDEATHSIG, sig);
}

/*
 * In the vfork parent, resumed: its child (pid, slot child) has left this
 * memory. Through ARA's execveat (exec_window), whether the image replaced
 * it or it died in that system call, it holds nothing but its execve's
 * memory and DOM0 stack, which the parent gives back (the image runs on
 * even while the parent frees them: execve.c). Otherwise it exited: the
 * parent waits until the kernel has its status (it already left the
 * memory, so that is soon) and leaves it to be reaped (WNOWAIT). Only an
 * exit of the App's own is clean; DOM0 ends the process for anything else.
 */
static void vfork_child_left(struct ara_thread *child, long pid)
{
	uint8_t info[128] = { 0 };
	int32_t code, status;
	long r;

#ifdef ARA_TEST_VARIANT_NO_CLONE_GUARD
	/* Test-only: whatever else the child held stays held. */
	const bool guarded = false;
#else
	const bool guarded = true;
#endif

	if (!guarded || __atomic_load_n(&child->exec_window, __ATOMIC_ACQUIRE)) {
		ara_execve_release(child);
		return;
	}
	/* __WALL: whatever signal the child sends its parent */
	r = ara_sys5(__NR_waitid, P_PID, pid, info, WEXITED | WNOWAIT | __WALL, 0);
	memcpy(&code, info + ARA_SI_CODE, sizeof(code));
	memcpy(&status, info + SIGINFO_STATUS, sizeof(status));
	if (r != 0)
		ara_stop(ARA_EXIT_DOM0_CORRUPT,
			 "a vfork child left this memory and ARA cannot tell how (reaped already?)", r);
	if (code != CLD_EXITED || ara_status(status) ||
	    __atomic_load_n(&child->exec_request, __ATOMIC_ACQUIRE))
		ara_stop(ARA_EXIT_DOM0_CORRUPT,
			 "a vfork child ended inside ARA, or by a signal (its si_code * 256 + si_status)",
			 (long)code << 8 | (status & 0xff));
}

long ara_app_clone(const struct ara_thread *parent, const struct ara_rt_sigframe *trap)
{
	const uint64_t *a = trap->uc.uc_mcontext.regs;
	const uint64_t flags = a[0], newsp = a[1], ptid = a[2], tls = a[3], ctid = a[4];
	struct ara_clone_start *start;
	struct ara_thread *child;
	struct ara_sigstack ss;
	size_t used;
	long r;

	if (!allowed(flags, parent))
		return -EPERM;
	if ((flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) && !app_word(ptid))
		return -EFAULT;
	if ((flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) && !app_word(ctid))
		return -EFAULT;
	child = ara_thread_reserve();
	if (!child)
		return -EAGAIN; /* ARA_THREAD_SLOTS live threads */
	ss = ara_thread_sigstack(child);
	start = (struct ara_clone_start *)(uintptr_t)(ss.ss_sp + ss.ss_size - sizeof(*start));
	/* The trap frame's data only: the slot's bytes beyond it are not the child's (deliver.c). */
	used = ara_sigframe_copy_size(trap); /* a refused list: refused in the child, by ara_signal_seal */
	memcpy(&start->frame, trap, used);
	memset((unsigned char *)&start->frame + used, 0, sizeof(start->frame) - used);
	start->frame.uc.uc_mcontext.regs[0] = 0;
	if (newsp)
		start->frame.uc.uc_mcontext.sp = newsp;
	/* The kernel's rule: a task sharing the memory starts without one, unless vfork. */
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM)
		start->app_stack = (struct ara_sigstack){ .ss_flags = SS_DISABLE };
	else
		start->app_stack = *ara_thread_app_stack(parent);
	start->slot = child;
	start->vfork_parent = 0;
	if ((flags & (CLONE_VFORK | CLONE_THREAD)) == CLONE_VFORK) {
		int32_t tid;

		ara_thread_id(parent, &tid, &start->vfork_parent);
	}
	r = ara_clone_enter(flags, (uint64_t)(uintptr_t)start, ptid, tls, ctid);
	/*
	 * A vfork parent resumes once its child has left this memory (by
	 * execve or exit): the child's slot is free again, even while the
	 * program it started runs (execve.c). A vfork thread (CLONE_THREAD)
	 * dies with this thread group, like any thread.
	 */
	if (r > 0 && (flags & (CLONE_VFORK | CLONE_THREAD)) == CLONE_VFORK)
		vfork_child_left(child, r);
	else if (r > 0 && (flags & CLONE_VFORK))
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
	if (s->vfork_parent)
		ara_vfork_child_tie(s->vfork_parent);
	*ara_thread_app_stack(t) = s->app_stack;
	t->exit_frame = s->frame;
	/*
	 * s lies where the kernel writes this thread's frames, which ARA keeps
	 * zero between frames (thread.h, ara_thread_frame_on_sigstack): App
	 * registers from the parent's trap must not stay there to be taken for
	 * a frame. (Test-only variant, tests/variants: they stay.)
	 */
#ifndef ARA_TEST_VARIANT_STALE_SIGSTACK
	ara_memzero((void *)(uintptr_t)s, sizeof(*s));
#endif
	ara_signal_seal(t, &t->exit_frame);
	ara_sigreturn_to(&t->exit_frame, ARA_NO_STACK);
}
