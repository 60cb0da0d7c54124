/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service domains' memory and the core's side of their doors (domain.h,
 * domain.S).
 */
#include "ara/boot.h"
#include "domain.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "sys.h"

#define HOME_SIZE (ARA_PAGE_SIZE + ARA_DOMAIN_HEAP_SIZE)
#define DOMAIN_STACKS ((uint64_t)ARA_DOMAIN_SLOT << ARA_DOMAIN_SLOTS_SHIFT) /* one domain's slots */

ARA_RO_AFTER_INIT struct ara_domain_map ara_domain_map;

/* Linker-provided bounds of the ara_modules section (ARA_MODULE). */
extern const struct ara_module __start_ara_modules[] __attribute__((visibility("hidden")));
extern const struct ara_module __stop_ara_modules[] __attribute__((visibility("hidden")));

static int is_service_domain(enum ara_domain_id d)
{
	return d == ARA_DOM_PROVISION || d == ARA_DOM_RTS || d == ARA_DOM_RTM || d == ARA_DOM_EXTRA;
}

enum ara_domain_id ara_module_domain(const struct ara_module *m)
{
#ifdef ARA_TEST_VARIANT_ONE_DOMAIN
	/* Test-only (tests/variants): every module in the core's domain, on its row. */
	(void)m;
	return ARA_DOM0;
#else
	return m->domain;
#endif
}

static uint64_t slot_top(enum ara_domain_id d, uint64_t i)
{
	return ara_domain_map.stacks +
	       ((((uint64_t)d << ARA_DOMAIN_SLOTS_SHIFT) + i + 1) << ARA_DOMAIN_SLOT_SHIFT);
}

/*
 * Anonymous memory for a domain: locked as faulted in, zeroed in a forked
 * child (as the arena, init.c) unless kept (the boot states).
 */
static uint64_t map_private(uint64_t size, int prot, bool kept, const char *what)
{
	long base = ara_sys6(__NR_mmap, 0, (long)size, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			     -1, 0);
	long r;

	if (ara_sys_failed(base))
		ara_fatal(what, base);
#ifndef ARA_TEST_VARIANT_ARENA_SWAPPABLE
	r = ara_sys3(__NR_mlock2, base, size, MLOCK_ONFAULT);
	if (r != 0 && ara_sys0(__NR_geteuid) == 0)
		ara_fatal("mlock2 of a service domain failed (uid 0 needs CAP_IPC_LOCK)", r);
#endif
#ifndef ARA_TEST_VARIANT_NO_FORK_GUARD
	r = kept ? 0 : ara_sys3(__NR_madvise, base, size, MADV_WIPEONFORK);
	if (r != 0)
		ara_fatal("madvise(MADV_WIPEONFORK) of a service domain failed", r);
#else
	(void)kept;
#endif
	(void)r;
	return (uint64_t)base;
}

/* The boot states of domain d's modules: one range on d's key, kept by a forked child. */
static void map_boot(enum ara_domain_id d)
{
	uint64_t size = 0, at;

	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		if (ara_module_domain(m) == d && m->boot_size > 0)
			size += (m->boot_size + 15) & ~(uint64_t)15;
	if (size == 0)
		return;
	size = (size + ARA_PAGE_SIZE - 1) & ~(uint64_t)(ARA_PAGE_SIZE - 1);
	at = map_private(size, PROT_READ | PROT_WRITE, true, "mmap of the modules' boot states failed");
	ara_protect(at, size, PROT_READ | PROT_WRITE, d);
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++) {
		if (ara_module_domain(m) != d || m->boot_size == 0)
			continue;
		if (m - __start_ara_modules >= ARA_MODULES_MAX)
			ara_fatal("more service modules than ARA_MODULES_MAX", m - __start_ara_modules);
		ara_domain_map.boot[m - __start_ara_modules] = (void *)(uintptr_t)at;
		at += (m->boot_size + 15) & ~(uint64_t)15;
	}
}

