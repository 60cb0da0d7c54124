/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The system call service (ARA_FID_SYSCALL): the second way into ARA for
 * App code's mediated calls, besides the filter's trap (trap.c). The App
 * passes the call's number and arguments; ARA copies them in once, applies
 * the trap path's checks by calling the trap path's own functions
 * (sigcalls.h, dom0.h), makes the call from DOM0 through its system-call
 * page as the trap path does, and writes the result (-errno on failure)
 * back. Only the calls below are served; any other number is ARA_E_NOTSUP,
 * nothing done. The calls that need the trap path's frame (rt_sigreturn,
 * clone, execve) and those not worth a service yet (sigaltstack, mmap,
 * mprotect) stay trap-only (docs/syscalls.md).
 *
 * The argument is a value (ARA_SVC_VALUE): the address of the App's
 * struct ara_syscall_arg, which the handler copies itself, and arg is the
 * call's header slot, so the call's header is around it (ara/gate.h).
 */
#include "app_access.h"
#include "ara/gate.h"
#include "ara/service.h"
#include "dom0.h"
#include "mem.h"
#include "sigcalls.h"
#include "sys.h"

/* What a fault on App memory raises: a plain copy's is ARA's to resume only if both are unblocked. */
#define FAULTS (ARA_SIG_BIT(SIGSEGV) | ARA_SIG_BIT(SIGBUS))
/* The request's part the service reads (nr, args); its result follows. */
#define REQUEST offsetof(struct ara_syscall_arg, result)

/*
 * rt_sigprocmask through the system-call page's restartable section
 * (svc_page.h): made only if no signal waits in the call whose state word
 * is *state, else ARA_SVC_SIGMASK_WAITING and nothing done.
 */
static long sigmask_section(uint64_t how, const uint64_t *set, uint64_t *old, const uint64_t *state)
{
	register long x0 __asm__("x0") = (long)how;
	register const uint64_t *x1 __asm__("x1") = set;
	register uint64_t *x2 __asm__("x2") = old;
	register long x3 __asm__("x3") = sizeof(uint64_t);
	register long x8 __asm__("x8") = __NR_rt_sigprocmask;
	register const uint64_t *x9 __asm__("x9") = state;
	register uint64_t x16 __asm__("x16") = ara_svc_entry + ARA_SVC_SIGMASK;

	__asm__ volatile("blr x16"
			 : "+r"(x0)
			 : "r"(x1), "r"(x2), "r"(x3), "r"(x8), "r"(x9), "r"(x16)
			 : "memory", "cc", "x10", "x30");
	return x0;
}

/*
 * One more call served: one LSE add (every POE CPU has them), no ldxr/stxr
 * loop, which also lets a tracer single-step the whole path
 * (tests/ara/sigmask_windows.c: a step between the pair fails the store).
 */
static void count_served(void)
{
	__asm__ volatile(".arch_extension lse\n\tstadd %x0, [%1]"
			 :
			 : "r"(UINT64_C(1)), "r"(&ara_stats.syscalls_served)
			 : "memory");
}

/* The thread's mask once the kernel has applied how with set to old (its sigprocmask). */
static uint64_t kernel_applied(uint64_t how, uint64_t old, uint64_t set)
{
	const uint64_t m = how == SIG_BLOCK ? old | set : how == SIG_UNBLOCK ? old & ~set : set;

	return m & ~(ARA_SIG_BIT(SIGKILL) | ARA_SIG_BIT(SIGSTOP));
}

/* len bytes to App memory: with a plain store where a fault would be ARA's to resume. */
static enum ara_status to_app(uint64_t app, const void *src, size_t len, uint64_t thread)
{
	return (thread & FAULTS) ? ara_copy_to_app_as(0, app, src, len)
				 : ara_core_direct_to_app(app, src, len);
}

