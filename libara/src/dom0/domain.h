/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service domains (ara/domains.h): each one in use has a home (its
 * modules' state, its heap) and a call stack per DOM0 call stack, all on
 * its key, and is entered and left only through domain.S's doors.
 *
 * A domain's call stacks: slot (d, i), for domain index d and the core's
 * call stack i, is the ARA_DOMAIN_SLOT bytes at
 *   map.stacks + ((d << ARA_DOMAIN_SLOTS_SHIFT) + i) * ARA_DOMAIN_SLOT
 * a guard page first; at its top the ticket (what the door may call, written
 * by the core, taken once by the door) and the return (what the function
 * returned, written by the door in the domain's row, taken once by the way
 * back), below them the argument area (the service's copy of the App's
 * argument), below that the call's hand-over queue (what the service hands
 * to another service domain: handover.h), below that the relay (a call the
 * service asks the core to make into another domain, and the service's
 * registers while it waits); the service's sp starts below that.
 */
#ifndef ARA_DOM0_DOMAIN_H
#define ARA_DOM0_DOMAIN_H

#include "ara/domains.h"
#include "ara/gate.h"

#define ARA_DOMAIN_SLOT_SHIFT 16
#define ARA_DOMAIN_SLOT (1u << ARA_DOMAIN_SLOT_SHIFT)
#define ARA_DOMAIN_SLOTS_SHIFT 5 /* 32 slots a domain: one per DOM0 call stack, at most */
/*
 * At the slot's top: the ticket (the function, its argument), then the
 * return (the result, and a word the door sets non-zero once the function
 * has returned, under the domain's own row).
 */
#define ARA_DOMAIN_TICKET 32
#define ARA_DOMAIN_ARGS 1024 /* the argument area */
#define ARA_DOMAIN_QUEUE 320 /* the hand-over queue */
#define ARA_DOMAIN_RELAY 1152 /* struct ara_domain_relay */
#define ARA_DOMAIN_RESERVE (ARA_DOMAIN_TICKET + ARA_DOMAIN_ARGS + ARA_DOMAIN_QUEUE + ARA_DOMAIN_RELAY)
/* How a call left its domain: the return flag's values (domain.S). */
#define ARA_DOMAIN_RETURNED 1 /* the function returned */
#define ARA_DOMAIN_RELAYED 2  /* the service waits for a relayed call (ara_domain_yield) */
/* struct ara_domain_relay's offsets, for domain.S. */
#define ARA_RELAY_SP 96
#define ARA_RELAY_STATUS 116
#define ARA_DOMAIN_HEAP_SIZE (8u << 20) /* the RTM's log is 2 MiB */

/* enum ara_domain_id's service domains and their count, for domain.S (static-asserted below). */
#define ARA_DOMAIN_PROVISION 3
#define ARA_DOMAIN_RTS 4
#define ARA_DOMAIN_RTM 5
#define ARA_DOMAIN_EXTRA 7
#define ARA_DOMAIN_COUNT 8

/* Offsets in struct ara_domain_map, for domain.S. */
#define ARA_DOMAIN_MAP_STACKS 0
#define ARA_DOMAIN_MAP_HEADERS 8
#define ARA_DOMAIN_MAP_HEADER_STRIDE 16

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/service.h"
#include "handover.h"
#include "heap.h"
#include "live.h"

_Static_assert(ARA_DOMAIN_PROVISION == ARA_DOM_PROVISION && ARA_DOMAIN_RTS == ARA_DOM_RTS &&
		       ARA_DOMAIN_RTM == ARA_DOM_RTM && ARA_DOMAIN_EXTRA == ARA_DOM_EXTRA &&
		       ARA_DOMAIN_COUNT == ARA_DOMAINS,
	       "domain.S");
_Static_assert(ARA_DOM0_STACKS <= 1u << ARA_DOMAIN_SLOTS_SHIFT, "a slot per DOM0 call stack");
_Static_assert(ARA_DOMAIN_ARGS >= ARA_SVC_ARG_MAX, "the argument area");
_Static_assert(sizeof(struct ara_handover_queue) <= ARA_DOMAIN_QUEUE, "the hand-over queue");
_Static_assert(ARA_DOMAIN_RESERVE % 16 == 0, "sp stays 16-byte aligned");

/*
 * A relayed call (ara/service.h's ara_service_call, from a service domain
 * to another's internal function): the caller's fid and argument, which
 * the core copies once, and the status and result it writes back; and the
 * caller's x19-x30 and sp while the core answers, which the door's resume
 * restores (domain.S). All of it the caller's domain's: what it changes
 * there it changes for itself.
 */
