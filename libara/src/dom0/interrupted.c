/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A signal that interrupted ARA (IV5, with threads). Signals are not
 * blocked while a thread runs a secure_call (blocking them would cost two
 * system calls per call), so one can arrive at any instruction of the gate
 * or of DOM0's code. Its frame is on the thread's DOM0 signal stack, read
 * once and wiped (signal.c): App code can neither write nor replay it, so
 * ARA can trust where it says the thread was, and resume ARA from it.
 *
 * Where it interrupted decides (offsets: ara/gate.h, asserted by gate.S):
 *   - secure_call after its msr, or the landing before the dispatcher is
 *     called: the call is rolled back. The App state becomes "about to
 *     call secure_call" (x0, x1: the App's fid and arg, untouched so far);
 *     a stack already claimed is given back. After the App's handler, the
 *     call is made again.
 *   - the way out, after the dispatcher returned: the call is rolled
 *     forward. The App state becomes "secure_call returned the status"; the
 *     stack, if still the call's, is given back.
 *   - anywhere else on the call's DOM0 stack (the dispatcher, a service,
 *     libara's ara_unblock_deferred before its system call): the signal
 *     waits. ARA queues it again to the thread with its siginfo
 *     (rt_tgsigqueueinfo), blocks it, marks the call's header
 *     ARA_CALL_DEFERRED with the App's mask, and resumes ARA. The way out
 *     sees the mark and restores the App's mask (unblock.S), which makes
 *     the kernel take the signal at ara_deferred_point: the call rolled
 *     forward.
 * In the first two cases, and at ara_deferred_point, the signal is then
 * delivered to the App's handler as if it had arrived at that App state.
 * A fault (a synchronous signal) inside ARA, or a signal in the signal
 * entry (only App code that jumped there can take one), is refused.
 */
#include "interrupted.h"
#include "ara/gate.h"
#include "dom0.h"
#include "live.h"
#include "mem.h"
#include "sys.h"

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))
#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGFPE 8
#define SIGSEGV 11
#define SI_KERNEL 0x80
#define PSR_NZCV_MASK 0xf0000000u
#define PSR_BTYPE_MASK 0xc00u

extern const char ara_deferred_point[];

static uint64_t gate_base, stacks_base, stacks_stride;

void ara_interrupted_init(uint64_t gate, uint64_t stack_base, uint64_t stack_stride)
{
	gate_base = gate;
	stacks_base = stack_base;
	stacks_stride = stack_stride;
}

/* A fault of the code that ran, not a signal sent to the thread. */
static int synchronous(int sig, const struct ara_rt_sigframe *f)
{
	int32_t code;

	memcpy(&code, f->info + ARA_SI_CODE, sizeof(code));
	return (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) &&
	       code > 0 && code != SI_KERNEL;
}

/* The header of the call whose DOM0 stack holds sp, or NULL. */
static struct ara_call_header *call_at(uint64_t sp)
{
	uint64_t i, top;
	struct ara_call_header *h;

	if (sp < stacks_base)
		return NULL;
	i = (sp - stacks_base) / stacks_stride;
	top = stacks_base + (i + 1) * stacks_stride;
	if (i >= ARA_DOM0_STACKS || sp > top - ARA_CALL_HEADER_SIZE ||
	    sp < top - stacks_stride + ARA_PAGE_SIZE) /* on the guard page */
		return NULL;
	h = (struct ara_call_header *)(uintptr_t)(top - ARA_CALL_HEADER_SIZE);
	if ((h->state != ARA_CALL_ACTIVE && h->state != ARA_CALL_DEFERRED) || h->stack_index != i)
		return NULL;
	return h;
}

/* The header, when the gate's sp is the header itself. */
static struct ara_call_header *header_at(uint64_t sp)
{
	struct ara_call_header *h = call_at(sp);

	return h && (uint64_t)(uintptr_t)h == sp ? h : NULL;
}

static void count(uint64_t *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

static void release(uint64_t index)
{
	__atomic_fetch_and(&ara_live->claimed_stacks, ~(UINT64_C(1) << index), __ATOMIC_RELEASE);
}

/* The App state of a call rolled back: about to call secure_call again. */
static void roll_back(struct ara_rt_sigframe *f, uint64_t sp, uint64_t x29, uint64_t x30)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	for (unsigned int r = 12; r <= 17; r++) /* the gate's scratch registers */
		mc->regs[r] = 0;
	mc->regs[29] = x29;
	mc->regs[30] = x30;
	mc->sp = sp;
	mc->pc = gate_base + ARA_GATE_DOM1_OFFSET + ARA_GATE_SECURE_CALL;
	mc->pstate &= ~(uint64_t)PSR_BTYPE_MASK;
	count(&ara_stats.calls_rolled_back);
}

/* The App state of a call rolled forward: secure_call returned status. */
static void roll_forward(struct ara_rt_sigframe *f, uint64_t status, uint64_t sp, uint64_t x29,
			 uint64_t x30)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;

	mc->regs[0] = status;
	for (unsigned int r = 1; r <= 17; r++) /* what the gate's way out zeroes */
		mc->regs[r] = 0;
	mc->regs[29] = x29;
	mc->regs[30] = x30;
	mc->sp = sp;
	mc->pc = x30;
	mc->pstate &= ~(uint64_t)(PSR_NZCV_MASK | PSR_BTYPE_MASK);
	count(&ara_stats.calls_rolled_forward);
}

