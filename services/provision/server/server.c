/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service (server.h). One I/O thread runs every connection as a small
 * state machine: CHALLENGE out, ATTEST in (bounded by its header, checked
 * before a byte of the body is taken), the decision on a worker (decide.h),
 * the reply out, one record in the log. No read or write blocks, and each
 * connection has a deadline, so a peer that stalls or trickles holds only
 * its own connection. The policy a decision reads is counted: a reload
 * swaps it for new sessions while the running ones finish with theirs.
 */
#define _GNU_SOURCE /* accept4, struct ucred */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "check.h"
#include "decide.h"
#include "listeners.h"
#include "notify.h"
#include "p256_pem.h"
#include "peers.h"
#include "record.h"
#include "report.h"
#include "server.h"
#include "workers.h"

/* epoll's data for what is not a connection (a connection's is its address). */
enum { TAG_SIGNAL = 1, TAG_DONE = 2, TAG_LISTENER = 16 /* + index */ };

struct policy_ref {
	struct ara_policy p;
	struct ara_signing_key key; /* read with the policy: a reload rotates it */
	int has_key;
	/*
	 * RTM reports (report.h) from the configuration's rtm-apps, rtm-root
	 * and ear-key, read with the policy too: a reload changes them, and a
	 * session deciding a REPORT keeps those it started with. Copies, as
	 * workers read them while the configuration is replaced.
	 */
	struct ara_report_ctx reports;
	int take_reports;
	char rtm_apps[PATH_MAX], rtm_root[PATH_MAX];
	struct ara_ear_key ear;
	unsigned refs; /* the server's, and each deciding session's: I/O thread only */
};

/* AUDITING: closed, its I/O record being written to the store by a worker. */
enum conn_state { CHALLENGING, READING, DECIDING, REPLYING, AUDITING };

struct conn {
	struct ara_job job; /* first: the worker's job is the connection */
	struct conn *prev, *next; /* by deadline, while not DECIDING */
	enum conn_state state;
	int fd;
	unsigned long id;
	char peer[128];
	char peer_key[ARA_PEER_KEY_MAX];
	uint64_t deadline; /* CLOCK_MONOTONIC ms */
	uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
	size_t challenge_len, sent;
	uint8_t header[ARA_WIRE_HEADER];
	uint8_t *attest; /* total bytes, the header's copy first */
	size_t total, got;
	struct policy_ref *policy; /* while DECIDING */
	const struct ara_decide_store *store; /* while DECIDING or AUDITING */
	const struct ara_report_ctx *reports; /* while DECIDING; NULL: REPORTs refused */
	int decided;		   /* d holds a record to log */
	int by_worker;		   /* ara_decide made it (and kept its audit record) */
	int audit_failed;	   /* AUDITING: the store refused the record, why in audit_why */
	int report;		   /* holds one of max-reports while its message is held */
	char audit_why[ARA_RECORD_LINE_MAX];
	struct ara_decision d;
};

struct server {
	const struct ara_server_options *o;
	struct ara_config cfg;
	struct policy_ref *policy;
	struct ara_decide_store store; /* the state (decide_store.h) */
	FILE *log;
	struct ara_listener listeners[2 * ARA_CONFIG_LISTENERS_MAX];
	size_t n_listeners;
	int epoll, signal_fd, done_fd;
	struct ara_workers *workers;
	struct ara_peers *peers;
	struct conn *head, *tail; /* the deadline list */
	size_t n_conns;
	uint64_t buffered;    /* ATTEST bytes held */
	unsigned reports_held; /* REPORTs held (max-reports) */
	unsigned long accepted; /* sessions, numbered from 1 */
	int stopping;	      /* SIGTERM: 1, and 2 at a second one */
	uint64_t stop_by;     /* CLOCK_MONOTONIC ms: reading sessions end then */
};

