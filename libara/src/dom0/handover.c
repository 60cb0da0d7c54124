/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's hand-over of secrets between modules (ara/service.h): the
 * recipient's rules decide, the core copies. A sender in the core's domain,
 * whose row writes every domain's box, or in the recipient's own delivers
 * at once; one in a third service domain, whose row reaches neither the
 * recipient's box nor the core's, queues it on its call's slot, and the
 * core delivers it when the call into that domain has returned.
 */
#include "ara/boot.h"
#include "dom0.h"
#include "domain.h"
#include "handover.h"
#include "live.h"

extern const struct ara_module __start_ara_modules[] __attribute__((visibility("hidden")));
extern const struct ara_module __stop_ara_modules[] __attribute__((visibility("hidden")));

static bool is_module(const struct ara_module *m)
{
	return m >= __start_ara_modules && m < __stop_ara_modules;
}

static uint32_t index_of(const struct ara_module *m)
{
	return (uint32_t)(m - __start_ara_modules);
}

/*
 * A loop, not memcpy: the compiler keeps a function it calls twice in a
 * callee-saved register, an indirect call check-simd-services.cmake cannot
 * tell from a function pointer. -fno-tree-loop-distribute-patterns keeps
 * it a loop.
 */
static void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

static bool begins_with(const uint8_t *name, size_t name_len, const char *prefix)
{
	size_t i = 0;

	for (; prefix[i]; i++)
		if (i >= name_len || name[i] != (uint8_t)prefix[i])
			return false;
	return true;
}

/* The module one of whose rules names the secret from `from` under name, or NULL. */
static const struct ara_module *recipient(const struct ara_module *from, const uint8_t *name,
					  size_t name_len)
{
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		for (const struct ara_handover_rule *r = m->takes; r && r->from; r++)
			if (strcmp(r->from, from->name) == 0 && begins_with(name, name_len, r->prefix))
				return m;
	return NULL;
}

/* Domain d's box: on its home, or on the core's state page (the core's row only). */
static struct ara_handover_box *box_of(enum ara_domain_id d)
{
	struct ara_domain_home *home;

	if (d == ARA_DOM0) {
		ara_live_ensure(); /* a forked child's page, rebuilt */
		return &ara_live->handover;
	}
	home = ara_domain_home(d);
	return home ? &home->handover : NULL;
}

/* The entry of module `to` under name, or NULL; with b's lock held. */
static struct ara_handover_entry *entry_of(struct ara_handover_box *b, uint32_t to,
					   const uint8_t *name, size_t name_len)
{
	for (size_t i = 0; i < ARA_HANDOVER_HELD; i++) {
		struct ara_handover_entry *e = &b->entry[i];

		if (e->held && e->to == to && e->name_len == name_len &&
		    ara_ct_eq(e->name, name, name_len))
			return e;
	}
	return NULL;
}

static struct ara_handover_entry *free_entry(struct ara_handover_box *b)
{
	for (size_t i = 0; i < ARA_HANDOVER_HELD; i++)
		if (!b->entry[i].held)
			return &b->entry[i];
	return NULL;
}

static void fill(struct ara_handover_entry *e, uint32_t from, uint32_t to, const uint8_t *name,
		 size_t name_len, const void *secret, size_t len)
{
	e->from = from;
	e->to = to;
	e->name_len = (uint32_t)name_len;
	e->len = (uint32_t)len;
	copy_bytes(e->name, name, name_len);
	copy_bytes(e->value, secret, len);
	e->held = 1;
}

/* Into box b: module to's copy of the secret under name, replacing one held; len 0 withdraws. */
static enum ara_status deliver(struct ara_handover_box *b, uint32_t from, uint32_t to,
			       const uint8_t *name, size_t name_len, const void *secret, size_t len)
{
	struct ara_handover_entry *e;

	ara_lock(&b->lock);
	if ((e = entry_of(b, to, name, name_len)))
		ara_memzero(e, sizeof(*e)); /* replaced, or withdrawn */
	if (len > 0 && (e || (e = free_entry(b))))
		fill(e, from, to, name, name_len, secret, len);
	ara_unlock(&b->lock);
	return len > 0 && !e ? ARA_E_NOMEM : ARA_OK;
}

/* Into the queue of the sender's call, for the core to deliver when it returns. */
static enum ara_status queue(enum ara_domain_id running, uint32_t from, uint32_t to,
			     const uint8_t *name, size_t name_len, const void *secret, size_t len)
{
	void *area = ara_domain_own_area(running);
	struct ara_handover_queue *q;

	if (!area)
		return ARA_E_INTERNAL; /* cannot be: a service runs on a slot of its domain */
	q = ara_domain_queue(area);
	if (q->n >= ARA_HANDOVER_QUEUED)
		return ARA_E_NOMEM;
	fill(&q->entry[q->n++], from, to, name, name_len, secret, len);
	return ARA_OK;
}

