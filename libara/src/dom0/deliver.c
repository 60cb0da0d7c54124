/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Frame delivery: the frames ARA hands to rt_sigreturn, and the call of an
 * App's handler. Every signal the App handles reaches ARA first (trap.c),
 * which builds the frame of the App's handler in App memory, on the App's
 * sigaltstack if it asked for one (kept in the thread's slot), and calls
 * the handler with DOM2's row (ara_deliver). Every frame ARA hands to
 * rt_sigreturn, for a handler's call or a return to the interrupted code,
 * is sealed here (ara_signal_seal): DOM2's row in POR_EL0, SIGSYS
 * unblocked, the thread's DOM0 signal stack armed again.
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "dom0.h"
#include "kernel.h"
#include "mem.h"
#include "sigcalls.h"
#include "sigframe.h"
#include "sys.h"
#include "thread.h"

#define BIT(sig) ARA_SIG_BIT(sig)
#define UNBLOCKABLE ARA_SIG_UNBLOCKABLE /* sigcalls.h */

/* The gate's return from an App handler that gave no restorer. */
static uint64_t handler_return;

void ara_deliver_init(uint64_t gate)
{
	handler_return = gate + ARA_GATE_SIG_OFFSET + ARA_GATE_SIGRETURN_OFFSET;
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

	if ((flags & SA_ONSTACK) && as->ss_size != 0 && !ara_app_on_altstack(as, mc->sp))
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
	    ara_copy_to_app_as(ara_sig_pid(t), record, record_regs, sizeof(record_regs)) != ARA_OK ||
	    ara_copy_to_app_as(ara_sig_pid(t), frame_at, out, used) != ARA_OK)
		return 0;
	return frame_at;
}

void ara_deliver(struct ara_thread *t, struct ara_rt_sigframe *out, int sig)
{
	struct ara_sigcontext *mc = &out->uc.uc_mcontext;
	struct ara_ksigaction act;
	uint64_t frame_at;

	if (sig == SIGSEGV && ara_sigframe_info_i32(out, ARA_SI_CODE) == SEGV_PKUERR)
		pkey_fault(out);
	if (!ara_app_action_take(sig, ara_sigframe_info_i32(out, ARA_SI_CODE) > 0, &act))
		return; /* nothing of the App's to call */
	frame_at = write_app_frame(t, out, act.flags);
	if (frame_at == 0) {
		/* The kernel's answer to a frame it cannot write: SIGSEGV, by default. */
		ara_app_segv_default();
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
	mc->pstate &= (uint32_t)~PSR_BTYPE_MASK; /* BTYPE (setup_return), and the RES0 upper half */
	out->uc.uc_sigmask |= act.mask | ((act.flags & SA_NODEFER) ? 0 : BIT(sig));
}

void ara_signal_finish(const struct ara_thread *t, struct ara_rt_sigframe *out)
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
	ara_signal_finish(t, out);
}
