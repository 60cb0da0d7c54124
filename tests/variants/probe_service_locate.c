/* SPDX-License-Identifier: Apache-2.0 */
/*
 * LOCATE, the probe's accomplice, linked only into the domain-probe and
 * one-domain test variants (never into libara.so): it tells the App where
 * the other modules and the core keep what the probe (probe_service.c) is
 * to reach, and a digest of those bytes, so that tests/ara/attack_domains.c
 * can aim the probe's READ and WRITE and check what they return. Its
 * module is built in the core's domain (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt), whose row reaches every module's memory.
 *
 * Test-only: it reaches the core's and the services' internals (their
 * headers, and their modules by extern declarations), which no service may
 * (ara/service.h); the addresses it hands out are what an attacker would
 * find by other means, not what a real service could ever give.
 */
#include "ara/service.h"
#include "counter_ops.h"
#include "dom0/dom0.h"
#include "dom0/live.h"
#include "instance.h"
#include "probe.h"
#include "rtm_state.h"
#include "slots.h"

/* The modules whose state LOCATE names, defined by ARA_MODULE in their own files. */
extern const struct ara_module counter_module; /* services/counter/counter.c */
extern const struct ara_module probe_module;   /* probe_service.c */

ARA_MODULE(probe_locate_module, .name = "probe-locate");

/*
 * Makes every state the targets live in, so that the core's page, which
 * points at them, holds the same bytes at LOCATE and at the READ after it.
 */
static enum ara_status make_states(void)
{
	if (!ara_rts_state() || !ara_module_state(&counter_module) ||
	    !ara_module_state(&probe_module) || !ara_module_state(&ara_provision_module) ||
	    !ara_rtm_lock())
		return ARA_E_NOMEM;
	ara_rtm_unlock();
	return ARA_OK;
}

/* The region of which, and a word of it to write; ARA_OK or why there is none. */
static enum ara_status find(uint32_t which, uint8_t **at, uint32_t *len, uint8_t **write_at)
{
	struct ara_instance *in;
	struct ara_rtm *rtm;
	uint32_t core;

	*len = PROBE_READ_MAX;
	switch (which) {
	case PROBE_RTS: /* cenc.c's sessions: a slot (8 bytes), then the AES context */
		if (!(*at = ara_rts_state()->cenc))
			return ARA_E_NOENT; /* the App has opened no CENC session */
		break;
	case PROBE_RTM: /* the open segment's slots: the App's entries */
		if (!(rtm = ara_rtm_lock()))
			return ARA_E_NOMEM;
		*at = (uint8_t *)rtm->seg[rtm->active].slot;
		ara_rtm_unlock();
		break;
	case PROBE_PROVISION:
		if (!(in = ara_instance()))
			return ARA_E_NO_EVIDENCE;
		*at = in->sk;
		*len = sizeof(in->sk);
		break;
	case PROBE_CORE:
		/*
		 * The first module states' addresses; the word written is the
		 * core module's, which has no state: ara_module_state never
		 * reads it, so a write there breaks no later call.
		 */
		core = ara_module_index(&ara_core_module);
		if (core >= PROBE_READ_MAX / sizeof(void *))
			return ARA_E_INTERNAL;
		*at = (uint8_t *)ara_live->module_state;
		*write_at = (uint8_t *)&ara_live->module_state[core];
		return ARA_OK;
	case PROBE_COUNTER:
		*at = (uint8_t *)((struct counter_state *)ara_module_state(&counter_module))->value;
		break;
	case PROBE_OWN:
		*at = ara_module_state(&probe_module);
		break;
	default:
		return ARA_E_INVAL;
	}
	*write_at = *at;
	return ARA_OK;
}

static enum ara_status locate(void *arg)
{
	struct probe_locate_arg *a = arg;
	uint8_t *at, *write_at;
	enum ara_status st;

	if ((st = make_states()) != ARA_OK)
		return st;
	if ((st = find(a->which, &at, &a->len, &write_at)) != ARA_OK)
		return st;
	a->addr = (uint64_t)(uintptr_t)at;
	a->write_at = (uint64_t)(uintptr_t)write_at;
	a->digest = probe_digest(at, a->len);
	return ARA_OK;
}

ARA_SERVICE(svc_probe_locate, .fid = PROBE_FID_LOCATE, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct probe_locate_arg), .name = "probe_locate",
	    .module = &probe_locate_module, .handler = locate);