static uint64_t clock_ms(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void log_line(struct server *s, const char *line)
{
	fputs(line, s->log);
	fflush(s->log);
}

static void log_event(struct server *s, const char *event, const char *peer, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void log_event(struct server *s, const char *event, const char *peer, const char *fmt, ...)
{
	char detail[1024], line[ARA_RECORD_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	ara_event_json(clock_ms(CLOCK_REALTIME), event, peer, detail, line, sizeof(line));
	log_line(s, line);
}

static void policy_unref(struct policy_ref *p)
{
	if (p && --p->refs == 0) {
		ara_policy_wipe(&p->p);
		explicit_bzero(p->key.sk, sizeof(p->key.sk));
		ara_ear_key_wipe(&p->ear);
		free(p);
	}
}

/* The EAR's verifier build: "ara-provision VERSION". */
static const char *build_name(void)
{
	static char build[64];

	if (!build[0])
		snprintf(build, sizeof(build), "ara-provision %s", ara_cli_version);
	return build;
}

/*
 * The RTM reports' context from the configuration into p (report.h): 0, or
 * -1 with why ("rtm-... " or "ear-key ..."), *unreadable set if a file or
 * directory cannot be read.
 */
static int reports_load(const struct ara_config *c, struct policy_ref *p, char *why, size_t cap,
			int *unreadable)
{
	char msg[PATH_MAX + 256];
	struct stat st;

	if (!c->rtm_apps[0]) {
		if (!c->rtm_root[0] && !c->ear_key[0])
			return 0;
		snprintf(why, cap, "rtm-root and ear-key are for RTM reports: rtm-apps is needed");
		return -1;
	}
	if (stat(c->rtm_apps, &st) != 0) {
		*unreadable = 1;
		snprintf(why, cap, "rtm-apps %s: %s", c->rtm_apps, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, cap, "rtm-apps %s: not a directory", c->rtm_apps);
		return -1;
	}
	if (c->ear_key[0] && access(c->ear_key, R_OK) != 0) {
		*unreadable = 1;
		snprintf(why, cap, "ear-key %s: cannot open: %s", c->ear_key, strerror(errno));
		return -1;
	}
	if (c->ear_key[0] && ara_ear_key_load(c->ear_key, &p->ear, msg, sizeof(msg))) {
		snprintf(why, cap, "ear-key %s", msg);
		return -1;
	}
	memcpy(p->rtm_apps, c->rtm_apps, sizeof(p->rtm_apps));
	memcpy(p->rtm_root, c->rtm_root, sizeof(p->rtm_root));
	p->reports = (struct ara_report_ctx){ .apps = p->rtm_apps,
					      .root = p->rtm_root[0] ? p->rtm_root : NULL,
					      .ear = c->ear_key[0] ? &p->ear : NULL,
					      .build = build_name() };
	p->take_reports = 1;
	return 0;
}

/*
 * The configuration's policy, signing key and RTM reports' files, counted
 * once; NULL with why ("policy ...", "signing-key ...", "rtm-..." or
 * "ear-key ..."), and *unreadable set if a file cannot be read
 * (unreadable may be NULL).
 */
static struct policy_ref *policy_load(const struct ara_config *c, char *why, size_t cap,
				      int *unreadable)
{
	struct policy_ref *p = calloc(1, sizeof(*p));
	char msg[PATH_MAX + 256];
	int r;

	if (!p) {
		snprintf(why, cap, "out of memory");
		return NULL;
	}
	p->refs = 1;
	if ((r = ara_policy_load(c->policy, &p->p, msg, sizeof(msg))) != 0) {
		if (unreadable)
			*unreadable = r == ARA_POLICY_UNREADABLE;
		snprintf(why, cap, "policy %s", msg);
		policy_unref(p);
		return NULL;
	}
	p->has_key = c->signing_key[0] != '\0';
	if (p->has_key && access(c->signing_key, R_OK) != 0) {
		if (unreadable)
			*unreadable = 1;
		snprintf(why, cap, "signing-key %s: cannot open: %s", c->signing_key,
			 strerror(errno));
		policy_unref(p);
		return NULL;
	}
	if (p->has_key &&
	    ara_p256_read_secret(c->signing_key, p->key.sk, p->key.pk, msg, sizeof(msg))) {
		snprintf(why, cap, "signing-key %s", msg);
		policy_unref(p);
		return NULL;
	}
	if (reports_load(c, p, why, cap, unreadable ? unreadable : &(int){ 0 })) {
		policy_unref(p);
		return NULL;
	}
	return p;
}

/* The "reports" event: what REPORTs are verified with now. */
static void log_reports(struct server *s, const struct policy_ref *p)
{
	char ear[64] = "no EAR key";

	if (!p->take_reports) {
		log_event(s, "reports", NULL, "RTM reports refused (no rtm-apps)");
		return;
	}
	if (p->reports.ear)
		snprintf(ear, sizeof(ear), "EARs signed by key %02x%02x%02x%02x...", p->ear.pub[1],
			 p->ear.pub[2], p->ear.pub[3], p->ear.pub[4]);
	log_event(s, "reports", NULL, "RTM reports verified: App files in %s, other modules at %s, %s",
		  p->rtm_apps, p->rtm_root[0] ? p->rtm_root : "their own paths", ear);
}

/*
 * The policy file's state into the store (decide_store.h); its secrets are
 * then the store's, sealed, and no plaintext copy stays in the policy.
 */
static int import_policy(struct server *s, struct policy_ref *p, uint32_t *version, char *why,
			 size_t cap)
{
	int r = ara_decide_store_import(&s->store, &p->p, version, why, cap);

	ara_policy_wipe(&p->p);
	return r;
}

/* The deadline list, kept in order: new deadlines are mostly the latest. */
static void list_insert(struct server *s, struct conn *c)
{
	struct conn *after = s->tail;

	while (after && after->deadline > c->deadline)
		after = after->prev;
	c->prev = after;
	c->next = after ? after->next : s->head;
	if (c->next)
		c->next->prev = c;
	else
		s->tail = c;
	if (after)
		after->next = c;
	else
		s->head = c;
}

static void list_remove(struct server *s, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		s->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		s->tail = c->prev;
	c->prev = c->next = NULL;
}

/* op: EPOLL_CTL_MOD, or _ADD after a decision (a deciding connection is out of the set). */
static void watch(struct server *s, struct conn *c, int op, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	epoll_ctl(s->epoll, op, c->fd, &ev);
}

static void drop_attest(struct server *s, struct conn *c)
{
	if (c->attest) {
		s->buffered -= c->total;
		free(c->attest);
		c->attest = NULL;
	}
	if (c->report) {
		s->reports_held--;
		c->report = 0;
	}
}

/* On a worker: the audit record of a refusal the I/O made, or of an unsent DELIVER. */
static void audit_job(struct ara_job *job)
{
	struct conn *c = (struct conn *)job;

	c->audit_failed = ara_decide_audit(&(struct ara_decide_ctx){ .store = c->store },
					   &c->d.record, c->audit_why, sizeof(c->audit_why)) != 0;
}

/* The record logged and the connection freed: its last step. */
static void log_and_free(struct server *s, struct conn *c)
{
	char line[ARA_RECORD_LINE_MAX];

	if (c->audit_failed)
		log_event(s, "audit", c->peer, "session %lu: no audit record: %s", c->id,
			  c->audit_why);
	if (c->decided) {
		ara_record_json(&c->d.record, line, sizeof(line));
		log_line(s, line);
	}
	free(c);
	s->n_conns--; /* counted until its record is kept: a stop waits for it */
}

/*
 * Ends the connection: everything it held given back, then its record
 * logged. A record that ara_decide did not keep (the I/O's own refusals,
 * an unsent DELIVER) goes to the store first, on a worker: a database that
 * waits must not hold this thread, and with it every other session.
 */
static void finish(struct server *s, struct conn *c)
{
	if (c->state != DECIDING)
		list_remove(s, c);
	drop_attest(s, c);
	policy_unref(c->policy);
	c->policy = NULL;
	ara_peers_remove(s->peers, c->peer_key);
	close(c->fd); /* also leaves the epoll set */
	if (c->decided && (!c->by_worker || c->d.record.decision == ARA_DECISION_UNSENT)) {
		c->state = AUDITING;
		c->store = &s->store;
		c->job.run = audit_job;
		ara_workers_submit(s->workers, &c->job);
		return;
	}
	log_and_free(s, c);
}

/*
 * Sends what is left of buf: 1 all sent, 0 the socket is full (EPOLLOUT
 * then), -1 the peer is gone.
 */
static int send_some(struct conn *c, const uint8_t *buf, size_t len)
{
	while (c->sent < len) {
		ssize_t n = send(c->fd, buf + c->sent, len - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0)
			return -1;
		c->sent += (size_t)n;
	}
	return 1;
}

/* The reply as far as the socket takes it now; the connection ends when it is out. */
static void reply(struct server *s, struct conn *c)
{
	int r = c->d.reply_len ? send_some(c, c->d.reply, c->d.reply_len) : 1;

	if (r == 0)
		return;
	if (r < 0 && c->d.record.decision == ARA_DECISION_DELIVERED)
		c->d.record.decision = ARA_DECISION_UNSENT;
	finish(s, c);
}

/* Starts the reply of a decided (or refused) session: the deadline anew. */
static void start_reply(struct server *s, struct conn *c)
{
	c->state = REPLYING;
	c->sent = 0;
	c->deadline = clock_ms(CLOCK_MONOTONIC) + (uint64_t)s->cfg.deadline * 1000;
	list_insert(s, c);
	watch(s, c, EPOLL_CTL_ADD, EPOLLOUT);
	reply(s, c);
}

/* A refusal of the I/O's: one try at telling the peer, then the end. */
static void refuse(struct server *s, struct conn *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void refuse(struct server *s, struct conn *c, int code, const char *fmt, ...)
{
	struct ara_decide_peer who = { c->id, c->peer, clock_ms(CLOCK_REALTIME) };
	char why[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ara_decide_refuse(&who, code, why, &c->d);
	c->decided = 1;
	c->sent = 0;
	if (c->d.reply_len)
		(void)send_some(c, c->d.reply, c->d.reply_len);
	finish(s, c);
}

static void decide_job(struct ara_job *job)
{
	struct conn *c = (struct conn *)job;
	const struct ara_decide_ctx ctx = { .policy = &c->policy->p,
					    .random = ara_random,
					    .store = c->store,
					    .key = c->policy->has_key ? &c->policy->key : NULL,
					    .reports = c->reports };
	const struct ara_decide_peer who = { c->id, c->peer, clock_ms(CLOCK_REALTIME) };

	ara_decide(&ctx, &who, c->challenge, c->challenge_len, c->attest, c->total, &c->d);
}

/* The whole ATTEST is in: to a worker, with the policy of this moment. */
static void start_decision(struct server *s, struct conn *c)
{
	list_remove(s, c);
	c->state = DECIDING;
	/* Out of the set: a hang-up while it decides would wake the loop for nothing. */
	epoll_ctl(s->epoll, EPOLL_CTL_DEL, c->fd, NULL);
	c->policy = s->policy;
	c->policy->refs++;
	c->store = &s->store;
	c->reports = c->policy->take_reports ? &c->policy->reports : NULL;
	c->job.run = decide_job;
	ara_workers_submit(s->workers, &c->job);
}

/* The header is in: checked against the protocol and the limits. 0, or refused. */
static int take_header(struct server *s, struct conn *c)
{
	uint8_t type;
	int r = ara_wire_peek(c->header, sizeof(c->header), &type, &c->total);

	if (r == ARA_WIRE_OK && type != ARA_WIRE_ATTEST &&
	    !(type == ARA_WIRE_REPORT && s->policy->take_reports))
		r = ARA_WIRE_E_TYPE;
	if (r != ARA_WIRE_OK) {
		refuse(s, c, ARA_REFUSE_MALFORMED, "bad header (%s)",
		       r == ARA_WIRE_E_MAGIC   ? "not an ARA provisioning message" :
		       r == ARA_WIRE_E_VERSION ? "a wire version this provisioner does not speak" :
		       r == ARA_WIRE_E_TYPE    ? (s->policy->take_reports ? "not an ATTEST or a REPORT"
								       : "not an ATTEST") :
						 "flags set, or a body over the largest message");
		return -1;
	}
	/* A REPORT's own bound is the wire format's (it carries segments). */
	if (type != ARA_WIRE_REPORT && c->total > s->cfg.max_message) {
		refuse(s, c, ARA_REFUSE_MALFORMED, "an ATTEST of %zu bytes, over max-message %u",
		       c->total, s->cfg.max_message);
		return -1;
	}
	/* A few REPORTs at a time: each may reserve ~10.5 MiB of max-buffered. */
	if (type == ARA_WIRE_REPORT && s->reports_held >= s->cfg.max_reports) {
		refuse(s, c, ARA_REFUSE_INTERNAL, "limit: max-reports %u REPORTs held",
		       s->cfg.max_reports);
		return -1;
	}
	if (s->buffered + c->total > s->cfg.max_buffered) {
		refuse(s, c, ARA_REFUSE_INTERNAL,
		       "limit: max-buffered %llu bytes held; this ATTEST's %zu would pass it",
		       (unsigned long long)s->cfg.max_buffered, c->total);
		return -1;
	}
	c->attest = malloc(c->total);
	if (!c->attest) {
		refuse(s, c, ARA_REFUSE_INTERNAL, "out of memory");
		return -1;
	}
	s->buffered += c->total;
	if (type == ARA_WIRE_REPORT) {
		s->reports_held++;
		c->report = 1;
	}
	memcpy(c->attest, c->header, sizeof(c->header));
	return 0;
}

static void on_readable(struct server *s, struct conn *c)
{
	for (;;) {
		int in_header = c->got < sizeof(c->header);
		uint8_t *to = in_header ? c->header + c->got : c->attest + c->got;
		size_t want = (in_header ? sizeof(c->header) : c->total) - c->got;
		ssize_t n = recv(c->fd, to, want, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			if (in_header)
				refuse(s, c, ARA_REFUSE_MALFORMED,
				       "the peer sent %zu bytes and closed", c->got);
			else
				refuse(s, c, ARA_REFUSE_MALFORMED,
				       "truncated ATTEST: %zu of %zu bytes, then the peer closed",
				       c->got, c->total);
			return;
		}
		c->got += (size_t)n;
		if (c->got == sizeof(c->header) && take_header(s, c))
			return;
		if (c->got == c->total) {
			start_decision(s, c);
			return;
		}
	}
}

static void on_writable(struct server *s, struct conn *c)
{
	int r;

	if (c->state == REPLYING) {
		reply(s, c);
		return;
	}
	r = send_some(c, c->challenge, c->challenge_len); /* CHALLENGING */
	if (r < 0) {
		refuse(s, c, ARA_REFUSE_MALFORMED, "the peer left before the CHALLENGE");
	} else if (r > 0) {
		c->state = READING;
		watch(s, c, EPOLL_CTL_MOD, EPOLLIN | EPOLLRDHUP);
	}
}

/* Who is at the other end: its name for the log, its key for the limit. */
static void name_peer(struct conn *c, const struct ara_listener *l)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	char host[64] = "?", key_host[64] = "?";
	unsigned port = 0;

	if (getpeername(c->fd, (struct sockaddr *)&sa, &len) == 0 && sa.ss_family != AF_UNIX) {
		if (sa.ss_family == AF_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)&sa;

			inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
			memcpy(key_host, host, sizeof(key_host));
			port = ntohs(in->sin_port);
		} else if (sa.ss_family == AF_INET6) {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&sa;

			struct in6_addr net = in6->sin6_addr;

			inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
			/*
			 * The limit per peer is per /64: one host has a whole
			 * /64 of addresses to connect from (an IPv4 address
			 * mapped into IPv6 is one peer, as over IPv4).
			 */
			if (!IN6_IS_ADDR_V4MAPPED(&net))
				memset(net.s6_addr + 8, 0, 8);
			inet_ntop(AF_INET6, &net, key_host, sizeof(key_host));
			port = ntohs(in6->sin6_port);
		}
		snprintf(c->peer, sizeof(c->peer), "%s %s:%u", l->name, host, port);
		snprintf(c->peer_key, sizeof(c->peer_key), "ip %s", key_host);
		return;
	}
	{
		struct ucred cred = { 0, 0, 0 };
		socklen_t clen = sizeof(cred);

		getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen);
		snprintf(c->peer, sizeof(c->peer), "%s pid %d uid %u", l->name, (int)cred.pid,
			 (unsigned)cred.uid);
		snprintf(c->peer_key, sizeof(c->peer_key), "uid %u", (unsigned)cred.uid);
	}
}

/* Stops taking connections: the listeners closed, their socket files removed. */
static void close_listeners(struct server *s)
{
	for (size_t i = 0; i < s->n_listeners; i++)
		ara_listener_close(&s->listeners[i]);
}

/* One connection from l: 1, or 0 when there is none (or it failed). */
static int accept_one(struct server *s, struct ara_listener *l)
{
	struct epoll_event ev = { .events = EPOLLOUT };
	struct conn *c;
	unsigned from_peer;
	uint8_t nonce[ARA_WIRE_NONCE];
	int fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNABORTED)
			log_event(s, "error", l->name, "accept: %s", strerror(errno));
		return 0;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		log_event(s, "error", l->name, "out of memory for a connection");
		close(fd);
		return 0;
	}
	c->fd = fd;
	name_peer(c, l);
	from_peer = ara_peers_add(s->peers, c->peer_key);
	if (s->n_conns >= s->cfg.max_connections || from_peer == 0 ||
	    from_peer > s->cfg.max_per_peer) {
		log_event(s, "limit", c->peer, "connection closed: %s",
			  s->n_conns >= s->cfg.max_connections ? "max-connections reached" :
			  from_peer ? "max-per-peer reached for this peer" : "out of memory");
		if (from_peer)
			ara_peers_remove(s->peers, c->peer_key);
		close(fd);
		free(c);
		return 1;
	}
	s->n_conns++;
	c->id = ++s->accepted;
	c->state = CHALLENGING;
	c->deadline = clock_ms(CLOCK_MONOTONIC) + (uint64_t)s->cfg.deadline * 1000;
	list_insert(s, c);
	ev.data.ptr = c;
	if (s->o->sessions && s->accepted == s->o->sessions)
		close_listeners(s); /* the sessions asked for: no more */
	if (epoll_ctl(s->epoll, EPOLL_CTL_ADD, fd, &ev)) {
		refuse(s, c, ARA_REFUSE_INTERNAL, "epoll: %s", strerror(errno));
		return 1;
	}
	if (ara_random(nonce, sizeof(nonce)) ||
	    ara_wire_encode_challenge(nonce, c->challenge, sizeof(c->challenge),
				      &c->challenge_len)) {
		refuse(s, c, ARA_REFUSE_INTERNAL, "no random nonce");
		return 1;
	}
	on_writable(s, c);
	return 1;
}

