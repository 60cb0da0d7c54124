/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Provisioning's internal functions (provision_calls.h): the instance
 * key's public half and its signatures for the RTM, each over a labelled
 * hash of the digest asked for (ara_provision_module_hash), never over a
 * session's. The instance key itself never leaves this module.
 */
#include "ara/service.h"
#include "instance.h"
#include "p256.h"
#include "provision_calls.h"

_Static_assert(sizeof(((struct ara_provision_instance_arg *)0)->pub) == ARA_HPKE_NPK, "the public key");
_Static_assert(sizeof(((struct ara_provision_sign_arg *)0)->sig) == ARA_P256_SIG, "the signature");

static enum ara_status instance(void *arg)
{
	struct ara_provision_instance_arg *a = arg;
	struct ara_instance *in = ara_instance();

	if (!in)
		return ARA_E_NO_EVIDENCE;
	memcpy(a->pub, in->pub, sizeof(a->pub));
	return ARA_OK;
}

static enum ara_status sign(void *arg)
{
	struct ara_provision_sign_arg *a = arg;
	struct ara_instance *in = ara_instance();
	uint8_t hash[32];

	if (!in)
		return ARA_E_NO_EVIDENCE;
#ifdef ARA_TEST_VARIANT_SIGN_UNLABELLED
	/* Test-only (tests/variants): the caller's digest signed as it is. */
	memcpy(hash, a->digest, sizeof(hash));
#else
	if (ara_provision_module_hash(a->digest, hash))
		return ARA_E_INTERNAL;
#endif
	return ara_p256_sign(in->sk, hash, a->sig) ? ARA_E_INTERNAL : ARA_OK;
}

ARA_SERVICE(svc_provision_instance, .fid = ARA_FID_PROVISION_INSTANCE, .flags = ARA_SVC_INTERNAL,
	    .arg_size = sizeof(struct ara_provision_instance_arg), .name = "provision_instance",
	    .module = &ara_provision_module, .handler = instance);
ARA_SERVICE(svc_provision_sign, .fid = ARA_FID_PROVISION_SIGN, .flags = ARA_SVC_INTERNAL,
	    .arg_size = sizeof(struct ara_provision_sign_arg), .name = "provision_sign",
	    .module = &ara_provision_module, .handler = sign);
