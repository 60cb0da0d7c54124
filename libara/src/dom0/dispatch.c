/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service table and the dispatcher's copying path.
 *
 * At initialisation, every registered service is checked and put in the
 * gate's table (struct ara_gate_cb, ara/gate.h): one slot per hash of its
 * function ID, a collision fatal. The gate compares the App's fid with the
 * slot's in full and calls the slot's function with the call's argument
 * slot (the App's x1, copied into the call's DOM0 header):
 *   - a service with no argument or a value argument: its handler, directly;
 *   - a service with a pointer argument, or one that can touch the vector
 *     registers (ARA_SVC_SIMD): ara_gate_wrapped, below, which copies the
 *     argument into DOM0 (bounded by the service's own size), runs the
 *     handler on the copy, copies the result out, wipes the copy, and
 *     clears the vector registers after a SIMD service.
 * The gate lets only documented statuses leave (anything else becomes
 * ARA_E_INTERNAL). A module's internal functions (ARA_SVC_INTERNAL) are
 * in the slots' services but not in the gate's table: only
 * ara_service_call, below, reaches them.
 */
#include "ara/gate.h"
#include "ara/service.h"
#include "dom0.h"
#include "domain.h"
#include "mem.h"

_Static_assert(ARA_GATE_STATUS_OK == ARA_OK, "gate.S returns it");
_Static_assert(ARA_GATE_STATUS_NOT_READY == ARA_E_NOT_READY, "gate.S returns it");
_Static_assert(ARA_GATE_STATUS_BUSY == ARA_E_BUSY, "gate.S returns it");
_Static_assert(ARA_GATE_STATUS_INTERNAL == ARA_E_INTERNAL, "gate.S returns it");
_Static_assert(ARA_GATE_STATUS_COUNT == ARA_STATUS_COUNT, "gate.S filters on it");
_Static_assert(ARA_GATE_FID_NULL == ARA_FID_NULL, "gate.S answers it");

/* Linker-provided bounds of the ara_services section (ARA_SERVICE). */
extern const struct ara_service __start_ara_services[] __attribute__((visibility("hidden")));
extern const struct ara_service __stop_ara_services[] __attribute__((visibility("hidden")));

/* The service in each slot of the gate's table; written once at initialisation. */
static ARA_RO_AFTER_INIT const struct ara_service *by_slot[ARA_GATE_SLOTS];

/* The internal function (ARA_SVC_INTERNAL) with ID fid, or NULL: another's, or none. */
static const struct ara_service *internal_of(uint32_t fid)
{
	const struct ara_service *s = by_slot[ara_gate_slot(fid)];

	return s && s->fid == fid && (s->flags & ARA_SVC_INTERNAL) ? s : NULL;
}

#define ARA_SVC_KNOWN (ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_VALUE | ARA_SVC_SIMD | ARA_SVC_INTERNAL)

static void check_service(const struct ara_service *s)
{
	const uint32_t shape = s->flags & ~ARA_SVC_SIMD;

	if (s->fid == 0)
		ara_fatal("a service has function ID 0", 0);
	if (!s->handler)
		ara_fatal("a service has no handler; function ID", s->fid);
	if (s->flags & ~ARA_SVC_KNOWN)
		ara_fatal("a service has unknown flags; function ID", s->fid);
	(void)ara_module_index(s->module); /* fatal if it names none */
	if (s->flags & ARA_SVC_INTERNAL) {
		/* The caller's own memory: no copy, no App, no SIMD of its own. */
		if (s->flags != ARA_SVC_INTERNAL || s->arg_size > ARA_SVC_ARG_MAX)
			ara_fatal("an internal service has other flags, or too large an argument; "
				  "function ID",
				  s->fid);
		return;
	}
	if ((shape & ARA_SVC_VALUE) && (shape != ARA_SVC_VALUE || s->arg_size != 8))
		ara_fatal("a by-value service has other flags, or a size other than 8; function ID",
			  s->fid);
	if (s->arg_size > ARA_SVC_ARG_MAX)
		ara_fatal("a service's argument exceeds ARA_SVC_ARG_MAX; function ID", s->fid);
	if ((shape != 0) != (s->arg_size != 0))
		ara_fatal("a service copies an argument of size 0, or ignores a sized one; function ID",
			  s->fid);
}

/* What a fid without a service runs (the gate's empty slots and misses). */
enum ara_status ara_gate_nofunc(void *arg);
enum ara_status ara_gate_nofunc(void *arg)
{
	(void)arg;
	return ARA_E_NOFUNC;
}

static enum ara_status copying(const struct ara_service *s, uint64_t app_arg)
{
	union {
		unsigned char bytes[ARA_SVC_ARG_MAX];
		uint64_t align;
	} arg;
	enum ara_status st;

	if (app_arg == 0)
		return ARA_E_INVAL;
#ifdef ARA_TEST_VARIANT_NO_COPY_IN
	/*
	 * Test-only (tests/variants): the protection below removed. The handler
	 * works on the App's memory itself, which other App threads can change
	 * while it runs (tests/ara/attack_race.c).
	 */
	return s->handler((void *)(uintptr_t)app_arg);
#endif
	/*
	 * Plain loads and stores after the range check (ara_direct_*): the
	 * kernel's copies cost four system calls a call, more than most
	 * services (docs/performance.md).
	 */
	if (s->flags & ARA_SVC_IN) {
		st = ara_core_direct_from_app(arg.bytes, app_arg, s->arg_size);
	} else {
		ara_memzero(arg.bytes, s->arg_size);
		st = ARA_OK;
	}
	if (st == ARA_OK)
		st = s->handler(arg.bytes);
	if (st == ARA_OK && (s->flags & ARA_SVC_OUT))
		st = ara_core_direct_to_app(app_arg, arg.bytes, s->arg_size);
	/* Every path after the copy-in, a partial one included, wipes it. */
	ara_memzero(arg.bytes, s->arg_size);
	return st;
}

/*
 * A service of a module in a domain of its own (domain.h): the argument
 * (the value, or the copy of the App's buffer) goes to the argument area
 * of the call's slot in that domain, the handler runs there through the
 * door, and the result comes back from the area, which is then wiped.
 */
static enum ara_status in_domain(const struct ara_service *s, struct ara_call_header *h,
				 uint64_t *arg, enum ara_domain_id d)
{
	const uint64_t i =
		((uint64_t)(uintptr_t)h - ara_domain_map.headers) / ara_domain_map.header_stride;
	unsigned char *area = ara_domain_arg_area(d, i);
	const int value = s->arg_size == 0 || (s->flags & ARA_SVC_VALUE);
	enum ara_status st = ARA_OK;

	if (value) {
		memcpy(area, arg, sizeof(*arg));
	} else if (*arg == 0) {
		return ARA_E_INVAL;
	} else if (s->flags & ARA_SVC_IN) {
		st = ara_core_direct_from_app(area, *arg, s->arg_size);
	} else {
		ara_memzero(area, s->arg_size);
	}
	if (st == ARA_OK) { /* the service's status: the gate lets only documented ones leave */
		st = (enum ara_status)(uint32_t)ara_domain_call(
			d, i, h, (uint64_t (*)(void *))(uintptr_t)s->handler, area, true);
		ara_domain_handed_on(d, area);
	}
	if (value)
		memcpy(arg, area, sizeof(*arg));
	else if (st == ARA_OK && (s->flags & ARA_SVC_OUT))
		st = ara_core_direct_to_app(*arg, area, s->arg_size);
	ara_memzero(area, value ? sizeof(*arg) : s->arg_size);
	return st;
}

/*
 * The gate's function for the services it cannot call directly. arg is
 * the call header's arg: the header (and so the fid, which the gate found
 * in this service's slot) is around it.
 */
enum ara_status ara_gate_wrapped(uint64_t *arg)
{
	struct ara_call_header *h = (struct ara_call_header *)((unsigned char *)arg - ARA_CALL_ARG);
	const struct ara_service *s = by_slot[ara_gate_slot(h->fid)];
	enum ara_status st;

	/* Cannot be: the gate found the fid in its slot, and holds no internal one. */
	if (!s || s->fid != h->fid || (s->flags & ARA_SVC_INTERNAL))
		return ARA_E_INTERNAL;
	if (ara_module_domain(s->module) != ARA_DOM0)
		st = in_domain(s, h, arg, ara_module_domain(s->module));
	else if (s->arg_size == 0 || (s->flags & ARA_SVC_VALUE))
		st = s->handler(arg);
	else
		st = copying(s, *arg);
	if (s->flags & ARA_SVC_SIMD)
		ara_simd_scrub();
	return st;
}

/*
 * An internal function of a module in domain d, a domain of its own, on
 * call stack i (h its header): arg (the core's memory) is copied to the
 * argument area of slot (d, i), the function runs there through the door,
 * and the result comes back, the area wiped. The call's header records
 * the domain, as for the App's calls (in_domain), so a signal there waits
 * for the call's way out. relayed: the core makes it for another service
 * domain's module, and the callee cannot ask for a relay in turn.
 */
static enum ara_status internal_in_domain(const struct ara_service *s, void *arg,
					  enum ara_domain_id d, uint64_t i,
					  struct ara_call_header *h, bool relayed)
{
	unsigned char *area = ara_domain_arg_area(d, i);
	uint64_t (*fn)(void *) = (uint64_t (*)(void *))(uintptr_t)s->handler;
	enum ara_status st;

	memcpy(area, arg, s->arg_size);
	st = (enum ara_status)(uint32_t)ara_domain_call(d, i, h, fn, area, !relayed);
	ara_domain_handed_on(d, area);
	memcpy(arg, area, s->arg_size);
	ara_memzero(area, s->arg_size);
	return st;
}

/* Whether module m names a module of domain from among its callers. */
static bool calls_allowed(const struct ara_module *m, enum ara_domain_id from)
{
#ifdef ARA_TEST_VARIANT_RELAY_ANY_CALLER
	/* Test-only (tests/variants): every service domain reaches every other's functions. */
	(void)m;
	(void)from;
	return true;
#endif
	for (const char *const *c = m->callers; c && *c; c++) {
		const struct ara_module *caller = ara_module_named(*c);

		if (caller && ara_module_domain(caller) == from)
			return true;
	}
	return false;
}

enum ara_status ara_relay_answer(enum ara_domain_id from, uint64_t i, struct ara_call_header *h,
				 struct ara_domain_relay *r)
{
	/* Once: every thread of the caller's domain writes its slots. */
	const uint32_t fid = __atomic_load_n(&r->fid, __ATOMIC_RELAXED);
	const struct ara_service *s = internal_of(fid);
	union {
		unsigned char bytes[ARA_SVC_ARG_MAX];
		uint64_t align;
	} arg;
	enum ara_domain_id d;
	enum ara_status st;

	if (fid == ARA_RELAY_APPEND_LANE) {
		ara_append_lane_for(from, r->arg);
		return ARA_OK;
	}
	if (!s)
		return ARA_E_NOFUNC;
	d = ara_module_domain(s->module);
	if (d == ARA_DOM0 || d == from || !calls_allowed(s->module, from))
		return ARA_E_NOFUNC;
	memcpy(arg.bytes, r->arg, s->arg_size);
	/* Neither domain reads the other's vector registers (the caller's may be SIMD). */
	ara_simd_scrub();
	st = internal_in_domain(s, arg.bytes, d, i, h, true);
	ara_simd_scrub();
	memcpy(r->arg, arg.bytes, s->arg_size);
	ara_memzero(arg.bytes, s->arg_size);
	return st;
}

const struct ara_module *ara_service_module(uint32_t fid)
{
	const struct ara_service *s = by_slot[ara_gate_slot(fid)];

	return s && s->fid == fid ? s->module : NULL;
}

enum ara_status ara_service_call(uint32_t fid, void *arg)
{
	const struct ara_service *s = internal_of(fid);
	const enum ara_domain_id running = ara_domain_running();
	struct ara_call_header *h;
	enum ara_domain_id d;
	uint64_t i;

	if (!s)
		return ARA_E_NOFUNC;
	d = ara_module_domain(s->module);
	if (d == running)
		return s->handler(arg);
	/*
	 * arg is the caller's memory. A service reaches another service
	 * domain's functions through the core, which checks the callee's
	 * callers; the core's code, which reads and writes every domain,
	 * reaches them through their door with a copy. The core's domain is
	 * reached by no service.
	 */
	if (running != ARA_DOM0)
		return d == ARA_DOM0 ? ARA_E_NOFUNC
				     : ara_domain_relay_out(running, s->fid, arg, s->arg_size);
	/* Off a call's stack there is no slot. */
	if (!(h = ara_domain_current_call(&i)))
		return ARA_E_NOFUNC;
	return internal_in_domain(s, arg, d, i, h, false);
}

void ara_services_init(struct ara_gate_cb *cb)
{
	for (uint64_t i = 0; i < ARA_GATE_SLOTS; i++)
		cb->table[i] = (struct ara_gate_slot){ .fid = 0, .fn = (uint64_t)(uintptr_t)ara_gate_nofunc };
	cb->nofunc = (uint64_t)(uintptr_t)ara_gate_nofunc;
	for (const struct ara_service *s = __start_ara_services; s < __stop_ara_services; s++) {
		const uint64_t slot = ara_gate_slot(s->fid);
		const int direct = !(s->flags & ARA_SVC_SIMD) && ara_module_domain(s->module) == ARA_DOM0 &&
				   (s->arg_size == 0 || (s->flags & ARA_SVC_VALUE));

		check_service(s);
		if (by_slot[slot])
			ara_fatal(by_slot[slot]->fid == s->fid
					  ? "two services share a function ID"
					  : "two function IDs share a slot of the gate's table "
					    "(ara/gate.h: ARA_GATE_HASH_SHIFT); function ID",
				  s->fid);
		by_slot[slot] = s;
		/* Not in the gate's table: the App's call finds the slot empty, as for an unknown fid. */
#ifndef ARA_TEST_VARIANT_INTERNAL_EXPOSED /* test-only (tests/variants): the App reaches them */
		if (s->flags & ARA_SVC_INTERNAL)
			continue;
#endif
		cb->table[slot].fid = s->fid;
		cb->table[slot].fn = direct ? (uint64_t)(uintptr_t)s->handler
					    : (uint64_t)(uintptr_t)ara_gate_wrapped;
	}
}