/* Rolled forward from the header; the stack is given back, waiting signals unblocked. */
static enum ara_interrupted forward_from(struct ara_rt_sigframe *f, struct ara_call_header *h,
					 uint64_t status)
{
	if (!h)
		return ARA_INTERRUPTED_REFUSED;
	if (h->state == ARA_CALL_DEFERRED)
		f->uc.uc_sigmask = h->mask;
	roll_forward(f, status, h->app_sp, h->app_x29, h->app_x30);
	release(h->stack_index);
	return ARA_INTERRUPTED_APP;
}

/* The signal waits for the call's way out. */
static enum ara_interrupted defer(const struct ara_thread *t, struct ara_rt_sigframe *f,
				  struct ara_call_header *h, int sig)
{
	long r = ara_sys4(__NR_rt_tgsigqueueinfo, t->pid, t->tid, sig, f->info);

	if (r != 0)
		ara_stop(ARA_EXIT_REFUSED, "a signal that arrived inside ARA could not be queued again", r);
	if (h->state == ARA_CALL_ACTIVE) {
		h->mask = f->uc.uc_sigmask; /* the App's: ARA's code runs with it */
		h->state = ARA_CALL_DEFERRED;
	}
	f->uc.uc_sigmask |= BIT(sig);
	count(&ara_stats.signals_waited);
	return ARA_INTERRUPTED_RESUME_DOM0;
}

/* In page 0 of the gate, at offset off, before the signal landing. */
static enum ara_interrupted in_page0(struct ara_rt_sigframe *f, uint64_t off)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	const uint64_t *x = mc->regs;
	struct ara_call_header *h;

	if (off < ARA_GATE_CLAIMED || (off >= ARA_GATE_BUSY && off < ARA_GATE_DEFERRED)) {
		/* Claiming, or none free. At the check after the store, w14 == 0: claimed. */
		if (off == ARA_GATE_CLAIM_CHECK && (uint32_t)x[14] == 0)
			release(x[15]);
		roll_back(f, mc->sp, x[29], x[30]);
		return ARA_INTERRUPTED_APP;
	}
	if (off <= ARA_GATE_HEADER_DONE) { /* claimed; sp, x29, x30 still the App's */
		release(x[15]);
		roll_back(f, mc->sp, x[29], x[30]);
		return ARA_INTERRUPTED_APP;
	}
	if (off < ARA_GATE_EXIT) { /* on the stack, the dispatcher not called yet */
		h = header_at(mc->sp);
		if (!h)
			return ARA_INTERRUPTED_REFUSED;
		release(h->stack_index);
		roll_back(f, h->app_sp, h->app_x29, h->app_x30);
		return ARA_INTERRUPTED_APP;
	}
	if (off < ARA_GATE_SP_RESTORED || off >= ARA_GATE_DEFERRED) { /* the header holds the App's state */
		h = header_at(mc->sp);
		return forward_from(f, h, off == ARA_GATE_EXIT ? x[0] : (h ? h->status : 0));
	}
	if (off < ARA_GATE_SCRUB) { /* the App's sp, x29, x30; the stack x15 still held, but at the end */
		if (!(off == ARA_GATE_RELEASE_CHECK && (uint32_t)x[13] == 0))
			release(x[15]);
	}
	roll_forward(f, x[0], mc->sp, x[29], x[30]);
	return ARA_INTERRUPTED_APP;
}

enum ara_interrupted ara_interrupted(const struct ara_thread *t, struct ara_rt_sigframe *f, int sig)
{
	struct ara_sigcontext *mc = &f->uc.uc_mcontext;
	const uint64_t pc = mc->pc, page0 = gate_base, page1 = gate_base + ARA_GATE_DOM1_OFFSET;
	struct ara_call_header *h;

	if (synchronous(sig, f))
		return ARA_INTERRUPTED_REFUSED;
	if (pc >= page1 + ARA_GATE_DOM1_ENTERED && pc < page1 + ARA_GATE_DOM1_ENTERED_END) {
		roll_back(f, mc->sp, mc->regs[29], mc->regs[30]);
		return ARA_INTERRUPTED_APP;
	}
	if (pc >= page0 && pc < page0 + ARA_GATE_SIG_LANDING)
		return in_page0(f, pc - page0);
	if (pc >= page0 + ARA_GATE_LEAVE_OFFSET && pc < page0 + ARA_PAGE_SIZE) {
		roll_forward(f, mc->regs[0], mc->sp, mc->regs[29], mc->regs[30]);
		return ARA_INTERRUPTED_APP;
	}
	if (pc >= page0 && pc < page1 + ARA_PAGE_SIZE)
		return ARA_INTERRUPTED_REFUSED; /* the signal landing */
	if (pc == (uint64_t)(uintptr_t)ara_deferred_point) {
		h = header_at(mc->sp);
		return forward_from(f, h, h ? h->status : 0);
	}
	h = call_at(mc->sp);
	return h ? defer(t, f, h, sig) : ARA_INTERRUPTED_REFUSED;
}
