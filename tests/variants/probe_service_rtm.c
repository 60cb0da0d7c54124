/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe (probe_service.c) built for the RTM's domain, in the rtm-probe
 * test variants (ARA_MODULE_DOMAIN, set per file by
 * tests/variants/CMakeLists.txt): a bug in the RTM's own code, which must
 * reach the RTM's log and no other module's memory, the RTS's content keys
 * least of all.
 *
 * SIGN is the RTM's other reach: provisioning names the RTM's domain among
 * its callers, and signs what that domain asks. SIGN asks for a digest the
 * App chose, as a compromised RTM can without it (another of its threads
 * rewrites the digest the RTM hashed before the core copies the relay's
 * argument). tests/provision (rtm-oracle) has the App use it on a
 * session's hash.
 */
#include "probe_service.c"
#include "provision_calls.h"

_Static_assert(sizeof(((struct probe_sign_arg *)0)->sig) ==
		       sizeof(((struct ara_provision_sign_arg *)0)->sig) &&
		       sizeof(((struct probe_sign_arg *)0)->digest) ==
			       sizeof(((struct ara_provision_sign_arg *)0)->digest),
	       "SIGN's argument is provisioning's");

static enum ara_status probe_sign(void *arg)
{
	struct probe_sign_arg *a = arg;
	struct ara_provision_sign_arg s;
	enum ara_status st;

	memcpy(s.digest, a->digest, sizeof(s.digest));
	st = ara_service_call(ARA_FID_PROVISION_SIGN, &s);
	memcpy(a->sig, s.sig, sizeof(a->sig));
	return st;
}

ARA_SERVICE(svc_probe_sign, .fid = PROBE_FID_SIGN, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct probe_sign_arg), .name = "probe_sign", .module = &probe_module,
	    .handler = probe_sign);
