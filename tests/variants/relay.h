/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay test services of the relay and relay-any-caller test variants
 * (relay_service_caller.c, relay_service_target.c), shared with the App
 * that drives them (tests/ara/domain_relay.c).
 *
 * RELAY (module "relay-caller", the extra domain, the App's to call) makes
 * ara_service_call(fid, bytes) from its domain and returns the status and
 * the bytes: a service asking the core for another service domain's
 * internal function. WHERE (module "relay-target", the RTS's domain,
 * internal, callers "relay-caller") answers with POR_EL0 as it runs and
 * tries a relay of its own, to PING (relay-caller's, internal, callers
 * "relay-target"), which the core must refuse: a relayed call is not
 * relayed further.
 */
#ifndef ARA_TEST_RELAY_H
#define ARA_TEST_RELAY_H

#include <stdint.h>

#include "ara/ara.h"

/* Functions 5 to 7 of the test module: gate slots 101 to 103 (probe.h has 2 to 4). */
#define RELAY_FID_RELAY ARA_FID(ARA_MODULE_TEST, 5) /* struct relay_arg, the App's */
#define RELAY_FID_WHERE ARA_FID(ARA_MODULE_TEST, 6) /* struct relay_where_arg, internal */
#define RELAY_FID_PING ARA_FID(ARA_MODULE_TEST, 7)  /* struct relay_where_arg, internal */

#define RELAY_BYTES 128u /* the largest argument relayed here: provisioning's SIGN's 96 */

struct relay_arg {
	uint32_t fid;  /* in: what RELAY calls */
	int32_t status; /* out: ara_service_call's */
	uint8_t bytes[RELAY_BYTES]; /* in/out: its argument */
};

struct relay_where_arg {
	uint64_t in;	 /* in */
	uint64_t out;	 /* out: ~in */
	uint64_t por;	 /* out: POR_EL0 while WHERE ran */
	int64_t nested; /* out: the status of WHERE's own relay to PING */
};

#endif