void ara_domains_map(uint64_t headers, uint64_t header_stride)
{
	int used[ARA_DOMAINS] = { 0 };
	int any = 0;

	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++) {
		const enum ara_domain_id d = ara_module_domain(m);

		if (d != ARA_DOM0 && !is_service_domain(d))
			ara_fatal("a service module names a domain that is not a service domain; domain", d);
		used[d] = d != ARA_DOM0;
		any |= used[d];
	}
	ara_domain_map.headers = headers;
	ara_domain_map.header_stride = header_stride;
	for (unsigned int d = 0; d < ARA_DOMAINS; d++)
		map_boot((enum ara_domain_id)d);
	if (!any)
		return;
	/* Every domain's slots reserved (inaccessible), so a slot's address says its domain. */
	ara_domain_map.stacks = map_private(DOMAIN_STACKS * ARA_DOMAINS, PROT_NONE, false,
					    "mmap of the service domains' stacks failed");
	/* All of it ARA's: no App pointer or mapping call may reach the unused domains' slots either. */
	if (ara_regions_add(&ara_protected, ara_domain_map.stacks,
			    ara_domain_map.stacks + DOMAIN_STACKS * ARA_DOMAINS, ARA_DOM0))
		ara_fatal("too many protected regions", (long)ara_protected.n);
	for (unsigned int d = 0; d < ARA_DOMAINS; d++) {
		const uint64_t first = slot_top(d, 0) - ARA_DOMAIN_SLOT;
		const unsigned int key = ara_domain_table[d].pkey;
		struct ara_domain_home *home;

		if (!used[d])
			continue;
		ara_protect(first, DOMAIN_STACKS, PROT_READ | PROT_WRITE, (enum ara_domain_id)d);
		for (uint64_t i = 0; i < ARA_DOM0_STACKS; i++) /* each slot's guard page */
			ara_tag(first + i * ARA_DOMAIN_SLOT, ARA_PAGE_SIZE, PROT_NONE, key);
		home = (struct ara_domain_home *)(uintptr_t)map_private(
			HOME_SIZE, PROT_READ | PROT_WRITE, false, "mmap of a service domain's heap failed");
		ara_protect((uint64_t)(uintptr_t)home, HOME_SIZE, PROT_READ | PROT_WRITE,
			    (enum ara_domain_id)d);
		ara_heap_init(&home->heap, (unsigned char *)home + ARA_PAGE_SIZE, ARA_DOMAIN_HEAP_SIZE);
		home->state = ARA_LIVE_READY;
		ara_domain_map.home[d] = home;
	}
}

enum ara_domain_id ara_domain_running(void)
{
	uint64_t por;

	if (ara_running_core())
		return ARA_DOM0;
	/* A service's row writes its own key and the App's. */
	__asm__ volatile("mrs %0, S3_3_C10_C2_4" : "=r"(por));
	for (unsigned int d = 0; d < ARA_DOMAINS; d++)
		if (is_service_domain(d) && (por & ARA_POR_KEY(ara_domain_table[d].pkey, ARA_PERM_W)))
			return (enum ara_domain_id)d;
	ara_fatal("POR_EL0 holds no row of ARA's", (long)por);
}

bool ara_domain_heap_holds(enum ara_domain_id d, uint64_t addr, uint64_t len)
{
	const uint64_t heap = (uint64_t)(uintptr_t)ara_domain_map.home[d] + ARA_PAGE_SIZE;

	return is_service_domain(d) && ara_domain_map.home[d] && addr >= heap &&
	       len <= ARA_DOMAIN_HEAP_SIZE && addr - heap <= ARA_DOMAIN_HEAP_SIZE - len;
}

struct ara_domain_home *ara_domain_home(enum ara_domain_id d)
{
	struct ara_domain_home *home = ara_domain_map.home[d];
	uint32_t unset = ARA_LIVE_UNSET;

	if (!home || __atomic_load_n(&home->state, __ATOMIC_ACQUIRE) == ARA_LIVE_READY)
		return home;
	/* A forked child: the home is zero; one thread rebuilds the heap, the others wait. */
	if (__atomic_compare_exchange_n(&home->state, &unset, ARA_LIVE_BUILDING, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_ACQUIRE)) {
		ara_heap_init(&home->heap, (unsigned char *)home + ARA_PAGE_SIZE, ARA_DOMAIN_HEAP_SIZE);
		home->forked = 1;
		__atomic_store_n(&home->state, ARA_LIVE_READY, __ATOMIC_RELEASE);
		return home;
	}
	while (__atomic_load_n(&home->state, __ATOMIC_ACQUIRE) != ARA_LIVE_READY)
		__asm__ volatile("yield");
	return home;
}

struct ara_call_header *ara_domain_current_call(uint64_t *i)
{
	const uint64_t stride = ara_domain_map.header_stride;
	/* Stack 0's lowest address: its guard page's, one stride below its header's end. */
	const uint64_t base = ara_domain_map.headers + ARA_CALL_HEADER_SIZE - stride;
	uint64_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	if (stride == 0 || sp < base || (sp - base) / stride >= ARA_DOM0_STACKS)
		return NULL;
	*i = (sp - base) / stride;
	return (struct ara_call_header *)(uintptr_t)(ara_domain_map.headers + *i * stride);
}

void *ara_domain_arg_area(enum ara_domain_id d, uint64_t i)
{
	return (void *)(uintptr_t)(slot_top(d, i) - ARA_DOMAIN_TICKET - ARA_DOMAIN_ARGS);
}