enum ara_status ara_handover(const struct ara_module *from, const uint8_t *name, size_t name_len,
			     const void *secret, size_t len)
{
	const enum ara_domain_id running = ara_domain_running();
	const struct ara_module *to;
	struct ara_handover_box *b;
	enum ara_domain_id d;

	if (!is_module(from) || ara_module_domain(from) != running)
		return ARA_E_INVAL;
	/* The sender's own secrets are not the rules' business, whatever their size. */
	if (name_len == 0 || name_len > ARA_HANDOVER_NAME_MAX || !(to = recipient(from, name, name_len)))
		return ARA_E_NOENT;
	if (len > ARA_HANDOVER_SECRET_MAX)
		return ARA_E_INVAL;
	d = ara_module_domain(to);
	if (running != ARA_DOM0 && running != d)
		return queue(running, index_of(from), index_of(to), name, name_len, secret, len);
	if (!(b = box_of(d)))
		return ARA_E_INTERNAL; /* cannot be: a module runs in d */
	return deliver(b, index_of(from), index_of(to), name, name_len, secret, len);
}

/* The end of the process, for a queue that the rules or the recipient's room refuse. */
__attribute__((noreturn)) static void queue_fault(enum ara_domain_id d, const char *why)
{
	struct ara_msg m = { .len = 0 };

	ara_msg_service(d, &m);
	ara_msg_str(&m, " handed a secret ");
	ara_msg_str(&m, why);
	ara_msg_str(&m, "; ending the process\n");
	ara_msg_emit(&m);
	ara_sys_exit_group(ARA_EXIT_SERVICE_FAULT);
}

void ara_handover_flush(enum ara_domain_id d, struct ara_handover_queue *q)
{
	const uint32_t count = (uint32_t)(__stop_ara_modules - __start_ara_modules);
	const uint32_t n = q->n; /* once: the sender's domain writes the queue */
	struct ara_handover_box *b;
	struct ara_handover_entry e;

	for (uint32_t k = 0; k < n && k < ARA_HANDOVER_QUEUED; k++) {
		e = q->entry[k];
		ara_memzero(&q->entry[k], sizeof(e));
		if (e.from >= count || e.to >= count || e.name_len == 0 ||
		    e.name_len > ARA_HANDOVER_NAME_MAX || e.len > ARA_HANDOVER_SECRET_MAX ||
		    ara_module_domain(&__start_ara_modules[e.from]) != d ||
		    recipient(&__start_ara_modules[e.from], e.name, e.name_len) !=
			    &__start_ara_modules[e.to])
			queue_fault(d, "no rule lets it hand");
		b = box_of(ara_module_domain(&__start_ara_modules[e.to]));
		if (!b || deliver(b, e.from, e.to, e.name, e.name_len, e.value, e.len) != ARA_OK)
			queue_fault(d, "its recipient has no room for");
		ara_memzero(&e, sizeof(e));
	}
	q->n = 0;
}

enum ara_status ara_handed(const struct ara_module *self, const uint8_t *name, size_t name_len,
			   void *out, size_t *len)
{
	struct ara_handover_box *b;
	struct ara_handover_entry *e;
	enum ara_status st = ARA_E_NOENT;

	if (!is_module(self) || ara_module_domain(self) != ara_domain_running() ||
	    name_len > ARA_HANDOVER_NAME_MAX)
		return ARA_E_INVAL;
	if (!(b = box_of(ara_module_domain(self))))
		return ARA_E_NOENT;
	ara_lock(&b->lock);
	if ((e = entry_of(b, index_of(self), name, name_len))) {
		st = e->len <= *len ? ARA_OK : ARA_E_INVAL;
		if (st == ARA_OK) {
			copy_bytes(out, e->value, e->len);
			*len = e->len;
		}
	}
	ara_unlock(&b->lock);
	return st;
}

/* Whether one of the two prefixes begins the other: a name both take. */
static bool overlap(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return !*a || !*b;
}

static void check_rule(const struct ara_module *m, const struct ara_handover_rule *r)
{
	const struct ara_module *from = ara_module_named(r->from);

	if (!from || from == m)
		ara_fatal("a module takes secrets from no other module; module index",
			  m - __start_ara_modules);
	if (!r->prefix || strlen(r->prefix) == 0 || strlen(r->prefix) > ARA_HANDOVER_NAME_MAX)
		ara_fatal("a module takes secrets under an empty or too long prefix; module index",
			  m - __start_ara_modules);
	for (const struct ara_module *n = __start_ara_modules; n < __stop_ara_modules; n++)
		for (const struct ara_handover_rule *o = n->takes; n != m && o && o->from; o++)
			if (strcmp(o->from, r->from) == 0 && o->prefix && overlap(o->prefix, r->prefix))
				ara_fatal("two modules take secrets of the same names; module index",
					  m - __start_ara_modules);
}

void ara_handover_check(void)
{
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		for (const struct ara_handover_rule *r = m->takes; r && r->from; r++)
			check_rule(m, r);
}
