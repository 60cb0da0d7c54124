/* SPDX-License-Identifier: Apache-2.0 */
/* The App's side of provisioning (ara/provision_client.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ara/provision_client.h"
#include "read_whole.h"
#include "sockio.h"
#include "wire.h"

_Static_assert(ARA_RTM_EAR_MAX == ARA_WIRE_TOKEN_MAX, "a VERDICT's EAR fits the App's buffer");

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

/* The ATTEST for challenge (the instance key, bound to the measured App), malloc'd. */
static int attest_for(const uint8_t *challenge, size_t challenge_len, uint8_t **attest,
		      uint32_t *len)
{
	static const char name[] = "ara-rtm"; /* a REPORT asks for no secret */
	struct ara_provision_begin_arg b = { .challenge = (uintptr_t)challenge,
					     .challenge_len = (uint32_t)challenge_len,
					     .name = (uintptr_t)name,
					     .name_len = sizeof(name) - 1,
					     .attest_cap = ARA_PROVISION_ATTEST_MAX };
	struct ara_provision_finish_arg f = { 0 };
	int st;

	*attest = malloc(ARA_PROVISION_ATTEST_MAX);
	if (!*attest)
		return ARA_E_NOMEM;
	b.attest = (uintptr_t)*attest;
	st = secure_call(ARA_FID_PROVISION_BEGIN, &b);
	if (st != ARA_OK) {
		free(*attest);
		*attest = NULL;
		return st;
	}
	*len = b.attest_len;
	/* No DELIVER will come: the session ends now rather than hold a slot. */
	f.session = b.session;
	(void)secure_call(ARA_FID_PROVISION_FINISH, &f);
	return ARA_OK;
}

/* The REPORT of these parts, malloc'd. */
static int report_message(const uint8_t *attest, uint32_t attest_len, const uint8_t *doc,
			  uint32_t doc_len, const uint8_t *segments, size_t segments_len,
			  uint8_t **msg, size_t *len)
{
	struct ara_wire_report r = { attest, attest_len, doc, doc_len, segments, segments_len };
	size_t cap = ARA_WIRE_HEADER + 12 + attest_len + doc_len + segments_len;

	*msg = malloc(cap);
	if (!*msg)
		return ARA_E_NOMEM;
	if (ara_wire_encode_report(&r, *msg, cap, len) != ARA_WIRE_OK) {
		free(*msg);
		return ARA_E_INVAL; /* a part over the wire format's bounds */
	}
	return ARA_OK;
}

/* The service's reply: a VERDICT into *verdict (ARA_OK), a REFUSE, or not a message. */
static int read_verdict(int fd, struct ara_rtm_verdict *verdict,
			struct ara_provision_refusal *refusal)
{
	uint8_t reply[ARA_WIRE_HEADER + 6 + ARA_WIRE_TEXT_MAX + ARA_WIRE_TOKEN_MAX];
	struct ara_wire_verdict_msg v;
	uint8_t type;
	size_t total;
	long len = ara_provision_recv(fd, reply, sizeof(reply));

	if (len < 0 || ara_wire_peek(reply, (size_t)len, &type, &total) != ARA_WIRE_OK)
		return ARA_E_BADMSG;
	if (type == ARA_WIRE_REFUSE) {
		struct ara_wire_refuse f;

		if (ara_wire_decode_refuse(reply, (size_t)len, &f) != ARA_WIRE_OK)
			return ARA_E_BADMSG;
		describe(reply, (size_t)len, refusal);
		return ARA_E_REFUSED;
	}
	if (ara_wire_decode_verdict(reply, (size_t)len, &v) != ARA_WIRE_OK)
		return ARA_E_BADMSG;
	memset(verdict, 0, sizeof(*verdict));
	verdict->accepted = v.verdict == ARA_WIRE_VERDICT_ACCEPTED;
	memcpy(verdict->text, v.text, v.text_len);
	memcpy(verdict->ear, v.token, v.token_len);
	return ARA_OK;
}

int ara_rtm_submit(int fd, ara_rtm_report_fn make_report, const char *segments_path,
		   struct ara_rtm_verdict *verdict, struct ara_provision_refusal *refusal)
{
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE], *doc = NULL, *attest = NULL,
		*segments = NULL, *msg = NULL;
	const uint8_t *nonce;
	uint32_t doc_len = 0, attest_len = 0;
	size_t segments_len = 0, msg_len = 0;
	long len = ara_provision_recv(fd, challenge, sizeof(challenge));
	int st;

	if (len < 0 || ara_wire_decode_challenge(challenge, (size_t)len, &nonce) != ARA_WIRE_OK)
		return ARA_E_BADMSG;
	doc = malloc(ARA_RTM_REPORT_MAX);
	st = doc ? make_report(nonce, doc, ARA_RTM_REPORT_MAX, &doc_len) : ARA_E_NOMEM;
	if (st == ARA_OK)
		st = attest_for(challenge, (size_t)len, &attest, &attest_len);
	/* The runtime makes the file at the first export: none yet, none sealed. */
	if (st == ARA_OK && segments_path && *segments_path &&
	    ara_read_whole(segments_path, ARA_WIRE_REPORT_SEGMENTS_MAX, &segments, &segments_len) &&
	    errno != ENOENT)
		st = errno == ENOMEM ? ARA_E_NOMEM : ARA_E_INVAL;
	if (st == ARA_OK)
		st = report_message(attest, attest_len, doc, doc_len, segments, segments_len, &msg,
				    &msg_len);
	free(doc);
	free(attest);
	free(segments);
	if (st != ARA_OK)
		return st;
	st = ara_send_all(fd, msg, msg_len) ? ARA_E_BADMSG : read_verdict(fd, verdict, refusal);
	free(msg);
	return st;
}
