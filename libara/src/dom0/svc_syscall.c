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

/*
 * rt_sigprocmask, on the thread's real mask. While a thread runs a call,
 * a signal that arrives waits (interrupted.c): the thread's mask then
 * holds the App's mask plus the waiting signals, and the call's header
 * holds the App's mask, which the way out gives back (unblock.S). So the
 * App's mask is read and written with every signal blocked: none can
 * start to wait meanwhile. It is the header's if signals wait, else the
 * thread's; the new one goes back to the same place (docs/security.md,
 * "The system call service and the signal mask").
 */
static long sigprocmask(struct ara_call_header *h, const uint64_t *a)
{
	const uint64_t all = ~UINT64_C(0);
	uint64_t thread, mask;
	int waiting;
	long r;

	r = ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &all, &thread, sizeof(all));
	if (r != 0)
		return r;
	waiting = __atomic_load_n(&h->state, __ATOMIC_RELAXED) == ARA_CALL_DEFERRED;
	mask = waiting ? h->mask : thread;
	r = ara_app_sigprocmask(a[0], a[1], a[2], a[3], &mask);
	if (waiting)
		h->mask = mask; /* the thread stays blocked until the way out */
	else
		ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &mask, NULL, sizeof(mask));
	return r;
}

static enum ara_status syscall_service(void *arg)
{
	struct ara_call_header *h = (struct ara_call_header *)((unsigned char *)arg - ARA_CALL_ARG);
	struct ara_syscall_arg req;
	uint64_t at;
	long r;

	memcpy(&at, arg, sizeof(at));
	if (ara_copy_from_app(&req, at, offsetof(struct ara_syscall_arg, result)) != ARA_OK)
		return ARA_E_FAULT;
	switch (req.nr) {
	case __NR_rt_sigprocmask:
		r = sigprocmask(h, req.args);
		break;
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
