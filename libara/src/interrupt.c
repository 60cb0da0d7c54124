/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a signal that interrupted a secure_call or an RTM append leaves
 * the call (interrupt.h; libara/src/dom0/interrupted.c says why and what
 * follows). The gate's windows are offsets in ara/gate_offsets.h, written
 * from entry/gate.S's object (ara/gate.h).
 */
#include "interrupt.h"

#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGFPE 8
#define SIGSEGV 11
#define SI_KERNEL 0x80
#define SEGV_PKUERR 4
#define PSR_NZCV_MASK 0xf0000000u
#define PSR_BTYPE_MASK 0xc00u

/* A fault of the code that ran, not a signal sent to the thread. */
static int synchronous(int sig, const struct ara_rt_sigframe *f)
{
	const int32_t code = ara_sigframe_info_i32(f, ARA_SI_CODE);

	return (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) &&
	       code > 0 && code != SI_KERNEL;
}

/*
 * A plain copy's fault on App memory (app_access.S), then resumed as the
 * copy's error; a protection-key fault is not one if pkey_is_fatal: a
 * service domain's copy that reached another domain's memory.
 */
static int access_fault(const struct ara_gate_layout *g, struct ara_rt_sigframe *f, int sig,
			int pkey_is_fatal)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	if ((sig != SIGSEGV && sig != SIGBUS) || mc->pc < g->access || mc->pc >= g->access_end)
		return 0;
	if (pkey_is_fatal && sig == SIGSEGV && ara_sigframe_info_i32(f, ARA_SI_CODE) == SEGV_PKUERR)
		return 0;
	mc->pc = g->access_fault;
	return 1;
}

/* The header of the call whose DOM0 stack (or service domain's slot) holds sp, or NULL. */
static struct ara_call_header *call_at(const struct ara_gate_layout *g, uint64_t sp)
{
	uint64_t i, top;
	struct ara_call_header *h;

	if (g->domain_stacks && sp >= g->domain_stacks && sp < g->domain_stacks_end) {
		/* In a service: the call's own DOM0 stack tells the rest, at its header. */
		i = ((sp - g->domain_stacks) >> g->domain_slot_shift) & g->domain_slot_mask;
		sp = g->stack_base + (i + 1) * g->stack_stride - ARA_CALL_HEADER_SIZE;
	}
	if (sp < g->stack_base)
		return NULL;
	i = (sp - g->stack_base) / g->stack_stride;
	top = g->stack_base + (i + 1) * g->stack_stride;
	if (i >= g->stacks || sp > top - ARA_CALL_HEADER_SIZE ||
	    sp < top - g->stack_stride + ARA_PAGE_SIZE) /* on the guard page */
		return NULL;
	h = (struct ara_call_header *)(uintptr_t)(top - ARA_CALL_HEADER_SIZE);
	if (h->claim == 0 || (h->state != ARA_CALL_ACTIVE && h->state != ARA_CALL_DEFERRED))
		return NULL;
	return h;
}

/* The header, where the gate's sp (or the register the gate holds it in) is the header itself. */
static struct ara_call_header *header_at(const struct ara_gate_layout *g, uint64_t sp)
{
	struct ara_call_header *h = call_at(g, sp);

	return h && (uint64_t)(uintptr_t)h == sp ? h : NULL;
}

/* What the gate lets leave of a service's status (gate.S's csel). */
static uint64_t filtered(uint64_t status)
{
	return (uint32_t)status < ARA_GATE_STATUS_COUNT ? (uint32_t)status : ARA_GATE_STATUS_INTERNAL;
}

/* About to call the entry at offset entry of page 1 again with x0, x1. */
static enum ara_interrupt roll_back_to(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
				       uint64_t entry, uint64_t x0, uint64_t x1, uint64_t sp,
				       uint64_t x29, uint64_t x30)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	mc->regs[0] = x0;
	mc->regs[1] = x1;
	for (unsigned int r = 12; r <= 17; r++) /* the gate's scratch registers */
		mc->regs[r] = 0;
	mc->regs[29] = x29;
	mc->regs[30] = x30;
	mc->sp = sp;
	mc->pc = g->gate + ARA_GATE_DOM1_OFFSET + entry;
	mc->pstate &= ~(uint64_t)(PSR_NZCV_MASK | PSR_BTYPE_MASK); /* nothing of the gate's compares */
	return ARA_INTERRUPT_ROLLED_BACK;
}

/* About to call secure_call again with fid and arg. */
static enum ara_interrupt roll_back(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
				    uint64_t fid, uint64_t arg, uint64_t sp, uint64_t x29, uint64_t x30)
{
	return roll_back_to(g, f, ARA_GATE_SECURE_CALL, fid, arg, sp, x29, x30);
}

/* Rolled back with the App's state still in the registers. */
static enum ara_interrupt back_from_regs(const struct ara_gate_layout *g, struct ara_rt_sigframe *f)
{
	const struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	return roll_back(g, f, mc->regs[0], mc->regs[1], mc->sp, mc->regs[29], mc->regs[30]);
}

