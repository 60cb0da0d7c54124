/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hand-over of content keys from provisioning to the RTS
 * (docs/provisioning.md, "Secrets for the other services"): a "cenc-" key
 * the App provisions to its own instance opens a CENC session, yet its
 * handle keys no HMAC (provisioning kept no copy); a second key under the
 * same name replaces the first in the RTS, whose handle then holds
 * nothing; SECRET_DESTROY withdraws the key from the RTS; a forked child
 * holds none; a key too long for the RTS is refused by FINISH; a secret no
 * module takes stays provisioning's, usable by HMAC, whatever its size
 * (up to the wire's 1024 bytes). Run with
 * ARA_EVIDENCE=dev-insecure.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/provision.h"
#include "ara/rts.h"
#include "cenc_sample.h"
#include "check.h"
#include "self_provision.h"

static const uint8_t key_id[16] = "handover-key-id";
static const uint8_t key1[16] = "handover-key-1!!";
static const uint8_t key2[16] = "handover-key-2!!";
static char name[ARA_CENC_KEY_NAME_BYTES + 1];

/* RTS_CENC_OPEN on key_id, then the keystream of one block (a zero sample): ARA_OK or why not. */
static int keystream(uint8_t out[16])
{
	static const uint8_t zeros[16];
	struct ara_rts_cenc_open_arg o = { 0 };
	struct ara_rts_cenc_decrypt_arg d = { .in_len = 16, .out_cap = 16, .iv_len = 16 };
	struct ara_rts_cenc_close_arg c = { 0 };
	int st;

	memcpy(o.key_id, key_id, sizeof(o.key_id));
	if ((st = secure_call(ARA_FID_RTS_CENC_OPEN, &o)) != ARA_OK)
		return st;
	d.in = (uintptr_t)zeros;
	d.out = (uintptr_t)out;
	d.session = c.session = o.session;
	st = secure_call(ARA_FID_RTS_CENC_DECRYPT, &d);
	if (secure_call(ARA_FID_RTS_CENC_CLOSE, &c) != ARA_OK)
		check(0, "RTS_CENC_CLOSE");
	return st;
}

static int hmac(uint32_t handle)
{
	static const char msg[] = "handover";
	struct ara_secret_hmac_arg h = { .msg = (uintptr_t)msg, .msg_len = sizeof(msg) - 1,
					 .handle = handle };

	return secure_call(ARA_FID_SECRET_HMAC, &h);
}

int main(void)
{
	struct ara_secret_info_arg info = { 0 };
	uint8_t ks1[16], ks2[16], again[16], long_key[65] = { 1 }, long_secret[1000] = { 2 };
	uint32_t h1 = 0, h2 = 0, own = 0, h = 0;
	int st, status;
	pid_t pid;

	ara_cenc_key_name(key_id, name);
	st = ara_test_self_provision_handle(name, key1, sizeof(key1), &h1);
	check(st == ARA_OK, "provisioning %s: %s", name, ara_strerror(st));
	st = keystream(ks1);
	check(st == ARA_OK, "a session on the handed key: %s", ara_strerror(st));
	info.handle = h1;
	st = secure_call(ARA_FID_SECRET_INFO, &info);
	check(st == ARA_OK && info.length == 16 && info.name_len == strlen(name) &&
		      memcmp(info.name, name, info.name_len) == 0,
	      "SECRET_INFO on the handed key: %s", ara_strerror(st));
	st = hmac(h1);
	check(st == ARA_E_SECURITY, "SECRET_HMAC on the handed key: %s, not ARA_E_SECURITY",
	      ara_strerror(st));

	st = ara_test_self_provision_handle("app-own", key1, sizeof(key1), &own);
	check(st == ARA_OK && hmac(own) == ARA_OK, "a secret no module takes: not provisioning's to use");
	/* The hand-over's 64-byte bound is for handed secrets alone. */
	st = ara_test_self_provision_handle("app-long", long_secret, sizeof(long_secret), &own);
	check(st == ARA_OK && hmac(own) == ARA_OK, "a %zu-byte secret no module takes: %s",
	      sizeof(long_secret), ara_strerror(st));

	st = ara_test_self_provision_handle(name, key2, sizeof(key2), &h2);
	check(st == ARA_OK, "the second key under %s: %s", name, ara_strerror(st));
	st = keystream(ks2);
	check(st == ARA_OK && memcmp(ks1, ks2, sizeof(ks1)) != 0,
	      "the second key did not replace the first in the RTS: %s", ara_strerror(st));
	info.handle = h1;
	st = secure_call(ARA_FID_SECRET_INFO, &info);
	check(st == ARA_E_NOENT, "the replaced key's handle: %s, not ARA_E_NOENT", ara_strerror(st));

	pid = fork();
	if (pid == 0)
		_exit(keystream(again) == ARA_E_NOENT ? 0 : 1);
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "a forked child opened a session on its parent's handed key");

	struct ara_secret_destroy_arg d = { .handle = h2 };
	st = secure_call(ARA_FID_SECRET_DESTROY, &d);
	check(st == ARA_OK, "SECRET_DESTROY on the handed key: %s", ara_strerror(st));
	st = keystream(again);
	check(st == ARA_E_NOENT, "a session after SECRET_DESTROY: %s, not ARA_E_NOENT",
	      ara_strerror(st));

	st = ara_test_self_provision_handle(name, key1, sizeof(key1), &h);
	check(st == ARA_OK && keystream(again) == ARA_OK && memcmp(again, ks1, sizeof(ks1)) == 0,
	      "the first key provisioned again: not the first keystream");
	st = ara_test_self_provision_handle("kid-too-long", long_key, sizeof(long_key), &h);
	check(st == ARA_E_INVAL, "a 65-byte content key: %s, not ARA_E_INVAL", ara_strerror(st));

	return check_report("hand-over");
}