/* What l's backlog holds, a batch at a time: the other events wait no longer. */
static void accept_some(struct server *s, struct ara_listener *l)
{
	for (int i = 0; i < 32 && l->fd >= 0 && accept_one(s, l); i++)
		;
}

/* Connections past their deadline (or the stop's) end with a refusal. */
static void expire(struct server *s)
{
	uint64_t now = clock_ms(CLOCK_MONOTONIC);
	struct conn *c, *next;

	for (c = s->head; c && c->deadline <= now; c = next) {
		next = c->next;
		if (c->state == REPLYING) {
			if (c->d.record.decision == ARA_DECISION_DELIVERED)
				c->d.record.decision = ARA_DECISION_UNSENT;
			finish(s, c);
		} else {
			refuse(s, c, ARA_REFUSE_MALFORMED,
			       "%s: %zu of %s bytes of the ATTEST in %u s",
			       "the deadline passed", c->got,
			       c->got >= sizeof(c->header) ? "its" : "the header's",
			       s->cfg.deadline);
		}
	}
	if (!s->stopping || s->stop_by > now)
		return;
	for (c = s->head; c; c = next) {
		next = c->next;
		if (c->state != REPLYING)
			refuse(s, c, ARA_REFUSE_INTERNAL, "the provisioner is stopping");
	}
}