/* Rolled back from the call's header (sp), its stack given back. */
static enum ara_interrupt back_from_header(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
					   struct ara_interrupt_outcome *out)
{
	struct ara_call_header *h = header_at(g, f->uc.uc_mcontext.sp);

	if (!h)
		return ARA_INTERRUPT_REFUSED;
	out->release = h;
	return roll_back(g, f, h->fid, h->arg, h->app_sp, h->app_x29, h->app_x30);
}

/* secure_call returned status, with what its way out leaves. */
static enum ara_interrupt roll_forward(struct ara_rt_sigframe *f, uint64_t status, uint64_t sp,
				       uint64_t x29, uint64_t x30)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	mc->regs[0] = status;
	for (unsigned int r = 1; r <= 17; r++)
		mc->regs[r] = 0;
	mc->regs[29] = x29;
	mc->regs[30] = x30;
	mc->sp = sp;
	mc->pc = x30;
	mc->pstate &= ~(uint64_t)(PSR_NZCV_MASK | PSR_BTYPE_MASK);
	return ARA_INTERRUPT_ROLLED_FORWARD;
}

/* Rolled forward from the call's header, with the App's mask back if signals waited. */
static enum ara_interrupt forward_from(struct ara_rt_sigframe *f, struct ara_call_header *h,
				       uint64_t status, struct ara_interrupt_outcome *out)
{
	if (!h)
		return ARA_INTERRUPT_REFUSED;
	if (h->state == ARA_CALL_DEFERRED)
		f->uc.uc_sigmask = h->mask;
	out->release = h;
	return roll_forward(f, status, h->app_sp, h->app_x29, h->app_x30);
}

/* In the side exits and slow paths at the start of page 0, at offset off. */
static enum ara_interrupt in_side_paths(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
					uint64_t off, struct ara_interrupt_outcome *out)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	struct ara_call_header *h;

	if (off < ARA_GATE_TAKEN) {
		/* A side exit: before its status is set, the call has not begun. */
		if (off == ARA_GATE_NULL || off == ARA_GATE_WRONG_ROW || off == ARA_GATE_BUSY)
			return back_from_regs(g, f);
		return roll_forward(f, mc->regs[0], mc->sp, mc->regs[29], mc->regs[30]);
	}
	if (off < ARA_GATE_MISS) /* looking for a free stack: none held */
		return back_from_regs(g, f);
	if (off < ARA_GATE_DEFERRED) /* on the stack, the service not called */
		return back_from_header(g, f, out);
	/* The deferred way out: the status in x0, then in the header. */
	h = header_at(g, mc->sp);
	return forward_from(f, h, off == ARA_GATE_DEFERRED ? mc->regs[0] : (h ? h->status : 0), out);
}

/* In the landing's straight line, at offset off of page 0. */
static enum ara_interrupt in_fast_path(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
				       uint64_t off, struct ara_interrupt_outcome *out)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	const uint64_t *x = mc->regs;

	if (off < ARA_GATE_CLAIM_CHECK) /* no stack held */
		return back_from_regs(g, f);
	if (off < ARA_GATE_ON_STACK) {
		/*
		 * x13 is the header of the stack tried; after the atomic, x17 == 0
		 * means it is the call's. sp, x29, x30, x0, x1: the App's still.
		 */
		if (off > ARA_GATE_CLAIM_CHECK || x[17] == 0) {
			out->release = header_at(g, x[13]);
			if (!out->release)
				return ARA_INTERRUPT_REFUSED;
		}
		return back_from_regs(g, f);
	}
	if (off < ARA_GATE_EXIT) /* on the stack, the service not called */
		return back_from_header(g, f, out);
	if (off < ARA_GATE_RELEASED) /* returned: the header holds the App's state */
		return forward_from(f, header_at(g, mc->sp), filtered(x[0]), out);
	/* Given back: the App's state in registers (sp still the header's at RELEASED). */
	if (off < ARA_GATE_LEAVE_OFFSET)
		return roll_forward(f, x[0], off == ARA_GATE_RELEASED ? x[14] : mc->sp, x[29], x[30]);
	return roll_forward(f, x[0], mc->sp, x[29], x[30]);
}

/* About to call ara_rtm_append again with entry; sp, x29, x30 the App's, in registers. */
static enum ara_interrupt rtm_back(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
				   uint64_t entry)
{
	const struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	return roll_back_to(g, f, ARA_GATE_RTM_APPEND, entry, 0, mc->sp, mc->regs[29], mc->regs[30]);
}

/* An entry as the RTM append's landing takes it: kind 1..3 above a user address. */
static int rtm_entry_valid(uint64_t entry)
{
	const uint64_t top = entry >> ARA_GATE_RTM_ENTRY_SHIFT;

	return top != 0 && (top & ARA_GATE_RTM_ENTRY_MASK) == 0;
}

/*
 * In the RTM append's landing, at offset off of page 0. Before its atomic
 * add nothing has happened; after it, a slot reserved must be written (the
 * seal waits for it), so the append is completed here: the entry goes to
 * its slot of the segment that is still the open one.
 */
