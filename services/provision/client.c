/* SPDX-License-Identifier: Apache-2.0 */
/* The App's side of provisioning (client.h). */
#include <stdlib.h>
#include <string.h>

#include "ara/provision_client.h"
#include "sockio.h"
#include "wire.h"

long ara_provision_recv(int fd, uint8_t *buf, unsigned long cap)
{
	uint8_t type;
	size_t total;

	if (cap < ARA_WIRE_HEADER || ara_recv_exact(fd, buf, ARA_WIRE_HEADER) ||
	    ara_wire_peek(buf, ARA_WIRE_HEADER, &type, &total) != ARA_WIRE_OK || total > cap ||
	    ara_recv_exact(fd, buf + ARA_WIRE_HEADER, total - ARA_WIRE_HEADER))
		return -1;
	return (long)total;
}

static void describe(const uint8_t *reply, size_t len, struct ara_provision_refusal *out)
{
	struct ara_wire_refuse f;

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (ara_wire_decode_refuse(reply, len, &f) == ARA_WIRE_OK) {
		out->code = f.code;
		memcpy(out->text, f.text, f.text_len);
	}
}

int ara_provision_fetch(int fd, const char *name, uint32_t *handle,
			struct ara_provision_refusal *refusal)
{
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE], reply[ARA_WIRE_DELIVER_MAX];
	struct ara_provision_begin_arg b = { 0 };
	struct ara_provision_finish_arg f = { 0 };
	uint8_t *attest;
	long len;
	int st;

	len = ara_provision_recv(fd, challenge, sizeof(challenge));
	if (len < 0)
		return ARA_E_BADMSG;
	attest = malloc(ARA_PROVISION_ATTEST_MAX);
	if (!attest)
		return ARA_E_NOMEM;
	b.challenge = (uintptr_t)challenge;
	b.challenge_len = (uint32_t)len;
	b.name = (uintptr_t)name;
	b.name_len = (uint32_t)strlen(name);
	b.attest = (uintptr_t)attest;
	b.attest_cap = ARA_PROVISION_ATTEST_MAX;
	st = secure_call(ARA_FID_PROVISION_BEGIN, &b);
	if (st != ARA_OK) {
		free(attest);
		return st;
	}
	/* Unsent, the session still ends in ARA: FINISH with no reply below. */
	len = ara_send_all(fd, attest, b.attest_len) ? -1 : ara_provision_recv(fd, reply, sizeof(reply));
	free(attest);
	f.session = b.session;
	f.reply = (uintptr_t)reply;
	f.reply_len = len < 0 ? 0 : (uint32_t)len;
	/* FINISH even without a good reply: it ends the session in ARA. */
	st = secure_call(ARA_FID_PROVISION_FINISH, &f);
	if (len < 0 && st == ARA_E_BADMSG)
		return ARA_E_BADMSG;
	if (st == ARA_E_REFUSED)
		describe(reply, (size_t)len, refusal);
	if (st == ARA_OK)
		*handle = f.handle;
	return st;
}
