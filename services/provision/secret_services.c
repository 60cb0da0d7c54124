/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Services over provisioned secrets, by handle (ara/provision.h). The App
 * names a secret; DOM0 uses it and returns only what the service computes.
 * A secret is copied out of its slot for the computation and the copy is
 * wiped before the handler returns.
 */
#include <mbedtls/md.h>

#include "ara/service.h"
#include "instance.h"

#define HMAC_CHUNK 4096u

static enum ara_status info(void *arg)
{
	struct ara_secret_info_arg *a = arg;
	struct ara_instance *in = ara_instance();

	if (!in)
		return ARA_E_NO_EVIDENCE;
	if (ara_secret_describe(in, a->handle, (uint8_t *)a->name, &a->name_len, &a->length))
		return ARA_E_NOENT;
	return ARA_OK;
}

/* HMAC-SHA256 of App bytes, read a chunk at a time into DOM0. */
static enum ara_status hmac_app_bytes(const uint8_t *key, size_t key_len, uint64_t msg,
				      uint32_t msg_len, uint8_t mac[32])
{
	mbedtls_md_context_t md;
	uint8_t chunk[HMAC_CHUNK];
	enum ara_status st = ARA_OK;

	mbedtls_md_init(&md);
	if (mbedtls_md_setup(&md, mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), 1) ||
	    mbedtls_md_hmac_starts(&md, key, key_len))
		st = ARA_E_INTERNAL;
	for (uint32_t done = 0; st == ARA_OK && done < msg_len;) {
		uint32_t n = msg_len - done < HMAC_CHUNK ? msg_len - done : HMAC_CHUNK;

		st = ara_copy_from_app(chunk, msg + done, n);
		if (st == ARA_OK && mbedtls_md_hmac_update(&md, chunk, n))
			st = ARA_E_INTERNAL;
		done += n;
	}
	if (st == ARA_OK && mbedtls_md_hmac_finish(&md, mac))
		st = ARA_E_INTERNAL;
	mbedtls_md_free(&md); /* zeroizes the keyed state */
	return st;
}

static enum ara_status hmac(void *arg)
{
	struct ara_secret_hmac_arg *a = arg;
	struct ara_instance *in = ara_instance();
	uint8_t key[ARA_WIRE_SECRET_MAX];
	uint32_t key_len;
	enum ara_status st;

	if (!in)
		return ARA_E_NO_EVIDENCE;
	if (a->msg_len > ARA_SECRET_HMAC_MAX)
		return ARA_E_INVAL;
	if ((st = ara_secret_copy(in, a->handle, key, &key_len)) != ARA_OK)
		return st;
	st = hmac_app_bytes(key, key_len, a->msg, a->msg_len, a->mac);
	ara_memzero(key, sizeof(key));
	return st;
}

static enum ara_status destroy(void *arg)
{
	struct ara_secret_destroy_arg *a = arg;
	struct ara_instance *in = ara_instance();

	if (!in)
		return ARA_E_NO_EVIDENCE;
	return ara_secret_destroy(in, a->handle);
}

ARA_SERVICE(svc_secret_info, .fid = ARA_FID_SECRET_INFO, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_secret_info_arg), .name = "secret_info", .module = &ara_provision_module, .handler = info);
ARA_SERVICE(svc_secret_hmac, .fid = ARA_FID_SECRET_HMAC, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct ara_secret_hmac_arg), .name = "secret_hmac", .module = &ara_provision_module, .handler = hmac);
ARA_SERVICE(svc_secret_destroy, .fid = ARA_FID_SECRET_DESTROY, .flags = ARA_SVC_IN,
	    .arg_size = sizeof(struct ara_secret_destroy_arg), .name = "secret_destroy",
	    .module = &ara_provision_module, .handler = destroy);