/* Milliseconds epoll may wait: to the next deadline, or for ever. */
static int wait_ms(const struct server *s)
{
	uint64_t now = clock_ms(CLOCK_MONOTONIC), next = UINT64_MAX;

	if (s->head)
		next = s->head->deadline;
	if (s->stopping && s->head && s->stop_by < next)
		next = s->stop_by;
	if (next == UINT64_MAX)
		return -1;
	return next <= now ? 0 : next - now > 60000 ? 60000 : (int)(next - now);
}

static void stop(struct server *s)
{
	uint64_t now = clock_ms(CLOCK_MONOTONIC);

	if (s->stopping++) {
		s->stop_by = now; /* a second signal: now */
		return;
	}
	ara_notify("STOPPING=1");
	close_listeners(s);
	s->stop_by = now + (uint64_t)s->cfg.stop_grace * 1000;
	log_event(s, "stopping", NULL, "%zu sessions open; those still reading have %u s",
		  s->n_conns, s->cfg.stop_grace);
}

/* SIGHUP: the configuration and the policy anew; on any error, the old ones. */
static void reload(struct server *s)
{
	struct ara_config next;
	struct policy_ref *p;
	char why[PATH_MAX + 512], status[64];
	uint32_t version;
	FILE *log = NULL;

	snprintf(status, sizeof(status), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)clock_ms(CLOCK_MONOTONIC) * 1000);
	ara_notify(status);
	if (s->o->configure(s->o->arg, &next, why, sizeof(why))) {
		log_event(s, "reload", NULL, "refused, the running configuration kept: %s", why);
	} else if (!(p = policy_load(&next, why, sizeof(why), NULL))) {
		log_event(s, "reload", NULL, "refused, the running policy kept: %s", why);
	} else if (import_policy(s, p, &version, why, sizeof(why))) {
		log_event(s, "reload", NULL, "refused, the running policy kept: %s", why);
		policy_unref(p);
	} else if (next.log[0] && !(log = fopen(next.log, "a"))) {
		log_event(s, "reload", NULL, "refused, the running configuration kept: %s: %s",
			  next.log, strerror(errno));
		policy_unref(p);
	} else {
		if (next.n_listen != s->cfg.n_listen ||
		    memcmp(next.listen, s->cfg.listen, sizeof(next.listen)) ||
		    next.workers != s->cfg.workers || strcmp(next.store, s->cfg.store) ||
		    strcmp(next.kek, s->cfg.kek))
			log_event(s, "reload", NULL,
				  "listeners, workers, the store and the KEK change at a restart "
				  "only: kept");
		memcpy(next.store, s->cfg.store, sizeof(next.store));
		memcpy(next.kek, s->cfg.kek, sizeof(next.kek));
		memcpy(next.listen, s->cfg.listen, sizeof(next.listen));
		next.n_listen = s->cfg.n_listen;
		next.workers = s->cfg.workers;
		if (log || !next.log[0]) {
			if (s->log != stderr)
				fclose(s->log);
			s->log = log ? log : stderr;
		}
		policy_unref(s->policy);
		s->policy = p;
		s->cfg = next;
		log_event(s, "reload", NULL, "policy %s loaded: store policy version %u", next.policy,
			  version);
		log_reports(s, p);
	}
	ara_notify("READY=1");
}