/*
 * The signal mask. While a thread runs a call, a signal that arrives waits
 * (interrupted.c): the thread's mask then holds the App's mask plus the
 * waiting signals, the call's header holds the App's mask (state
 * ARA_CALL_DEFERRED), and the way out gives it back (unblock.S); until one
 * waits, the thread's mask is the App's. So the change is made where the
 * App's mask is: with the kernel's rt_sigprocmask, which applies how to
 * the thread's mask and returns the old one in one step, if no signal
 * waits; in the header if one does. The system-call page's section makes
 * the choice and the call without a gap: a signal that starts to wait
 * between its check of the state and its svc makes it check again
 * (interrupt.c). One that arrives after the svc waits with the new mask
 * recorded (docs/security.md, "The system call service and the signal
 * mask").
 *
 * Returns the call's result, and in *thread the thread's mask as the
 * service leaves it, less any waiting signals (all ones if unknown), for
 * the copies back.
 */
static long app_sigprocmask(struct ara_call_header *h, const uint64_t *a, uint64_t *thread)
{
	const uint64_t how = a[0], set = a[1], oset = a[2];
	uint64_t req = 0, allowed = 0, old = 0, extra;
	long r;

	*thread = ~UINT64_C(0);
	if (a[3] != sizeof(uint64_t))
		return -EINVAL;
	if (set) {
		if (ara_core_direct_from_app(&req, set, sizeof(req)) != ARA_OK)
			return -EFAULT;
		if (how > SIG_SETMASK)
			return -EINVAL;
		allowed = ara_app_mask_allowed(req);
	}
	r = sigmask_section(how, set ? &allowed : NULL, &old, &h->state);
	if (r == ARA_SVC_SIGMASK_WAITING) {
		/* The App's mask is the header's; the thread's stays as it is. */
		old = h->mask;
		*thread = old;
		if (set)
			(void)ara_app_mask_apply(how, old, req, &h->mask);
		else /* a query: SIGSYS unblocked all the same, as on the kernel's path below */
			h->mask = ara_app_mask_allowed(old);
	} else if (r == 0) {
		/* The kernel's old mask is the App's: no signal waited. */
		*thread = set ? kernel_applied(how, old, allowed) : old;
		extra = *thread ^ ara_app_mask_allowed(*thread);
		if (extra) {
			/* SIGSYS was in the mask before (inherited), which how kept. */
			uint64_t ignored;

			if (sigmask_section(SIG_UNBLOCK, &extra, &ignored, &h->state) ==
			    ARA_SVC_SIGMASK_WAITING)
				h->mask &= ~extra;
			*thread &= ~extra;
		}
	} else {
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "rt_sigprocmask in the system call service failed", r);
	}
	if (oset && to_app(oset, &old, sizeof(old), *thread) != ARA_OK)
		return -EFAULT;
	return 0;
}

static enum ara_status syscall_service(void *arg)
{
	struct ara_call_header *h = (struct ara_call_header *)((unsigned char *)arg - ARA_CALL_ARG);
	struct ara_syscall_arg req;
	uint64_t at, thread;
	long r;

	memcpy(&at, arg, sizeof(at));
	/* The whole request is App memory; nr and args are read once, the result written once. */
	if (!ara_direct_range(at, sizeof(req)) ||
	    ara_app_access(&req, (const void *)(uintptr_t)at, REQUEST) != ARA_OK)
		return ARA_E_FAULT;
	switch (req.nr) {
	case __NR_rt_sigprocmask:
		r = app_sigprocmask(h, req.args, &thread);
		count_served();
		if (thread & FAULTS)
			return ara_copy_to_app(at + REQUEST, &r, sizeof(r));
		return ara_app_access((void *)(uintptr_t)(at + REQUEST), &r, sizeof(r));
	/* The others copy through the kernel (ara_copy_*). */
	case __NR_rt_sigaction:
		r = ara_app_sigaction(req.args[0], req.args[1], req.args[2], req.args[3]);
		break;
	case __NR_openat:
		r = ara_app_openat(req.args[0], req.args[1], req.args[2], req.args[3]);
		break;
	case __NR_openat2:
		r = ara_app_openat2(req.args[0], req.args[1], req.args[2], req.args[3]);
		break;
	default:
		return ARA_E_NOTSUP;
	}
	count_served();
	if (ara_copy_to_app(at + REQUEST, &r, sizeof(r)) != ARA_OK)
		return ARA_E_FAULT;
	return ARA_OK;
}

ARA_SERVICE(svc_syscall, .fid = ARA_FID_SYSCALL, .flags = ARA_SVC_VALUE, .arg_size = 8,
	    .name = "syscall", .module = &ara_core_module, .handler = syscall_service);
