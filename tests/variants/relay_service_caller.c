/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The relay's caller (relay.h), in the extra domain: RELAY asks the core
 * for any internal function the App names, as a compromised service could;
 * PING is what WHERE, relayed, tries to relay back.
 */
#include "ara/service.h"
#include "relay.h"

ARA_MODULE(relay_caller_module, .name = "relay-caller",
	   .callers = (const char *const[]){ "relay-target", NULL });

static enum ara_status relay(void *arg)
{
	struct relay_arg *a = arg;
	union {
		uint8_t bytes[ARA_SVC_ARG_MAX];
		uint64_t align;
	} buf;

	memset(buf.bytes, 0, sizeof(buf.bytes));
	memcpy(buf.bytes, a->bytes, sizeof(a->bytes));
	a->status = ara_service_call(a->fid, buf.bytes);
	memcpy(a->bytes, buf.bytes, sizeof(a->bytes));
	return ARA_OK;
}

static enum ara_status ping(void *arg)
{
	((struct relay_where_arg *)arg)->out = 1;
	return ARA_OK;
}

ARA_SERVICE(svc_relay, .fid = RELAY_FID_RELAY, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct relay_arg), .name = "relay", .module = &relay_caller_module,
	    .handler = relay);
ARA_SERVICE(svc_relay_ping, .fid = RELAY_FID_PING, .flags = ARA_SVC_INTERNAL,
	    .arg_size = sizeof(struct relay_where_arg), .name = "relay_ping",
	    .module = &relay_caller_module, .handler = ping);
