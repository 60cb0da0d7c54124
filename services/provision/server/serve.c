/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One provisioning session's I/O (serve.h); the decision is decide.c's. The
 * peer is untrusted: its message is read only after the header's length has
 * been checked against the largest message there is, reading stops at that
 * length, and whatever goes wrong ends in a REFUSE (when the peer can still
 * take one), one log line, and the connection closed by the caller.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "decide.h"
#include "serve.h"
#include "sockio.h"

struct session {
	struct ara_decide_ctx ctx;
	int fd;
	unsigned long id;
	const char *peer;
	FILE *log;
	struct ara_decision d; /* the reply and the record */
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

/* Writes the session's record as one log line. */
static void log_record(const struct session *s)
{
	char line[768];

	ara_log_record_format(&s->d.record, line, sizeof(line));
	fprintf(s->log, "ara-provision: %s\n", line);
	fflush(s->log);
}

/* Keeps a record the I/O made (ara_decide keeps its own) in the audit log. */
static void audit_io(const struct session *s)
{
	char why[ARA_STORE_WHY_MAX + 64];

	if (ara_decide_audit(&s->ctx, &s->d.record, why, sizeof(why)))
		fprintf(s->log, "ara-provision: session %lu (%s): no audit record: %s\n", s->id,
			s->peer, why);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Logs the refusal and tells the peer its kind, if the peer still listens. */
static int refuse(struct session *s, int code, const char *why)
{
	struct ara_decide_peer peer = { s->id, s->peer, now_ms() };

	ara_decide_refuse(&peer, code, why, &s->d);
	audit_io(s);
	log_record(s);
	if (s->d.reply_len)
		(void)ara_send_all(s->fd, s->d.reply, s->d.reply_len);
	return code;
}

/*
 * The peer's ATTEST, into a buffer of the size its header announces (at
 * most the largest message); NULL after a refusal.
 */
static uint8_t *read_attest(struct session *s, size_t *len)
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
	if (r == ARA_WIRE_OK && type != ARA_WIRE_ATTEST && type != ARA_WIRE_REPORT)
		r = ARA_WIRE_E_TYPE;
	if (r != ARA_WIRE_OK) {
		snprintf(why, sizeof(why), "bad header (%s)",
			 r == ARA_WIRE_E_MAGIC	 ? "not an ARA provisioning message" :
			 r == ARA_WIRE_E_VERSION ? "a wire version this provisioner does not speak" :
			 r == ARA_WIRE_E_TYPE	 ? "not an ATTEST or a REPORT" :
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

int ara_serve(int fd, const struct ara_policy *p, const struct ara_decide_store *store,
	      const struct ara_report_ctx *reports, unsigned long id, const char *peer, FILE *log)
{
	static struct session s; /* large: the reply inline; one session at a time */
	uint8_t nonce[ARA_WIRE_NONCE], challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	size_t challenge_len, attest_len = 0;
	struct ara_decide_peer who;
	uint8_t *attest;
	int r;

	s = (struct session){ .ctx = { .policy = p, .reports = reports, .random = random_bytes,
				       .store = store },
			      .fd = fd, .id = id, .peer = peer,
			      .log = log };
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
	who = (struct ara_decide_peer){ id, peer, now_ms() };
	r = ara_decide(&s.ctx, &who, challenge, challenge_len, attest, attest_len, &s.d);
	free(attest);
	if (s.d.reply_len && ara_send_all(fd, s.d.reply, s.d.reply_len) && r == 0) {
		s.d.record.decision = ARA_DECISION_UNSENT;
		r = ARA_REFUSE_INTERNAL;
		audit_io(&s);
	}
	log_record(&s);
	return r;
}