static enum ara_interrupt in_rtm_append(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
					uint64_t off, struct ara_interrupt_outcome *out)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	const uint64_t *x = mc->regs;

	if (off < ARA_GATE_RTM_RESERVED)
		return rtm_back(g, f, x[0]);
	if (off < ARA_GATE_RTM_STORED) {
		const uint64_t slot = x[17];
		const uint64_t seg = off == ARA_GATE_RTM_STORE ? x[16] - (slot << 3) : x[16];

		if (slot >= ARA_GATE_RTM_ENTRIES) /* full: nothing reserved, before the b.hs took it */
			return off < ARA_GATE_RTM_STORE - 4 ? rtm_back(g, f, x[0]) : ARA_INTERRUPT_REFUSED;
		/* Open until its slot is written: the seal waits for every one reserved. */
		if (!g->rtm_open || seg == 0 || seg != __atomic_load_n(g->rtm_open, __ATOMIC_ACQUIRE) ||
		    !rtm_entry_valid(x[0]))
			return ARA_INTERRUPT_REFUSED;
		out->store = (uint64_t *)(uintptr_t)(seg + ARA_GATE_RTM_SLOTS + (slot << 3));
		out->entry = x[0];
		return roll_forward(f, ARA_GATE_STATUS_OK, mc->sp, x[29], x[30]);
	}
	if (off < ARA_GATE_RTM_REGULAR) /* stored */
		return roll_forward(f, ARA_GATE_STATUS_OK, mc->sp, x[29], x[30]);
	/* On its way to secure_call's landing: the entry in x0, then in x1 too. */
	return rtm_back(g, f, off == ARA_GATE_RTM_REGULAR ? x[0] : x[1]);
}

enum ara_interrupt ara_interrupt_resolve(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
					 int sig, struct ara_interrupt_outcome *out)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	const uint64_t pc = mc->pc, page0 = g->gate, page1 = g->gate + ARA_GATE_DOM1_OFFSET;

	out->release = NULL;
	out->call = NULL;
	out->store = NULL;
	out->entry = 0;
	if (synchronous(sig, f))
		return access_fault(g, f, sig, 0) ? ARA_INTERRUPT_ACCESS_FAULT : ARA_INTERRUPT_REFUSED;
	if (pc >= page1 + ARA_GATE_DOM1_ENTERED && pc < page1 + ARA_GATE_DOM1_ENTERED_END)
		return back_from_regs(g, f);
	if (pc >= page1 + ARA_GATE_RTM_ENTERED && pc < page1 + ARA_GATE_RTM_ENTERED_END)
		return rtm_back(g, f, mc->regs[0]);
	if (pc >= page0 && pc < page0 + ARA_GATE_SIG_LANDING)
		return in_side_paths(g, f, pc - page0, out);
	if (pc >= page0 + ARA_GATE_RTM_LANDING && pc < page0 + ARA_GATE_RTM_END)
		return in_rtm_append(g, f, pc - page0, out);
	if (pc >= page0 + ARA_GATE_LANDING && pc < page0 + ARA_PAGE_SIZE)
		return in_fast_path(g, f, pc - page0, out);
	if (pc >= page0 && pc < page1 + ARA_PAGE_SIZE)
		return ARA_INTERRUPT_REFUSED; /* the signal landing, or the rest of page 1 */
	if (pc == g->deferred_point || pc == g->deferred_ret) {
		struct ara_call_header *h = header_at(g, mc->sp);

		return forward_from(f, h, h ? h->status : 0, out);
	}
	out->call = call_at(g, mc->sp);
	if (!out->call)
		return ARA_INTERRUPT_REFUSED;
#ifndef ARA_TEST_VARIANT_NO_SIGMASK_RESTART /* test-only (tests/variants): the section runs on */
	/*
	 * The service's rt_sigprocmask section, its svc not run: it starts
	 * again, and reads the state this signal's waiting is about to set.
	 */
	if (pc >= g->sigmask && pc <= g->sigmask_svc)
		mc->pc = g->sigmask;
#endif
	return ARA_INTERRUPT_WAIT;
}

enum ara_interrupt ara_interrupt_resolve_service(const struct ara_gate_layout *g,
						 struct ara_rt_sigframe *f, int sig, unsigned int d,
						 struct ara_interrupt_outcome *out)
{
	const uint64_t sp = f->uc.uc_mcontext.sp;
	struct ara_call_header *h;

	out->release = NULL;
	out->call = NULL;
	out->store = NULL;
	out->entry = 0;
	if (synchronous(sig, f))
		return access_fault(g, f, sig, 1) ? ARA_INTERRUPT_ACCESS_FAULT : ARA_INTERRUPT_REFUSED;
	if (g->domain_stacks && sp >= g->domain_stacks && sp < g->domain_stacks_end &&
	    ((sp - g->domain_stacks) >> g->domain_slot_shift) / (g->domain_slot_mask + 1) != d)
		return ARA_INTERRUPT_REFUSED; /* another domain's slot */
	h = call_at(g, sp);
	if (!h || h->domain == 0 || (h->domain & 15) != d)
		return ARA_INTERRUPT_REFUSED;
	out->call = h;
	return ARA_INTERRUPT_WAIT;
}
