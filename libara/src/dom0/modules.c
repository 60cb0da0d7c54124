/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service modules (ara/service.h): their hooks at initialisation, their
 * per-process state, the append lane, and what else the core gives them.
 *
 * A module's state pointer sits on the per-process state page (live.h) at
 * the module's index in its section: a forked child finds it NULL and makes
 * a new one at its first use, which runs the module's forked hook. The
 * core knows no module by name; init.c calls the hooks of all.
 */
#include "ara/gate.h"
#include "dom0.h"
#include "domain.h"
#include "handover.h"
#include "live.h"

/* Linker-provided bounds of the ara_modules section (ARA_MODULE). */
extern const struct ara_module __start_ara_modules[] __attribute__((visibility("hidden")));
extern const struct ara_module __stop_ara_modules[] __attribute__((visibility("hidden")));

static uint32_t modules_count(void)
{
	return (uint32_t)(__stop_ara_modules - __start_ara_modules);
}

uint32_t ara_module_index(const struct ara_module *m)
{
	if (m < __start_ara_modules || m >= __stop_ara_modules)
		ara_fatal("a service names no module (ARA_MODULE)", 0);
	return (uint32_t)(m - __start_ara_modules);
}

const struct ara_module *ara_module_named(const char *name)
{
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

/*
 * Runs a hook of a module in a domain of its own, through the door. At
 * initialisation no call runs: the hook has call stack 0's slot, and the
 * initialisation stack is the core's; it relays no call (another module's
 * start hook may not have run). The door calls it as uint64_t
 * (void *): x0 in (envp, or nothing for ready), x0 out ignored.
 */
static void run_in_domain(const struct ara_module *m, void (*hook)(void), void *arg)
{
	const enum ara_domain_id d = ara_module_domain(m);

	ara_domain_call(d, 0, (struct ara_call_header *)(uintptr_t)ara_domain_map.headers,
			(uint64_t (*)(void *))(uintptr_t)hook, arg, false);
	ara_domain_handed_on(d, ara_domain_arg_area(d, 0));
}

void ara_modules_start(char **envp)
{
	if (modules_count() > ARA_MODULES_MAX)
		ara_fatal("more service modules than ARA_MODULES_MAX", modules_count());
	/* Named once each: the hand-over's rules name their senders. */
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++) {
		if (!m->name)
			ara_fatal("a service module has no name; index", m - __start_ara_modules);
		for (const struct ara_module *n = __start_ara_modules; n < m; n++)
			if (strcmp(n->name, m->name) == 0)
				ara_fatal("two service modules have one name; index",
					  m - __start_ara_modules);
	}
	ara_handover_check();
	/* A module's callers name other modules (dispatch.c's relay). */
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		for (const char *const *c = m->callers; c && *c; c++) {
			const struct ara_module *caller = ara_module_named(*c);

			if (!caller || caller == m)
				ara_fatal("a module's callers name no other module; index",
					  m - __start_ara_modules);
		}
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++) {
		if (m->start && ara_module_domain(m) == ARA_DOM0)
			m->start(envp);
		else if (m->start)
			run_in_domain(m, (void (*)(void))(uintptr_t)m->start, envp);
	}
}

void ara_modules_ready(void)
{
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		if (m->ready && ara_module_domain(m) == ARA_DOM0)
			m->ready();
		else if (m->ready)
			run_in_domain(m, m->ready, NULL);
}

/*
 * A module's state in its own domain, on its home (domain.h): made in its
 * domain's heap and its hook run there, by the module's own code. The
 * core's row only looks: the state, or NULL if the module has not made it.
 */
static void *domain_state(const struct ara_module *m, uint32_t i, enum ara_domain_id d)
{
	struct ara_domain_home *home = ara_domain_home(d);
	void *s;

	if (!home)
		return NULL;
	if ((s = __atomic_load_n(&home->module_state[i], __ATOMIC_ACQUIRE)) ||
	    ara_domain_running() != d)
		return s;
	ara_lock(&home->modules_lock);
	if (!(s = home->module_state[i]) && (s = ara_dom0_calloc(1, m->state_size))) {
		if (home->forked && m->forked)
			m->forked(s);
		__atomic_store_n(&home->module_state[i], s, __ATOMIC_RELEASE);
	}
	ara_unlock(&home->modules_lock);
	return s;
}