static void on_signal(struct server *s)
{
	struct signalfd_siginfo si;

	while (read(s->signal_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP)
			reload(s);
		else
			stop(s);
	}
}

static void on_done(struct server *s)
{
	struct ara_job *job = ara_workers_done(s->workers), *next;

	for (; job; job = next) {
		struct conn *c = (struct conn *)job;

		next = job->next;
		if (c->state == AUDITING) {
			log_and_free(s, c);
			continue;
		}
		policy_unref(c->policy);
		c->policy = NULL;
		drop_attest(s, c);
		c->decided = 1;
		c->by_worker = 1;
		start_reply(s, c);
	}
}

static void on_connection(struct server *s, struct conn *c)
{
	if (c->state == READING)
		on_readable(s, c);
	else if (c->state != DECIDING)
		on_writable(s, c);
}

static void loop(struct server *s)
{
	struct epoll_event ev[64];

	while (!((s->stopping || (s->o->sessions && s->accepted == s->o->sessions)) &&
		 s->n_conns == 0)) {
		int n = epoll_wait(s->epoll, ev, 64, wait_ms(s));

		/* Connections first: each ends only itself; what follows may end several. */
		for (int i = 0; i < n; i++)
			if (ev[i].data.u64 >= TAG_LISTENER + 2 * ARA_CONFIG_LISTENERS_MAX)
				on_connection(s, ev[i].data.ptr);
		for (int i = 0; i < n; i++) {
			uint64_t tag = ev[i].data.u64;

			if (tag == TAG_SIGNAL)
				on_signal(s);
			else if (tag == TAG_DONE)
				on_done(s);
			else if (tag >= TAG_LISTENER && tag < TAG_LISTENER + s->n_listeners &&
				 s->listeners[tag - TAG_LISTENER].fd >= 0)
				accept_some(s, &s->listeners[tag - TAG_LISTENER]);
		}
		expire(s);
	}
}

