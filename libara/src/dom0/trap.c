/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trap path (IV4, IV5): routing what reaches ARA's signal entry. The
 * filter traps App code's signal system calls (rt_sigreturn, rt_sigaction,
 * rt_sigprocmask, sigaltstack: app_signals.c), its opens (openat, openat2:
 * open.c) and what would make memory executable (mmap, mprotect with
 * PROT_EXEC: code_map.c; shmat with SHM_EXEC) with SIGSYS, whose handler is
 * the gate's signal entry; so is clone with CLONE_VM (clone.c). The gate
 * claims a DOM0 stack and calls ara_signal. ARA performs the call for the
 * App, after checking it, and returns to the App with rt_sigreturn, made
 * on ARA's system-call page, on a frame it built in its own memory:
 *   - every frame ARA hands to rt_sigreturn restores DOM2's row in
 *     POR_EL0 (a frame of the App's asking for another row, or none, gets
 *     DOM2's), never has SIGSYS blocked, and arms the thread's DOM0 signal
 *     stack again (ara_signal_seal, deliver.c);
 *   - the kernel writes every frame of ARA's actions (all SA_ONSTACK) on
 *     the thread's DOM0 signal stack (thread.h), never at the sp App code
 *     chose; ARA reads it there once and wipes it;
 *   - the App's frames are read once, through the argument range checks
 *     (copy.c), into DOM0; the kernel reads ARA's copy.
 * Every other signal the App handles also reaches ARA first, which
 * delivers it to the App's handler (deliver.c). The App can also jump into
 * the signal entry, with any registers, or send itself SIGSYS with any
 * siginfo: ARA then reads a "frame" at the App's sp, which is App memory or
 * refused, and what it performs is what the App could have asked for
 * anyway. A signal that arrives while a thread runs inside ARA is delivered
 * or left waiting (interrupted.c), or ends the process.
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "dom0.h"
#include "domain.h"
#include "interrupted.h"
#include "kernel.h"
#include "live.h"
#include "mem.h"
#include "sigcalls.h"
#include "sigframe.h"
#include "sys.h"
#include "thread.h"
#include "vfork.h"

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
	ara_deliver_init(gate);
	ara_app_signals_init(gate);
}

static long perform(struct ara_thread *t, uint64_t nr, struct ara_rt_sigframe *out,
		    uint64_t stack_index)
{
	const uint64_t *a = out->uc.uc_mcontext.regs;

	switch (nr) {
	case __NR_rt_sigaction:
		return ara_app_sigaction(a[0], a[1], a[2], a[3]);
	case __NR_rt_sigprocmask: /* the mask the App returns to is the frame's */
		return ara_app_sigprocmask(a[0], a[1], a[2], a[3], &out->uc.uc_sigmask, ara_sig_pid(t));
	case __NR_sigaltstack:
		return ara_app_sigaltstack(t, a[0], a[1], out->uc.uc_mcontext.sp);
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
		return ara_app_execveat(t, stack_index, (uint64_t)(int64_t)AT_FDCWD, a[0], a[1],
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

	if (ara_copy_from_app_as(ara_sig_pid(t), out, at, sizeof(*out)) != ARA_OK)
		ara_stop(ARA_EXIT_REFUSED, "rt_sigreturn with a frame not in App memory", (long)at);
	/* The kernel's restore_altstack: the frame's, errors ignored. */
	(void)ara_app_set_altstack(t, out->uc.uc_stack, at);
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
		 * never handed on (deliver.c, write_app_frame). A list the walk
		 * refuses is copied whole, and refused on the copy.
		 */
		const size_t used = ara_sigframe_copy_size(kernel_frame);

		memcpy(out, kernel_frame, used);
		ara_memzero(kernel_frame, used);
		return 1;
	}
	if (ara_copy_from_app_as(ara_sig_pid(t), out, frame_at, sizeof(*out)) == ARA_OK)
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

/* The service domain whose row row is, or ARA_DOM0 if none is. */
static enum ara_domain_id service_of_row(uint64_t row)
{
	for (unsigned int d = 0; d < ARA_DOMAINS; d++)
		if (d != ARA_DOM0 && ara_domain_map.home[d] && ara_domain_table[d].por == row)
			return (enum ara_domain_id)d;
	return ARA_DOM0;
}

/*
 * A service faulted (it touched memory of another domain, or ran into a
 * door's udf): name it and where, never what is there, and end the
 * process; neither the service nor the App goes on in a half state.
 */
static __attribute__((noreturn)) void service_fault(enum ara_domain_id d,
						    const struct ara_rt_sigframe *f, int sig)
{
	struct ara_msg m = { .len = 0 };
	uint64_t addr;

	memcpy(&addr, f->info + ARA_SI_ADDR, sizeof(addr));
	ara_msg_service(d, &m);
	ara_msg_str(&m, " faulted: signal ");
	ara_msg_dec(&m, sig);
	ara_msg_str(&m, sig == SIGSEGV && ara_sigframe_info_i32(f, ARA_SI_CODE) == SEGV_PKUERR
				? " (SEGV_PKUERR: memory of another domain)"
				: "");
	ara_msg_str(&m, " at pc ");
	ara_msg_hex(&m, f->uc.uc_mcontext.pc);
	ara_msg_str(&m, ", address ");
	ara_msg_hex(&m, addr);
	ara_msg_str(&m, "; ending the process\n");
	ara_msg_emit(&m);
	ara_sys_exit_group(ARA_EXIT_SERVICE_FAULT);
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
	const enum ara_domain_id service = service_of_row(row);

	if (genuine && row == ARA_POR_ENTER && sig > 0 && sig <= _NSIG)
		r = ara_interrupted(t, out, sig);
	else if (genuine && service != ARA_DOM0 && sig > 0 && sig <= _NSIG)
		r = ara_interrupted_service(t, out, sig, service);
	if (r == ARA_INTERRUPTED_REFUSED && genuine && service != ARA_DOM0)
		service_fault(service, out, sig);
	if (r == ARA_INTERRUPTED_REFUSED)
		ara_stop(ARA_EXIT_REFUSED,
			 "a fault inside ARA, or a signal in its signal entry (POR_EL0 not DOM2's)", (long)row);
	if (r == ARA_INTERRUPTED_RESUME_DOM0) {
		ara_signal_finish(t, out); /* ARA's row (the core's or a service's), as the frame says */
		ara_sigreturn_to(out, stack_index);
	}
	/* An App state now: the handler's frame shows the App's row, not DOM0's. */
	if (ara_sigframe_set_por(out, ARA_POR_LEAVE) != ARA_SIGFRAME_OK)
		ara_stop(ARA_EXIT_REFUSED, "a signal frame with records ARA does not accept", 0);
	if (sig > 0 && sig <= _NSIG && sig != ARA_SIGSYS)
		ara_deliver(t, out, sig);
}

void ara_signal(uint64_t frame_at, uint64_t stack_index)
{
	struct ara_rt_sigframe *out;
	struct ara_thread *t;
	const uint64_t *regs;
	uint64_t nr, row;
	int sig, genuine;

	ara_live_ensure(); /* first entry in a forked child: its empty heap (code_map.c uses it) */
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
	} else if (sig > 0 && sig <= _NSIG && sig != ARA_SIGSYS) {
		ara_deliver(t, out, sig);
	}
	/* Anything else (a SIGSYS from kill or sigqueue, a jump into the entry): nothing to do. */
	ara_signal_seal(t, out);
	ara_sigreturn_to(out, stack_index);
}
