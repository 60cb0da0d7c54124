/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A signal that interrupted ARA (IV5, with threads). Signals are not
 * blocked while a thread runs a secure_call (blocking them would cost two
 * system calls per call), so one can arrive at any instruction of the gate
 * or of DOM0's code. Its frame is on the thread's DOM0 signal stack, read
 * once and wiped (trap.c): App code can neither write nor replay it, so
 * ARA can trust where it says the thread was, and resume ARA from it.
 *
 * Where it interrupted decides (libara/src/interrupt.c, from the gate's
 * window offsets in ara/gate_offsets.h, generated from entry/gate.S):
 *   - secure_call after its msr, or the landing before the dispatcher is
 *     called: the call is rolled back. The App state becomes "about to
 *     call secure_call" (x0, x1: the App's fid and arg, untouched so far);
 *     a stack already claimed is given back. After the App's handler, the
 *     call is made again.
 *   - the RTM's append (ara_rtm_append): rolled back before its atomic
 *     add, forward after it, the entry stored into the slot the add
 *     reserved if the gate had not stored it yet.
 *   - the way out, after the dispatcher returned: the call is rolled
 *     forward. The App state becomes "secure_call returned the status"; the
 *     stack, if still the call's, is given back.
 *   - anywhere else on the call's DOM0 stack (the dispatcher, a service,
 *     libara's ara_unblock_deferred before its system call): the signal
 *     waits. ARA queues it again to the thread with its siginfo
 *     (rt_tgsigqueueinfo), blocks it, marks the call's header
 *     ARA_CALL_DEFERRED with the App's mask, and resumes ARA. The way out
 *     sees the mark and restores the App's mask (unblock.S), which makes
 *     the kernel take the signal at the deferred point (unblock.S): the call rolled
 *     forward. In the system call service's rt_sigprocmask section
 *     (svc_page.h), before its svc, the section also starts again, so
 *     that it sees the mark (svc_syscall.c).
 * In the first two cases, and at the deferred point, the signal is then
 * delivered to the App's handler as if it had arrived at that App state.
 * A fault (a synchronous signal) inside ARA, or a signal in the signal
 * entry (only App code that jumped there can take one), is refused, but
 * for a SIGSEGV or SIGBUS of ara_app_access's plain copies on App memory
 * (app_access.S): ARA resumes there with the copy's ARA_E_FAULT.
 */
#include "interrupted.h"
#include "app_access.h"
#include "ara/gate.h"
#include "dom0.h"
#include "domain.h"
#include "interrupt.h"
#include "live.h"
#include "sigframe.h" /* ARA_SIGSYS */
#include "svc_page.h"
#include "sys.h"

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))

static struct ara_gate_layout layout;

void ara_interrupted_init(uint64_t gate, uint64_t stack_base, uint64_t stack_stride)
{
	layout = (struct ara_gate_layout){
		.gate = gate,
		.stack_base = stack_base,
		.stack_stride = stack_stride,
		.stacks = ARA_DOM0_STACKS,
		.deferred_point = ara_svc_page() + ARA_SVC_DEFERRED_POINT,
		.deferred_ret = (uint64_t)(uintptr_t)ara_unblock_deferred_ret,
		.rtm_open = (const uint64_t *)(void *)&ara_live->append_lane,
		.access = (uint64_t)(uintptr_t)ara_app_access,
		.access_end = (uint64_t)(uintptr_t)ara_app_access_end,
		.access_fault = (uint64_t)(uintptr_t)ara_app_access_fault,
		.sigmask = ara_svc_page() + ARA_SVC_SIGMASK,
		.sigmask_svc = ara_svc_page() + ARA_SVC_SIGMASK_SVC,
		.domain_stacks = ara_domain_map.stacks,
		.domain_stacks_end = ara_domain_map.stacks ? ara_domain_map.stacks + ((uint64_t)ARA_DOMAINS
				<< (ARA_DOMAIN_SLOTS_SHIFT + ARA_DOMAIN_SLOT_SHIFT)) : 0,
		.domain_slot_shift = ARA_DOMAIN_SLOT_SHIFT,
		.domain_slot_mask = (1u << ARA_DOMAIN_SLOTS_SHIFT) - 1,
	};
}

static void count(uint64_t *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* The signal waits for the call's way out. */
static void defer(const struct ara_thread *t, struct ara_rt_sigframe *f, struct ara_call_header *h,
		  int sig)
{
	int32_t tid, pid;
	long r;

	ara_thread_id(t, &tid, &pid);
	r = ara_sys4(__NR_rt_tgsigqueueinfo, pid, tid, sig, f->info);

	if (r != 0)
		ara_stop(ARA_EXIT_REFUSED, "a signal that arrived inside ARA could not be queued again", r);
	if (h->state == ARA_CALL_ACTIVE) {
		h->mask = f->uc.uc_sigmask; /* the App's: ARA's code runs with it */
		h->state = ARA_CALL_DEFERRED;
	}
	f->uc.uc_sigmask |= BIT(sig);
	count(&ara_stats.signals_waited);
}

enum ara_interrupted ara_interrupted(const struct ara_thread *t, struct ara_rt_sigframe *f, int sig)
{
	struct ara_interrupt_outcome out;

	switch (ara_interrupt_resolve(&layout, f, sig, &out)) {
	case ARA_INTERRUPT_ROLLED_BACK:
		count(&ara_stats.calls_rolled_back);
		break;
	case ARA_INTERRUPT_ROLLED_FORWARD:
		count(&ara_stats.calls_rolled_forward);
		break;
	case ARA_INTERRUPT_WAIT:
		/*
		 * SIGSYS is ARA's: one that kill or tgkill sent is dropped, as
		 * outside a call (trap.c). Made to wait, it would arrive again at
		 * once, ARA never blocking SIGSYS, and the thread never leave.
		 */
		if (sig != ARA_SIGSYS)
			defer(t, f, out.call, sig);
		return ARA_INTERRUPTED_RESUME_DOM0;
	case ARA_INTERRUPT_ACCESS_FAULT:
		return ARA_INTERRUPTED_RESUME_DOM0;
	default:
		return ARA_INTERRUPTED_REFUSED;
	}
	if (out.store) /* the RTM append's reserved slot: the seal waits for it */
		__atomic_store_n(out.store, out.entry, __ATOMIC_RELEASE);
	if (out.release)
		__atomic_store_n(&out.release->claim, 0, __ATOMIC_RELEASE);
	return ARA_INTERRUPTED_APP;
}

enum ara_interrupted ara_interrupted_service(const struct ara_thread *t, struct ara_rt_sigframe *f,
					     int sig, unsigned int d)
{
	struct ara_interrupt_outcome out;

	switch (ara_interrupt_resolve_service(&layout, f, sig, d, &out)) {
	case ARA_INTERRUPT_WAIT:
		if (sig != ARA_SIGSYS) /* as in ara_interrupted */
			defer(t, f, out.call, sig);
		return ARA_INTERRUPTED_RESUME_DOM0;
	case ARA_INTERRUPT_ACCESS_FAULT: /* resumed in the service, as the copy's error */
		return ARA_INTERRUPTED_RESUME_DOM0;
	default:
		return ARA_INTERRUPTED_REFUSED;
	}
}