void *ara_module_state(const struct ara_module *m)
{
	const uint32_t i = (uint32_t)(m - __start_ara_modules);
	void *s;

	if (m < __start_ara_modules || m >= __stop_ara_modules || m->state_size == 0)
		return NULL;
	if (ara_module_domain(m) != ARA_DOM0)
		return domain_state(m, i, ara_module_domain(m));
	if ((s = __atomic_load_n(&ara_live->module_state[i], __ATOMIC_ACQUIRE)))
		return s;
	/*
	 * The first use in this process. ara_live_ensure tells a forked child
	 * (it rebuilds the page there). The forked hook runs before the state
	 * is published, under the lock: no thread sees the state before it.
	 */
	ara_live_ensure();
	ara_lock(&ara_live->modules_lock);
	if (!(s = ara_live->module_state[i]) && (s = ara_dom0_calloc(1, m->state_size))) {
		if (ara_live->forked && m->forked)
			m->forked(s);
		__atomic_store_n(&ara_live->module_state[i], s, __ATOMIC_RELEASE);
	}
	ara_unlock(&ara_live->modules_lock);
	return s;
}

void *ara_module_boot(const struct ara_module *m)
{
	if (m < __start_ara_modules || m >= __stop_ara_modules)
		return NULL;
	return ara_domain_map.boot[m - __start_ara_modules];
}

/*
 * The lane is the core's (the gate reads it from the per-process page and
 * writes the segment it names with the core's row): a module in a service
 * domain has the core set it, which checks that the segment is that
 * domain's memory.
 */
void ara_append_lane_set(void *segment)
{
	const enum ara_domain_id d = ara_domain_running();
	uint64_t at = (uint64_t)(uintptr_t)segment;
	enum ara_status st;

	if (d == ARA_DOM0) {
		__atomic_store_n(&ara_live->append_lane, segment, __ATOMIC_RELEASE);
		return;
	}
	st = ara_domain_relay_out(d, ARA_RELAY_APPEND_LANE, &at, sizeof(at));
	if (st != ARA_OK)
		ara_stop(ARA_EXIT_SERVICE_FAULT, "the core did not set the append lane; status", st);
}

void ara_append_lane_for(enum ara_domain_id from, const void *arg)
{
	const struct ara_module *owner = ara_service_module(ARA_GATE_FID_RTM_LOG);
	const uint64_t size = ARA_GATE_RTM_SLOTS + (uint64_t)ARA_GATE_RTM_ENTRIES * 8;
	uint64_t at;

	/* Once: the caller's other threads write its relay area. */
	at = __atomic_load_n((const uint64_t *)arg, __ATOMIC_RELAXED);
#ifndef ARA_TEST_VARIANT_LANE_ANY_OWNER
	if (!owner || ara_module_domain(owner) != from)
		ara_domain_fault(from, "asked for the append lane, which only the RTM log's domain sets",
				 at);
#else
	/* Test-only (tests/variants): any service domain sets the lane. */
	(void)owner;
#endif
#ifndef ARA_TEST_VARIANT_LANE_ANY_SEGMENT
	if (at % 8 != 0)
		ara_domain_fault(from, "asked for an append lane that is not 8-byte aligned", at);
	if (at != 0 && !ara_domain_heap_holds(from, at, size))
		ara_domain_fault(from, "asked for an append lane that is not a segment on its heap",
				 at);
#else
	/* Test-only (tests/variants): the lane goes wherever the domain says. */
	(void)size;
#endif
	ara_live_ensure(); /* a forked child's page, rebuilt */
	__atomic_store_n(&ara_live->append_lane, (void *)(uintptr_t)at, __ATOMIC_RELEASE);
}

const struct ara_boot *ara_measured(void)
{
	return &ara_boot_block;
}