static int start_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A failure before serving: one line on standard error; 3 (the caller may say 2). */
static int start_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ara_cli_prog());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ARA_SERVER_SYSTEM;
}

/* Listeners: systemd's, then the configuration's. 0, or the exit status. */
static int open_listeners(struct server *s)
{
	char why[PATH_MAX + 128];
	int n = ara_listen_inherited(s->listeners, ARA_CONFIG_LISTENERS_MAX, why, sizeof(why));

	if (n < 0)
		return start_fail("%s", why);
	s->n_listeners = (size_t)n;
	if (s->n_listeners + s->cfg.n_listen == 0) {
		start_fail("no listener: --unix or --tcp, a listen line, or systemd's sockets");
		return ARA_SERVER_CONFIG;
	}
	for (size_t i = 0; i < s->cfg.n_listen; i++) {
		if (ara_listen(&s->cfg.listen[i], &s->listeners[s->n_listeners], why, sizeof(why)))
			return start_fail("%s", why);
		s->n_listeners++;
	}
	return 0;
}

/* Signals as events (signalfd), the threads, epoll. 0, or the exit status. */
static int start_events(struct server *s)
{
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* Blocked before the workers start: they inherit it, the signalfd takes them. */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) ||
	    (s->signal_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		return start_fail("signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	s->workers =
		ara_workers_start(s->cfg.workers, ara_decide_store_warm, &s->store, &s->done_fd);
	if (!s->workers)
		return start_fail("cannot start %u worker threads: %s", s->cfg.workers,
				  strerror(errno));
	s->epoll = epoll_create1(EPOLL_CLOEXEC);
	s->peers = ara_peers_new();
	if (s->epoll < 0 || !s->peers)
		return start_fail("epoll: %s", strerror(errno));
	ev.data.u64 = TAG_SIGNAL;
	epoll_ctl(s->epoll, EPOLL_CTL_ADD, s->signal_fd, &ev);
	ev.data.u64 = TAG_DONE;
	epoll_ctl(s->epoll, EPOLL_CTL_ADD, s->done_fd, &ev);
	for (size_t i = 0; i < s->n_listeners; i++) {
		ev.data.u64 = TAG_LISTENER + i;
		if (epoll_ctl(s->epoll, EPOLL_CTL_ADD, s->listeners[i].fd, &ev))
			return start_fail("epoll: %s", strerror(errno));
	}
	return 0;
}

int ara_server_run(const struct ara_server_options *o)
{
	static struct server s; /* one service a process */
	char why[PATH_MAX + 512];
	uint32_t version = 0;
	int status, unreadable = 0;

	s = (struct server){ .o = o, .log = stderr, .epoll = -1, .signal_fd = -1, .done_fd = -1 };
	if ((status = o->configure(o->arg, &s.cfg, why, sizeof(why))) != 0) {
		start_fail("%s", why);
		return status == ARA_CONFIG_UNREADABLE ? ARA_SERVER_SYSTEM : ARA_SERVER_CONFIG;
	}
	if (!s.cfg.policy[0]) {
		start_fail("no policy: --policy or a policy line in the configuration");
		return ARA_SERVER_CONFIG;
	}
	s.policy = policy_load(&s.cfg, why, sizeof(why), &unreadable);
	if (!s.policy) {
		start_fail("%s", why);
		return unreadable ? ARA_SERVER_SYSTEM : ARA_SERVER_CONFIG;
	}
	status = open_listeners(&s);
	/* The state once the listeners are sure (their files go if it is refused). */
	if (!status && (ara_decide_store_open(&s.store, s.cfg.store, s.cfg.kek, why, sizeof(why)) ||
			import_policy(&s, s.policy, &version, why, sizeof(why))))
		status = start_fail("%s", why);
	if (!status && s.cfg.log[0] && !(s.log = fopen(s.cfg.log, "a"))) {
		status = start_fail("%s: cannot open the log: %s", s.cfg.log, strerror(errno));
		s.log = stderr;
	}
	if (!status)
		status = start_events(&s);
	if (!status) {
		char shown[sizeof(s.store.url)];

		ara_store_url_redacted(s.store.url, shown, sizeof(shown));
		log_event(&s, "store", NULL, "%s, policy version %u", shown, version);
		if (s.policy->has_key)
			log_event(&s, "signing", NULL, "DELIVERs signed with key %02x%02x%02x%02x%02x...",
				  s.policy->key.pk[0], s.policy->key.pk[1], s.policy->key.pk[2],
				  s.policy->key.pk[3], s.policy->key.pk[4]);
		log_reports(&s, s.policy);
		for (size_t i = 0; i < s.n_listeners; i++)
			log_event(&s, "listening", NULL, "%s", s.listeners[i].name);
		ara_notify("READY=1");
		loop(&s);
		log_event(&s, "stopped", NULL, "%lu sessions served", s.accepted);
	}
	if (s.workers)
		ara_workers_stop(s.workers);
	close_listeners(&s);
	ara_peers_free(s.peers);
	if (s.epoll >= 0)
		close(s.epoll);
	if (s.signal_fd >= 0)
		close(s.signal_fd);
	if (s.log != stderr)
		fclose(s.log);
	policy_unref(s.policy);
	ara_decide_store_release();
	mbedtls_platform_zeroize(&s.store, sizeof(s.store));
	return status;
}