struct ara_domain_relay {
	uint64_t context[13]; /* x19-x30, sp */
	uint64_t pad;
	uint32_t fid;
	int32_t status;
	uint64_t pad2;
	unsigned char arg[ARA_SVC_ARG_MAX];
};
_Static_assert(sizeof(struct ara_domain_relay) == ARA_DOMAIN_RELAY &&
		       offsetof(struct ara_domain_relay, context[12]) == ARA_RELAY_SP &&
		       offsetof(struct ara_domain_relay, status) == ARA_RELAY_STATUS,
	       "domain.S");

/* A service domain's home: the page before its heap, on its key, zeroed in a forked child. */
struct ara_domain_home {
	uint32_t state;	     /* enum ara_live_state: a forked child rebuilds the heap */
	int lock;	     /* the heap */
	int modules_lock;    /* a module's state is made once */
	int forked;	     /* rebuilt in a forked child: the modules' forked hooks run */
	void *module_state[ARA_MODULES_MAX];
	struct ara_heap heap;
	struct ara_handover_box handover; /* handover.c: what the domain's modules were handed */
};
_Static_assert(sizeof(struct ara_domain_home) <= ARA_PAGE_SIZE, "the page before the heap");

/*
 * Where the domains are: written at initialisation, then read-only (the
 * core's read-only-after-initialisation data, on DOM1's key), so that
 * service code reads it and nothing writes it.
 */
struct ara_domain_map {
	uint64_t stacks;	/* slot (0, 0); every domain's slots, used or not, are reserved */
	uint64_t headers;	/* the core's call header of stack 0 (ara/gate.h) */
	uint64_t header_stride; /* one call stack to the next */
	struct ara_domain_home *home[ARA_DOMAINS]; /* NULL: no module runs in that domain */
	void *boot[ARA_MODULES_MAX]; /* each module's boot state (ara_module_boot), or NULL */
};
_Static_assert(offsetof(struct ara_domain_map, stacks) == ARA_DOMAIN_MAP_STACKS &&
		       offsetof(struct ara_domain_map, headers) == ARA_DOMAIN_MAP_HEADERS &&
		       offsetof(struct ara_domain_map, header_stride) == ARA_DOMAIN_MAP_HEADER_STRIDE,
	       "domain.S");
extern struct ara_domain_map ara_domain_map;

/* The domain m runs in (the core's for every module in the one-domain test variant). */
enum ara_domain_id ara_module_domain(const struct ara_module *m);

/*
 * At initialisation, after the arena: maps the homes and stacks of the
 * domains modules use, and the modules' boot states.
 */
void ara_domains_map(uint64_t headers, uint64_t header_stride);

/* Whether POR_EL0 holds the core's row: the only one that writes DOM0's key. */
static inline bool ara_running_core(void)
{
	uint64_t por;

	__asm__ volatile("mrs %0, S3_3_C10_C2_4" : "=r"(por));
	return (por & ARA_POR_KEY(ARA_PKEY_DOM0, ARA_PERM_W)) != 0;
}

/* The domain whose row POR_EL0 holds now: ARA_DOM0 or a service domain. */
enum ara_domain_id ara_domain_running(void);

/* Whether [addr, addr + len) lies in service domain d's heap. */
bool ara_domain_heap_holds(enum ara_domain_id d, uint64_t addr, uint64_t len);

/* Domain d's home, rebuilt first in a forked child; NULL if no module runs in d. */
struct ara_domain_home *ara_domain_home(enum ara_domain_id d);

/*
 * The call whose DOM0 stack the core's code runs on: its header, and its
 * index in *i; NULL off the call stacks (initialisation, a signal
 * handler's stack).
 */
struct ara_call_header *ara_domain_current_call(uint64_t *i);

/* The argument area of slot (d, i): where the core puts a service's copy of the argument. */
void *ara_domain_arg_area(enum ara_domain_id d, uint64_t i);

/* How a call left its domain (domain.S): ARA_DOMAIN_RETURNED, _RELAYED; the service's word. */
struct ara_domain_exit {
	uint64_t result;
	uint64_t how;
};

/* Writes slot (d, i)'s ticket for fn(arg) and enters d's door (ara_domain_call below). */
struct ara_domain_exit ara_domain_start(enum ara_domain_id d, uint64_t i, struct ara_call_header *h,
				       uint64_t (*fn)(void *), void *arg);

/*
 * A call that left as how, not returned: answers its relays (or, unless
 * may_relay, refuses them) and resumes it until it returns; its result.
 */