void *ara_domain_own_area(enum ara_domain_id d)
{
	uint64_t sp, slot;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	if (!ara_domain_map.stacks || sp < ara_domain_map.stacks)
		return NULL;
	slot = (sp - ara_domain_map.stacks) >> ARA_DOMAIN_SLOT_SHIFT;
	if (slot >> ARA_DOMAIN_SLOTS_SHIFT != (uint64_t)d)
		return NULL;
	return ara_domain_arg_area(d, slot & ((1u << ARA_DOMAIN_SLOTS_SHIFT) - 1));
}

void ara_domain_fault(enum ara_domain_id d, const char *why, uint64_t value)
{
	struct ara_msg m = { .len = 0 };

	ara_msg_service(d, &m);
	ara_msg_str(&m, " ");
	ara_msg_str(&m, why);
	ara_msg_str(&m, " (");
	ara_msg_hex(&m, value);
	ara_msg_str(&m, "); ending the process\n");
	ara_msg_emit(&m);
	ara_sys_exit_group(ARA_EXIT_SERVICE_FAULT);
}

struct ara_domain_exit ara_domain_start(enum ara_domain_id d, uint64_t i, struct ara_call_header *h,
				       uint64_t (*fn)(void *), void *arg)
{
	const uint64_t top = slot_top(d, i);
	uint64_t *ticket = (uint64_t *)(uintptr_t)(top - ARA_DOMAIN_TICKET);

	if (!is_service_domain(d) || !ara_domain_map.home[d] || i >= ARA_DOM0_STACKS)
		ara_fatal("a call into a domain no module runs in; domain", d);
	ticket[1] = (uint64_t)(uintptr_t)arg;
	__atomic_store_n(&ticket[0], (uint64_t)(uintptr_t)fn, __ATOMIC_RELEASE);
	return ara_domain_enter(top, &h->domain, d);
}

/*
 * A relay asked for where the core makes none (a relayed call, a hook): the
 * append lane's request ends the process, as every refused one does
 * (modules.c); a call is refused.
 */
static enum ara_status unrelayed(enum ara_domain_id d, struct ara_domain_relay *r)
{
	if (__atomic_load_n(&r->fid, __ATOMIC_RELAXED) == ARA_RELAY_APPEND_LANE)
		ara_domain_fault(d, "asked for the append lane where it cannot relay",
				 __atomic_load_n((const uint64_t *)(void *)r->arg, __ATOMIC_RELAXED));
	return ARA_E_NOFUNC;
}

/*
 * Relayed: the service waits for a call the core makes for it
 * (ara_relay_answer), and is then resumed through its door, until its
 * function returns; anything else the service wrote ends the process as
 * its fault.
 */
uint64_t ara_domain_relayed(enum ara_domain_id d, uint64_t i, struct ara_call_header *h,
			    uint64_t how, bool may_relay)
{
	struct ara_domain_relay *r = ara_domain_relay_of(ara_domain_arg_area(d, i));
	struct ara_domain_exit x = { .how = how };

	while (x.how != ARA_DOMAIN_RETURNED) {
		if (x.how != ARA_DOMAIN_RELAYED)
			ara_domain_fault(d, "left its call neither returning nor relaying", x.how);
		r->status = may_relay ? ara_relay_answer(d, i, h, r) : unrelayed(d, r);
		x = ara_domain_start(d, i, h, ara_domain_resume, r);
	}
	return x.result;
}

enum ara_status ara_domain_relay_out(enum ara_domain_id d, uint32_t fid, void *arg, uint32_t size)
{
	unsigned char *area = ara_domain_own_area(d);
	struct ara_domain_relay *r;
	enum ara_status st;

	if (!area)
		return ARA_E_NOFUNC;
	r = ara_domain_relay_of(area);
	r->fid = fid;
	memcpy(r->arg, arg, size);
	st = (enum ara_status)(int32_t)ara_domain_yield(
		(uint64_t)(uintptr_t)(area + ARA_DOMAIN_ARGS + ARA_DOMAIN_TICKET), r);
	memcpy(arg, r->arg, size);
	ara_memzero(r->arg, size);
	return st;
}

void ara_msg_service(enum ara_domain_id d, struct ara_msg *msg)
{
	const char *sep = "ara: service ";

	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++) {
		if (ara_module_domain(m) != d)
			continue;
		ara_msg_str(msg, sep);
		ara_msg_str(msg, m->name);
		sep = ", ";
	}
	ara_msg_str(msg, " (domain ");
	ara_msg_str(msg, ara_domain_table[d].name);
	ara_msg_str(msg, ")");
}
