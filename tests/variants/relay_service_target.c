/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay's target (relay.h), in the RTS's domain: WHERE, which only
 * relay-caller may reach from another service domain.
 */
#include "ara/service.h"
#include "relay.h"

ARA_MODULE(relay_target_module, .name = "relay-target",
	   .callers = (const char *const[]){ "relay-caller", NULL });

static enum ara_status where(void *arg)
{
	struct relay_where_arg *a = arg;
	struct relay_where_arg nested = { .in = 0 };

	__asm__ volatile("mrs %0, S3_3_C10_C2_4" : "=r"(a->por));
	a->out = ~a->in;
	a->nested = ara_service_call(RELAY_FID_PING, &nested);
	return ARA_OK;
}

ARA_SERVICE(svc_relay_where, .fid = RELAY_FID_WHERE, .flags = ARA_SVC_INTERNAL,
	    .arg_size = sizeof(struct relay_where_arg), .name = "relay_where",
	    .module = &relay_target_module, .handler = where);
