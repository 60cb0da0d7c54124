/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a signal that interrupted a secure_call (or the RTM's append,
 * ara_rtm_append) leaves the call: the pure part of
 * libara/src/dom0/interrupted.c (which gives stacks back, completes an
 * append, counts, and queues waiting signals), unit-tested on the host.
 */
#ifndef ARA_INTERRUPT_H
#define ARA_INTERRUPT_H

#include <stdint.h>

#include "ara/gate.h"
#include "sigframe.h"

/* Where the gate and the DOM0 stacks are, as in struct ara_gate_cb. */
struct ara_gate_layout {
	uint64_t gate;		 /* page 0 of .ara_gate */
	uint64_t stack_base;	 /* stack i's top is stack_base + (i + 1) * stack_stride */
	uint64_t stack_stride;	 /* guard page + stack */
	uint64_t stacks;	 /* how many for calls (the handlers' follow) */
	uint64_t deferred_point; /* unblock.S's, on the system-call page */
	uint64_t deferred_ret;	 /* unblock.S's return to the gate, just after it */
	const uint64_t *rtm_open; /* where DOM0 keeps the RTM's open segment (ara_live->rtm_open) */
	/* app_access.S: a fault in [access, access_end) is resumed at access_fault */
	uint64_t access, access_end, access_fault;
	/*
	 * The system call service's rt_sigprocmask section, on the system-call
	 * page: a signal that waits with the pc in [sigmask, sigmask_svc] resumes
	 * at sigmask (its svc has not run yet).
	 */
	uint64_t sigmask, sigmask_svc;
	/*
	 * The service domains' call stacks (libara/src/dom0/domain.h), or 0:
	 * sp in [domain_stacks, domain_stacks_end) is in slot (d, i), i =
	 * ((sp - domain_stacks) >> domain_slot_shift) & domain_slot_mask, of
	 * the call on DOM0 stack i.
	 */
	uint64_t domain_stacks, domain_stacks_end;
	unsigned int domain_slot_shift;
	uint64_t domain_slot_mask;
};

enum ara_interrupt {
	ARA_INTERRUPT_REFUSED,	      /* a fault, the signal entry, or no call where the frame says */
	ARA_INTERRUPT_ROLLED_BACK,    /* the frame is now "about to call secure_call" */
	ARA_INTERRUPT_ROLLED_FORWARD, /* the frame is now "secure_call returned" */
	ARA_INTERRUPT_WAIT,	      /* inside the call: the signal waits for its way out */
	ARA_INTERRUPT_ACCESS_FAULT,   /* a copy's fault on App memory: the frame resumes the copy's error */
};

struct ara_interrupt_outcome {
	struct ara_call_header *release; /* the header of a DOM0 stack to give back, or NULL */
	struct ara_call_header *call;	 /* ARA_INTERRUPT_WAIT: the call's header */
	uint64_t *store;		 /* the RTM append rolled forward: its slot, or NULL */
	uint64_t entry;			 /* what to store there */
};

/*
 * f, a genuine frame of signal sig with DOM0's row: rewritten into an App
 * state for the rolled outcomes (with the App's mask back if signals
 * waited), into DOM0 returning ARA_E_FAULT from the copy for a fault of
 * ara_app_access (a SIGSEGV or SIGBUS there, nowhere else), left alone
 * otherwise, but for one that waits in the service's rt_sigprocmask
 * section, which then resumes at the section's start. Reads call headers
 * on DOM0's stacks.
 */
enum ara_interrupt ara_interrupt_resolve(const struct ara_gate_layout *g, struct ara_rt_sigframe *f,
					 int sig, struct ara_interrupt_outcome *out);

/*
 * f, a genuine frame of signal sig with service domain d's row (d, the
 * domain's index, as in the call header's domain word): WAIT, out->call the
 * call it waits in, if sig is not a fault and sp is on a slot of d's (or
 * on a DOM0 call stack, in d's door) of a call that entered d;
 * ACCESS_FAULT, f rewritten as for DOM0's row, for a fault of
 * ara_app_access that is not a protection-key fault (App memory is on a
 * key d's row reads and writes: such a fault is on another domain's
 * memory); REFUSED otherwise. Nothing else of the frame's pc is believed
 * (the service's code can be anywhere, and can be the attacker's).
 */
enum ara_interrupt ara_interrupt_resolve_service(const struct ara_gate_layout *g,
						 struct ara_rt_sigframe *f, int sig, unsigned int d,
						 struct ara_interrupt_outcome *out);

#endif
