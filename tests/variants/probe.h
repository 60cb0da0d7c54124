/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe services of the domain-probe and one-domain test variants
 * (probe_service.c, probe_service_locate.c): their function IDs and
 * arguments, shared with the App that drives them (tests/ara/attack_domains.c).
 *
 * LOCATE (module "probe-locate", the core's domain) names a target: where
 * a region of it lies, a word of it a WRITE may change, and a digest of its
 * bytes as the core reads them. READ and WRITE (module "probe", the extra
 * domain) are the deliberate bug: they read or write any address, unchecked.
 * Only a protection domain per module stops them. LANE asks the core for
 * the gate's append lane, which only the core's check stops.
 */
#ifndef ARA_TEST_PROBE_H
#define ARA_TEST_PROBE_H

#include <stdint.h>

#include "ara/ara.h"

/*
 * Functions 2 to 4 of the test module: the gate's slots 98 to 100
 * (ara/gate.h), which no service of a module m with m % 4 == 3 uses (the
 * double-fetch service has function 1, the counter's take 16 and 17).
 */
#define PROBE_FID_LOCATE ARA_FID(ARA_MODULE_TEST, 2) /* struct probe_locate_arg */
#define PROBE_FID_READ ARA_FID(ARA_MODULE_TEST, 3)   /* struct probe_read_arg */
#define PROBE_FID_WRITE ARA_FID(ARA_MODULE_TEST, 4)  /* struct probe_write_arg */
/* Function 8 (slot 104): the RTM's domain's probe only (probe_service_rtm.c). */
#define PROBE_FID_SIGN ARA_FID(ARA_MODULE_TEST, 8) /* struct probe_sign_arg */
#define PROBE_FID_LANE ARA_FID(ARA_MODULE_TEST, 9) /* struct probe_lane_arg */

#define PROBE_READ_MAX 64u /* bytes one READ copies, and a region's most */

enum probe_target {
	PROBE_RTS,	 /* the first CENC session: its slot, then its AES key schedule */
	PROBE_RTM,	 /* the first entries of the RTM's open log segment */
	PROBE_PROVISION, /* the instance key (HPKE private key, which signs RTM reports) */
	PROBE_CORE,	 /* the core's per-process page: every module's state address */
	PROBE_COUNTER,	 /* the counter module's state: the first counters' values */
	PROBE_OWN,	 /* the probe module's own state */
	PROBE_TARGETS
};

struct probe_locate_arg {
	uint32_t which;	   /* in: enum probe_target */
	uint32_t len;	   /* out: the region's bytes, 1..PROBE_READ_MAX */
	uint64_t addr;	   /* out: the region's start */
	uint64_t write_at; /* out: a word of the region whose change breaks no later call */
	uint64_t digest;   /* out: FNV-1a (64-bit) of the region's bytes */
};

struct probe_read_arg {
	uint64_t addr; /* in */
	uint32_t len;  /* in: at most PROBE_READ_MAX */
	uint32_t reserved;
	uint8_t out[PROBE_READ_MAX]; /* out: the len bytes at addr */
};

struct probe_write_arg {
	uint64_t addr;	/* in */
	uint64_t value; /* in: stored at addr */
};

/*
 * LANE: ara_append_lane_set (ara/service.h) of the App's address, or of a
 * fresh zeroed segment on the probe's domain's heap (fresh), whose
 * address comes back. The core checks the request; a refusal ends the
 * process.
 */
#define PROBE_LANE_BYTES (64u + 0x20000u * 8u) /* a segment: the fill word's 64 bytes, the slots */

struct probe_lane_arg {
	uint64_t addr;	/* in, or out with fresh */
	uint32_t fresh; /* in: 1, a segment of the probe's own */
	uint32_t reserved;
};

/* SIGN: provisioning's SIGN (provision_calls.h) of the App's digest. */
struct probe_sign_arg {
	uint8_t digest[32]; /* in */
	uint8_t sig[64];    /* out: r || s */
};

/* FNV-1a, 64-bit: LOCATE's digest, and the App's of what READ returned. */
static inline uint64_t probe_digest(const uint8_t *p, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

#endif
