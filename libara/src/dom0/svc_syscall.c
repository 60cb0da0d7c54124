/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The system call service (ARA_FID_SYSCALL): the second way into ARA for
 * App code's mediated calls, besides the filter's trap (signal.c). The App
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
#include "ara/gate.h"
#include "ara/service.h"
#include "dom0.h"
#include "mem.h"
#include "sigcalls.h"
#include "sys.h"

#define SIG_SETMASK 2
#define SIGBUS 7
#define SIGSEGV 11
#define BIT(sig) (UINT64_C(1) << ((sig) - 1))

/*
 * The service reads and writes App memory with plain loads and stores
 * (ara_direct_*), inside a window where every signal is blocked but the
 * two a fault on App memory raises, which ARA resumes as ARA_E_FAULT
 * (app_access.S).
 */
static const uint64_t window = ~(BIT(SIGSEGV) | BIT(SIGBUS));

/*
 * The signal mask. While a thread runs a call, a signal that arrives waits
 * (interrupted.c): the thread's mask then holds the App's mask plus the
 * waiting signals, and the call's header holds the App's mask, which the
 * way out gives back (unblock.S). Opening the window blocks every signal
 * that could start to wait and reads the thread's mask in the same call:
 * the App's mask is the header's if signals wait, else that one. Closing
 * it puts the App's mask (new or unchanged) back in the same place: the
 * header if signals wait by then (one may have, in the window, with the
 * window's mask recorded), else the thread (docs/security.md, "The system
 * call service and the signal mask").
 */
static uint64_t open_window(const struct ara_call_header *h)
{
	uint64_t thread = 0;
	long r = ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &window, &thread, sizeof(window));

	if (r != 0) /* thread unread: closing the window would unblock every signal */
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "rt_sigprocmask opening the service's window failed", r);
	return __atomic_load_n(&h->state, __ATOMIC_RELAXED) == ARA_CALL_DEFERRED ? h->mask : thread;
}

static void close_window(struct ara_call_header *h, uint64_t app_mask)
{
	if (__atomic_load_n(&h->state, __ATOMIC_RELAXED) == ARA_CALL_DEFERRED)
		h->mask = app_mask; /* the thread stays blocked until the way out */
	else
		ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &app_mask, NULL, sizeof(app_mask));
}

static enum ara_status syscall_service(void *arg)
{
	struct ara_call_header *h = (struct ara_call_header *)((unsigned char *)arg - ARA_CALL_ARG);
	struct ara_syscall_arg req;
	uint64_t at, mask;
	enum ara_status st;
	long r;

	memcpy(&at, arg, sizeof(at));
	mask = open_window(h);
	st = ara_direct_from_app(&req, at, offsetof(struct ara_syscall_arg, result));
	if (st == ARA_OK && req.nr == __NR_rt_sigprocmask) {
		/* The App's memory and mask, all in the window. */
		r = ara_app_sigprocmask(req.args[0], req.args[1], req.args[2], req.args[3], &mask,
					ARA_VIA_DIRECT, 0);
		st = ara_direct_to_app(at + offsetof(struct ara_syscall_arg, result), &r, sizeof(r));
		close_window(h, mask);
		__atomic_fetch_add(&ara_stats.syscalls_served, 1, __ATOMIC_RELAXED);
		return st;
	}
	close_window(h, mask);
	if (st != ARA_OK)
		return st;
	/* The others copy through the kernel (ara_copy_*), outside the window. */
	switch (req.nr) {
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
	__atomic_fetch_add(&ara_stats.syscalls_served, 1, __ATOMIC_RELAXED);
	if (ara_copy_to_app(at + offsetof(struct ara_syscall_arg, result), &r, sizeof(r)) != ARA_OK)
		return ARA_E_FAULT;
	return ARA_OK;
}

ARA_SERVICE(svc_syscall, .fid = ARA_FID_SYSCALL, .flags = ARA_SVC_VALUE, .arg_size = 8,
	    .name = "syscall", .handler = syscall_service);
