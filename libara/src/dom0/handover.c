/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's hand-over of secrets between modules (ara/service.h): the
 * recipient's rules decide, the core copies. The sender's code runs in the
 * core's domain, whose row writes every domain's box, or in the
 * recipient's own; a sender in a third domain is refused (its row reaches
 * neither the recipient's box nor the core's).
 */
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

static size_t length(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
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
			if (same(r->from, from->name) && begins_with(name, name_len, r->prefix))
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

enum ara_status ara_handover(const struct ara_module *from, const uint8_t *name, size_t name_len,
			     const void *secret, size_t len)
{
	const enum ara_domain_id running = ara_domain_running();
	const struct ara_module *to;
	struct ara_handover_box *b;
	struct ara_handover_entry *e;
	enum ara_domain_id d;
	uint32_t index;

	if (!is_module(from) || ara_module_domain(from) != running || name_len == 0 ||
	    name_len > ARA_HANDOVER_NAME_MAX || len > ARA_HANDOVER_SECRET_MAX)
		return ARA_E_INVAL;
	if (!(to = recipient(from, name, name_len)))
		return ARA_E_NOENT;
	d = ara_module_domain(to);
	if (running != ARA_DOM0 && running != d)
		return ARA_E_NOTSUP;
	if (!(b = box_of(d)))
		return ARA_E_INTERNAL; /* cannot be: a module runs in d */
	index = (uint32_t)(to - __start_ara_modules);
	ara_lock(&b->lock);
	if ((e = entry_of(b, index, name, name_len)))
		ara_memzero(e, sizeof(*e)); /* replaced, or withdrawn */
	if (len > 0 && (e || (e = free_entry(b)))) {
		e->to = index;
		e->name_len = (uint32_t)name_len;
		e->len = (uint32_t)len;
		memcpy(e->name, name, name_len);
		memcpy(e->value, secret, len);
		e->held = 1;
	}
	ara_unlock(&b->lock);
	return len > 0 && !e ? ARA_E_NOMEM : ARA_OK;
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
	if ((e = entry_of(b, (uint32_t)(self - __start_ara_modules), name, name_len))) {
		st = e->len <= *len ? ARA_OK : ARA_E_INVAL;
		if (st == ARA_OK) {
			memcpy(out, e->value, e->len);
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
	const struct ara_module *from = NULL;

	for (const struct ara_module *n = __start_ara_modules; n < __stop_ara_modules; n++)
		if (n != m && same(n->name, r->from))
			from = n;
	if (!from)
		ara_fatal("a module takes secrets from no other module; module index",
			  m - __start_ara_modules);
	if (!r->prefix || length(r->prefix) == 0 || length(r->prefix) > ARA_HANDOVER_NAME_MAX)
		ara_fatal("a module takes secrets under an empty or too long prefix; module index",
			  m - __start_ara_modules);
	for (const struct ara_module *n = __start_ara_modules; n < __stop_ara_modules; n++)
		for (const struct ara_handover_rule *o = n->takes; n != m && o && o->from; o++)
			if (same(o->from, r->from) && o->prefix && overlap(o->prefix, r->prefix))
				ara_fatal("two modules take secrets of the same names; module index",
					  m - __start_ara_modules);
}

void ara_handover_check(void)
{
	for (const struct ara_module *m = __start_ara_modules; m < __stop_ara_modules; m++)
		for (const struct ara_handover_rule *r = m->takes; r && r->from; r++)
			check_rule(m, r);
}
