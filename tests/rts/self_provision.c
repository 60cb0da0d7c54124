/* SPDX-License-Identifier: Apache-2.0 */
/* The App as its own provisioner (self_provision.h). */
#include "self_provision.h"

#include "ara/rts.h"
#include "cenc_sample.h"

#include <string.h>
#include <sys/random.h>

#include "ara/ara.h"
#include "ara/provision.h"
#include "binding.h"
#include "hpke.h"
#include "wire.h"

static int random_bytes(uint8_t *out, size_t len)
{
	return getrandom(out, len, 0) == (ssize_t)len ? 0 : -1;
}

int ara_test_self_provision_handle(const char *name, const uint8_t *secret, size_t len,
				   uint32_t *handle)
{
	static uint8_t attest[ARA_PROVISION_ATTEST_MAX];
	uint8_t nonce[ARA_WIRE_NONCE], challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	uint8_t info[ARA_HPKE_INFO_BYTES], ikm[32], sk_e[ARA_HPKE_NSK], enc[ARA_HPKE_NPK];
	uint8_t ct[ARA_WIRE_SECRET_MAX + ARA_HPKE_NT];
	uint8_t reply[ARA_WIRE_HEADER + ARA_WIRE_POINT + 2u + sizeof(ct)];
	struct ara_provision_begin_arg b = { 0 };
	struct ara_provision_finish_arg f = { 0 };
	struct ara_wire_attest a;
	struct ara_hpke_ctx ctx;
	size_t challenge_len, reply_len;
	int st;

	if (len > ARA_WIRE_SECRET_MAX || random_bytes(nonce, sizeof(nonce)) ||
	    ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &challenge_len))
		return -1;
	b.challenge = (uintptr_t)challenge;
	b.challenge_len = (uint32_t)challenge_len;
	b.name = (uintptr_t)name;
	b.name_len = (uint32_t)strlen(name);
	b.attest = (uintptr_t)attest;
	b.attest_cap = sizeof(attest);
	st = secure_call(ARA_FID_PROVISION_BEGIN, &b);
	if (st != ARA_OK)
		return st;
	if (ara_wire_decode_attest(attest, b.attest_len, &a) ||
	    ara_provision_hpke_info(challenge, challenge_len, attest, b.attest_len, info) ||
	    random_bytes(ikm, sizeof(ikm)) || ara_hpke_derive_keypair(ikm, sizeof(ikm), sk_e, enc) ||
	    ara_hpke_setup_base_s(a.share_pub, sk_e, info, sizeof(info), enc, &ctx))
		return -1;
	st = ara_hpke_seal(&ctx, (const uint8_t *)name, strlen(name), secret, len, ct);
	ara_hpke_ctx_wipe(&ctx);
	if (st || ara_wire_encode_deliver(enc, ct, len + ARA_HPKE_NT, 0, reply, sizeof(reply), &reply_len))
		return -1;
	f.reply = (uintptr_t)reply;
	f.reply_len = (uint32_t)reply_len;
	f.session = b.session;
	st = secure_call(ARA_FID_PROVISION_FINISH, &f);
	*handle = f.handle;
	return st;
}

int ara_test_self_provision(const char *name, const uint8_t *secret, size_t len)
{
	uint32_t handle;

	return ara_test_self_provision_handle(name, secret, len, &handle);
}

int ara_test_cenc_session(const uint8_t key_id[16], const uint8_t key[16], uint32_t *session)
{
	char name[ARA_CENC_KEY_NAME_BYTES + 1] = { 0 };
	struct ara_rts_cenc_open_arg o = { 0 };
	int st;

	ara_cenc_key_name(key_id, name);
	st = ara_test_self_provision(name, key, 16);
	if (st == ARA_OK) {
		memcpy(o.key_id, key_id, sizeof(o.key_id));
		st = secure_call(ARA_FID_RTS_CENC_OPEN, &o);
		*session = o.session;
	}
	return st;
}