uint64_t ara_domain_relayed(enum ara_domain_id d, uint64_t i, struct ara_call_header *h,
			    uint64_t how, bool may_relay);

/*
 * Runs fn(arg) in domain d on slot (d, i), h being the core's call header
 * i (the caller runs on that call's stack, or at initialisation on its own
 * with i = 0): returns what fn returned, or, if fn does not return through
 * the door (a signal's way out), does not return. arg is the service's:
 * the argument area or what it holds pointers to. may_relay: the core
 * answers fn's relays (ara_domain_relayed); false for a call the core
 * relays, so that no domain is entered on a slot whose call waits, and for
 * a module's hook at initialisation, before the other modules' hooks have
 * run. Inline: the common return costs its caller one compare.
 */
static inline uint64_t ara_domain_call(enum ara_domain_id d, uint64_t i, struct ara_call_header *h,
				       uint64_t (*fn)(void *), void *arg, bool may_relay)
{
	const struct ara_domain_exit x = ara_domain_start(d, i, h, fn, arg);

	return x.how == ARA_DOMAIN_RETURNED ? x.result
					    : ara_domain_relayed(d, i, h, x.how, may_relay);
}

/* The relay of the slot whose argument area is area. */
static inline struct ara_domain_relay *ara_domain_relay_of(void *area)
{
	return (struct ara_domain_relay *)(void *)((unsigned char *)area - ARA_DOMAIN_QUEUE -
						   ARA_DOMAIN_RELAY);
}

/*
 * In a service of domain d (running), during a call into d: has the core
 * call fid (an internal function of another service domain's module, or
 * ARA_RELAY_APPEND_LANE) with arg's size bytes, and returns its status
 * once the core resumes the service. ARA_E_NOFUNC off a call's slot.
 */
enum ara_status ara_domain_relay_out(enum ara_domain_id d, uint32_t fid, void *arg, uint32_t size);

/* A relay's fid for the core itself: the append lane's segment (modules.c). Never a service's. */
#define ARA_RELAY_APPEND_LANE 0u

/*
 * modules.c, in the core: the append lane set to segment (8 bytes of
 * arg) for service domain from, which must be the domain of the module
 * serving ARA_GATE_FID_RTM_LOG, the segment 8-byte aligned and on its
 * heap; a request for anything else, or from where the core relays
 * nothing (ara_domain_relayed), ends the process (ara_domain_fault): only
 * a compromised service makes one.
 */
void ara_append_lane_for(enum ara_domain_id from, const void *arg);

/*
 * A service broke its side of the door, or asked the core for what no
 * correct service does: names it (its modules and domain), never its
 * memory, and ends the process with ARA_EXIT_SERVICE_FAULT.
 */
__attribute__((noreturn)) void ara_domain_fault(enum ara_domain_id d, const char *why,
						uint64_t value);

/*
 * dispatch.c, in the core: the call domain from asked for on slot (from, i)
 * of the core's call header h (relay r, its memory), made into the callee's
 * domain on a copy; the status for the caller.
 */
enum ara_status ara_relay_answer(enum ara_domain_id from, uint64_t i, struct ara_call_header *h,
				 struct ara_domain_relay *r);

/* The hand-over queue of the slot whose argument area is area. */
static inline struct ara_handover_queue *ara_domain_queue(void *area)
{
	return (struct ara_handover_queue *)(void *)((unsigned char *)area - ARA_DOMAIN_QUEUE);
}

/*
 * The slot of the running service's call: its argument area, from sp (the
 * service runs on that slot); NULL if sp is on no slot of domain d's.
 */
void *ara_domain_own_area(enum ara_domain_id d);

/*
 * After a call into service domain d on the slot whose argument area is
 * area has returned: what the call queued for another domain's modules,
 * delivered (handover.c); a load and a branch when nothing is queued.
 */
static inline void ara_domain_handed_on(enum ara_domain_id d, void *area)
{
	if (ara_domain_queue(area)->n)
		ara_handover_flush(d, ara_domain_queue(area));
}

/* Who runs in d, to begin a message: "ara: service counter, probe (domain extra)". */
void ara_msg_service(enum ara_domain_id d, struct ara_msg *m);

/* domain.S: enter, and how the call left. */
struct ara_domain_exit ara_domain_enter(uint64_t top, uint64_t *header_word, uint64_t d);
/* Under a service's row: saves its registers in r, leaves through the way back as RELAYED. */
uint64_t ara_domain_yield(uint64_t top, struct ara_domain_relay *r);
/* What the core's ticket names to resume: restores r's registers, returns r->status to them. */
uint64_t ara_domain_resume(void *r);
#endif

#endif
