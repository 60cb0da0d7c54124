/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fixed dispatcher: the one DOM0 function the gate calls.
 *
 * It validates fid against the table built at initialisation, copies the
 * argument into DOM0 (bounded by the service's own size), runs the handler
 * on the copy, copies the result out, wipes the copy, and lets only
 * documented statuses leave (anything else becomes ARA_E_INTERNAL).
 */
#include "ara/gate.h"
#include "ara/service.h"
#include "dom0.h"
#include "live.h"
#include "mem.h"

_Static_assert(ARA_GATE_STATUS_NOT_READY == ARA_E_NOT_READY, "gate.S returns it");
_Static_assert(ARA_GATE_STATUS_BUSY == ARA_E_BUSY, "gate.S returns it");

#define ARA_SERVICES_MAX 256

/* Linker-provided bounds of the ara_services section (ARA_SERVICE). */
extern const struct ara_service __start_ara_services[] __attribute__((visibility("hidden")));
extern const struct ara_service __stop_ara_services[] __attribute__((visibility("hidden")));

/* Sorted by fid; written once at initialisation, before any App code. */
static const struct ara_service *table[ARA_SERVICES_MAX];
static size_t table_len;

static void check_service(const struct ara_service *s)
{
	if (s->fid == 0)
		ara_fatal("a service has function ID 0", 0);
	if (!s->handler)
		ara_fatal("a service has no handler; function ID", s->fid);
	if (s->flags & ~(ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_VALUE))
		ara_fatal("a service has unknown flags; function ID", s->fid);
	if ((s->flags & ARA_SVC_VALUE) && (s->flags != ARA_SVC_VALUE || s->arg_size != 8))
		ara_fatal("a by-value service has other flags, or a size other than 8; function ID",
			  s->fid);
	if (s->arg_size > ARA_SVC_ARG_MAX)
		ara_fatal("a service's argument exceeds ARA_SVC_ARG_MAX; function ID", s->fid);
	if ((s->flags != 0) != (s->arg_size != 0))
		ara_fatal("a service copies an argument of size 0, or ignores a sized one; function ID",
			  s->fid);
}

void ara_services_init(void)
{
	for (const struct ara_service *s = __start_ara_services; s < __stop_ara_services; s++) {
		size_t i;

		check_service(s);
		if (table_len == ARA_SERVICES_MAX)
			ara_fatal("more services than ARA_SERVICES_MAX", ARA_SERVICES_MAX);
		for (i = table_len; i > 0 && table[i - 1]->fid > s->fid; i--)
			table[i] = table[i - 1];
		if (i > 0 && table[i - 1]->fid == s->fid)
			ara_fatal("two services share a function ID", s->fid);
		table[i] = s;
		table_len++;
	}
}

static const struct ara_service *find(uint64_t fid)
{
	size_t lo = 0, hi = table_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid]->fid == fid)
			return table[mid];
		if (table[mid]->fid < fid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static long filter(enum ara_status st)
{
	return (st >= ARA_OK && st < ARA_STATUS_COUNT) ? st : ARA_E_INTERNAL;
}

static long dispatch(uint64_t fid, uint64_t app_arg)
{
	const struct ara_service *s = find(fid); /* fid > UINT32_MAX finds nothing */
	union {
		unsigned char bytes[ARA_SVC_ARG_MAX];
		uint64_t align;
	} arg;
	enum ara_status st;

	ara_live_ensure(); /* first call in a forked child: an empty heap */
	if (!s)
		return ARA_E_NOFUNC;
	if (s->arg_size == 0)
		return filter(s->handler(NULL));
	if (s->flags & ARA_SVC_VALUE) {
		memcpy(arg.bytes, &app_arg, sizeof(app_arg));
		st = s->handler(arg.bytes);
		ara_memzero(arg.bytes, sizeof(app_arg));
		return filter(st);
	}
	if (app_arg == 0)
		return ARA_E_INVAL;
#ifdef ARA_TEST_VARIANT_NO_COPY_IN
	/*
	 * Test-only (tests/variants): the protection below removed. The handler
	 * works on the App's memory itself, which other App threads can change
	 * while it runs (tests/ara/attack_race.c).
	 */
	return filter(s->handler((void *)(uintptr_t)app_arg));
#endif
	if (s->flags & ARA_SVC_IN) {
		st = ara_copy_from_app(arg.bytes, app_arg, s->arg_size);
	} else {
		ara_memzero(arg.bytes, s->arg_size);
		st = ARA_OK;
	}
	if (st == ARA_OK)
		st = s->handler(arg.bytes);
	if (st == ARA_OK && (s->flags & ARA_SVC_OUT))
		st = ara_copy_to_app(app_arg, arg.bytes, s->arg_size);
	/* Every path after the copy-in, a partial one included, wipes it. */
	ara_memzero(arg.bytes, s->arg_size);
	return filter(st);
}

long ara_dispatch(uint64_t fid, uint64_t app_arg)
{
	long st = dispatch(fid, app_arg);

	/* Every service, not only those known to use AES: one rule, no list to keep. */
	ara_simd_scrub();
	return st;
}
