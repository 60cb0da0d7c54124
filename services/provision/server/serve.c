/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One provisioning session (serve.h). The peer is untrusted: its message is
 * read only after the header's length has been checked against the largest
 * message there is, reading stops at that length, and whatever goes wrong
 * ends in a REFUSE (when the peer can still take one), one log line, and
 * the connection closed by the caller. Nothing is released before every
 * check of check.c has passed.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "binding.h"
#include "check.h"
#include "hpke.h"
#include "serve.h"
#include "sockio.h"

struct session {
	int fd;
	unsigned long id;
	const char *peer;
	FILE *log;
	const struct ara_signing_key *key; /* NULL: DELIVERs go unsigned */
	struct timespec deadline; /* for the peer's message, whole (CLOCK_MONOTONIC) */
};

/* Milliseconds left before the session's deadline, or 0. */
static int ms_left(const struct session *s)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(s->deadline.tv_sec - now.tv_sec) * 1000 +
	     (s->deadline.tv_nsec - now.tv_nsec) / 1000000;
	return ms <= 0 ? 0 : ms > 1000000 ? 1000000 : (int)ms;
}

static int random_bytes(uint8_t *out, size_t n)
{
	while (n) {
		ssize_t got = getrandom(out, n, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		out += got;
		n -= (size_t)got;
	}
	return 0;
}

/*
 * Exactly n bytes before the session's deadline; the count read before
 * EOF, an error or the deadline otherwise. The deadline holds for the
 * whole message, so a peer that trickles bytes gains no time.
 */
static size_t recv_all(const struct session *s, uint8_t *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
		int left = ms_left(s), ready = left ? poll(&pfd, 1, left) : 0;
		ssize_t r;

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;
		r = recv(s->fd, p + got, n - got, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* What the peer is told: the reason's kind, not the policy's values. */
static const char *peer_text(int code)
{
	switch (code) {
	case ARA_REFUSE_MALFORMED: return "the message does not decode";
	case ARA_REFUSE_BACKEND: return "this evidence backend is not accepted";
	case ARA_REFUSE_EVIDENCE: return "the evidence does not verify";
	case ARA_REFUSE_MEASUREMENT: return "a measured digest is not the expected one";
	case ARA_REFUSE_STALE: return "the evidence is too old";
	case ARA_REFUSE_SESSION: return "the session signature does not verify";
	case ARA_REFUSE_SECRET: return "no such secret";
	default: return "the provisioner failed";
	}
}

/* Logs the refusal and tells the peer its kind, if the peer still listens. */
static int refuse(const struct session *s, int code, const char *why)
{
	uint8_t msg[ARA_WIRE_HEADER + 3 + ARA_WIRE_TEXT_MAX];
	size_t len;

	fprintf(s->log, "ara-provision: session %lu (%s): refused (%s): %s\n", s->id, s->peer,
		ara_refusal_name(code), why);
	fflush(s->log);
	if (ara_wire_encode_refuse((uint16_t)code, peer_text(code), msg, sizeof(msg), &len) ==
	    ARA_WIRE_OK)
		(void)ara_send_all(s->fd, msg, len);
	return code;
}

/*
 * The peer's ATTEST, into a buffer of the size its header announces (at
 * most the largest message); NULL after a refusal.
 */
static uint8_t *read_attest(const struct session *s, size_t *len)
{
	uint8_t header[ARA_WIRE_HEADER], type, *msg;
	size_t total, got;
	char why[160];
	int r;

	got = recv_all(s, header, sizeof(header));
	if (got < sizeof(header)) {
		snprintf(why, sizeof(why), "the peer sent %zu bytes and closed or timed out", got);
		refuse(s, ARA_REFUSE_MALFORMED, why);
		return NULL;
	}
	r = ara_wire_peek(header, sizeof(header), &type, &total);
	if (r == ARA_WIRE_OK && type != ARA_WIRE_ATTEST)
		r = ARA_WIRE_E_TYPE;
	if (r != ARA_WIRE_OK) {
		snprintf(why, sizeof(why), "bad header (%s)",
			 r == ARA_WIRE_E_MAGIC	 ? "not an ARA provisioning message" :
			 r == ARA_WIRE_E_VERSION ? "a wire version this provisioner does not speak" :
			 r == ARA_WIRE_E_TYPE	 ? "not an ATTEST" :
						   "flags set, or a body over the largest message");
		refuse(s, ARA_REFUSE_MALFORMED, why);
		return NULL;
	}
	msg = malloc(total);
	if (!msg) {
		refuse(s, ARA_REFUSE_INTERNAL, "out of memory");
		return NULL;
	}
	memcpy(msg, header, sizeof(header));
	got = recv_all(s, msg + sizeof(header), total - sizeof(header));
	if (got < total - sizeof(header)) {
		snprintf(why, sizeof(why),
			 "truncated ATTEST: %zu of %zu bytes, then the peer closed or missed the deadline",
			 got + sizeof(header), total);
		refuse(s, ARA_REFUSE_MALFORMED, why);
		free(msg);
		return NULL;
	}
	*len = total;
	return msg;
}

/* Seals the secret to the session's key share and sends the DELIVER. */
static int deliver(const struct session *s, const uint8_t *challenge, size_t challenge_len,
		   const uint8_t *attest, size_t attest_len, const struct ara_wire_attest *a,
		   const struct ara_policy_secret *secret)
{
	uint8_t ikm[32], sk_e[ARA_HPKE_NSK], enc[ARA_HPKE_NPK], info[ARA_HPKE_INFO_BYTES];
	uint8_t ct[ARA_WIRE_SECRET_MAX + ARA_HPKE_NT];
	uint8_t msg[ARA_WIRE_HEADER + ARA_WIRE_POINT + 2 + sizeof(ct) + ARA_WIRE_SIG];
	struct ara_hpke_ctx ctx;
	size_t len;
	int ok;

	memset(&ctx, 0, sizeof(ctx));
	ok = random_bytes(ikm, sizeof(ikm)) == 0 &&
	     ara_hpke_derive_keypair(ikm, sizeof(ikm), sk_e, enc) == 0 &&
	     ara_provision_hpke_info(challenge, challenge_len, attest, attest_len, info) == 0 &&
	     ara_hpke_setup_base_s(a->share_pub, sk_e, info, sizeof(info), enc, &ctx) == 0 &&
	     ara_hpke_seal(&ctx, a->name, a->name_len, secret->value, secret->len, ct) == 0 &&
	     ara_wire_encode_deliver(enc, ct, secret->len + ARA_HPKE_NT, s->key != NULL, msg,
				     sizeof(msg), &len) == ARA_WIRE_OK &&
	     (!s->key || ara_provision_sign_deliver(s->key->sk, info, msg, len) == 0);
	mbedtls_platform_zeroize(ikm, sizeof(ikm));
	mbedtls_platform_zeroize(sk_e, sizeof(sk_e));
	ara_hpke_ctx_wipe(&ctx);
	if (!ok)
		return refuse(s, ARA_REFUSE_INTERNAL, "sealing the secret failed");
	if (ara_send_all(s->fd, msg, len)) {
		fprintf(s->log, "ara-provision: session %lu (%s): the peer left before the DELIVER\n",
			s->id, s->peer);
		return ARA_REFUSE_INTERNAL;
	}
	fprintf(s->log,
		"ara-provision: session %lu (%s): delivered '%.*s' (%zu bytes) to instance "
		"%02x%02x%02x%02x..., app %02x%02x%02x%02x...\n",
		s->id, s->peer, (int)a->name_len, (const char *)a->name, secret->len,
		a->instance_pub[1], a->instance_pub[2], a->instance_pub[3], a->instance_pub[4],
		a->digests.app[0], a->digests.app[1], a->digests.app[2], a->digests.app[3]);
	fflush(s->log);
	return 0;
}

int ara_serve(int fd, const struct ara_policy *p, const struct ara_signing_key *key,
	      unsigned long id, const char *peer, FILE *log)
{
	struct session s = { fd, id, peer, log, key, { 0, 0 } };
	uint8_t nonce[ARA_WIRE_NONCE], challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	const struct ara_policy_secret *secret = NULL;
	struct ara_wire_attest a;
	size_t challenge_len, attest_len = 0;
	uint8_t *attest;
	char why[320];
	int r;

	if (random_bytes(nonce, sizeof(nonce)) ||
	    ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &challenge_len))
		return refuse(&s, ARA_REFUSE_INTERNAL, "no random nonce");
	if (ara_send_all(fd, challenge, challenge_len))
		return refuse(&s, ARA_REFUSE_MALFORMED, "the peer left before the CHALLENGE");
	clock_gettime(CLOCK_MONOTONIC, &s.deadline);
	s.deadline.tv_sec += ARA_SERVE_TIMEOUT;
	attest = read_attest(&s, &attest_len);
	if (!attest)
		return ARA_REFUSE_MALFORMED;
	r = ara_check_attest(p, challenge, challenge_len, attest, attest_len, (uint64_t)time(NULL),
			     &a, &secret, why, sizeof(why));
	if (r == 0)
		r = deliver(&s, challenge, challenge_len, attest, attest_len, &a, secret);
	else
		refuse(&s, r, why);
	free(attest);
	return r;
}
