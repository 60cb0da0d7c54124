/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The load generator's event loop (load.h): one thread, non-blocking
 * sockets on one epoll set, so that the generator's own cost is small,
 * one process's CPU time, and measured apart from the server's. Each
 * connection runs the session's state machine: connect, read the
 * CHALLENGE, send what its kind sends, read the reply.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "load.h"

#define CHALLENGE_LEN (ARA_WIRE_HEADER + ARA_WIRE_NONCE)

enum conn_state { C_FREE, C_CONNECTING, C_CHALLENGE, C_SENDING, C_REPLY, C_HOLD };

struct conn {
	int fd;
	enum conn_state state;
	enum load_kind kind;
	int background; /* a stalled or slow connection, held all run */
	uint64_t seq;
	struct load_device *device;
	double start;	  /* when the session was due (latency from here) */
	double began;	  /* when it connected */
	double challenged, sent, deadline, next_byte;
	uint8_t challenge[CHALLENGE_LEN];
	uint8_t in[LOAD_REPLY_MAX];
	size_t in_len, in_want;
	uint8_t own[LOAD_ATTEST_MAX]; /* this session's ATTEST */
	const uint8_t *out;	      /* what is sent: own, the replayed or the oversized */
	size_t out_len, out_off;
	struct load_session s;
};

struct loop {
	const struct load_plan *plan;
	struct load_result *res;
	int ep;
	struct conn *conns;
	size_t n_conns; /* concurrency foreground slots, then the background */
	uint64_t started;
	double t0, last_end, held_sum;
	uint64_t held_n;
	int stopping;
	uint8_t *oversized; /* a header announcing the largest body, and that body */
	size_t oversized_len;
};

double load_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int push_latency(struct load_latency *l, double ms)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4096;
		double *p = realloc(l->ms, cap * sizeof(*p));

		if (!p)
			return -1;
		l->ms = p;
		l->cap = cap;
	}
	l->ms[l->n++] = ms;
	return 0;
}

/* When session seq is due: at once in a closed loop, at its turn with --rate. */
static double due(const struct loop *L, uint64_t seq)
{
	return L->plan->rate ? L->t0 + (double)seq / L->plan->rate : 0;
}

static int may_start(const struct loop *L)
{
	const struct load_plan *p = L->plan;
	double now = load_now();

	return !L->stopping && (p->sessions == 0 || L->started < p->sessions) &&
	       (p->duration == 0 || now - L->t0 < p->duration) && due(L, L->started) <= now;
}

/* Sessions not started yet that a run still owes (with --rate, until the end). */
static int more_to_start(const struct loop *L)
{
	const struct load_plan *p = L->plan;

	return !L->stopping && (p->sessions == 0 || L->started < p->sessions) &&
	       (p->duration == 0 || load_now() - L->t0 < p->duration);
}

/* The kind of foreground session seq: the fault percentages spread over every 100. */
static enum load_kind kind_of(const struct load_plan *p, uint64_t seq)
{
	unsigned slot = (unsigned)(seq * 37 % 100), at = 0;

	for (int k = LOAD_MALFORMED; k <= LOAD_REPLAY; k++) {
		at += p->pct[k];
		if (slot < at)
			return (enum load_kind)k;
	}
	return LOAD_GENUINE;
}

static void watch(struct loop *L, struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.u32 = (uint32_t)(c - L->conns) };

	epoll_ctl(L->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Closes c and counts how it ended; refill() starts the next in its slot. */
static void end(struct loop *L, struct conn *c, enum load_end how)
{
	double now = load_now();

	close(c->fd);
	load_session_wipe(&c->s);
	c->state = C_FREE;
	L->last_end = now;
	if (c->background) {
		L->res->background_drops[c->kind]++;
		L->held_sum += now - c->start;
		L->held_n++;
		return;
	}
	L->res->ends[c->kind][how]++;
}

/*
 * Each device its own loopback address (127.1.0.1 on; any 127/8 address is
 * the host's), as devices have their own: a server's limits per peer
 * apply per device, and each device has its own ephemeral ports.
 */
static int bind_source(int fd, size_t device)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	sa.sin_addr.s_addr = htonl(0x7f010001u + (uint32_t)(device % 0xfd0000u));
	return bind(fd, (const struct sockaddr *)&sa, sizeof(sa));
}

static void start(struct loop *L, struct conn *c)
{
	const struct load_plan *p = L->plan;
	struct epoll_event ev = { .events = EPOLLOUT, .data.u32 = (uint32_t)(c - L->conns) };
	int one = 1;

	c->start = c->began = load_now();
	if (!c->background) {
		c->seq = L->started++;
		c->kind = kind_of(p, c->seq);
		/* Latency from when the session was due, not when a slot was
		 * free: a server that falls behind is not excused by the wait. */
		if (p->rate)
			c->start = due(L, c->seq);
	} else {
		c->seq++;
	}
	c->deadline = c->background ? 0 : c->start + p->timeout;
	c->device = &p->devices[c->seq % p->n_devices];
	c->in_len = 0;
	c->in_want = ARA_WIRE_HEADER;
	c->state = C_CONNECTING;
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		c->fd = -1;
		fprintf(stderr, "ara-loadgen: socket: %s\n", strerror(errno));
		L->stopping = 1;
		c->state = C_FREE;
		return;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	epoll_ctl(L->ep, EPOLL_CTL_ADD, c->fd, &ev);
	if (bind_source(c->fd, (size_t)(c->device - p->devices)))
		end(L, c, END_CONNECT);
	else if (connect(c->fd, (const struct sockaddr *)&p->targets[c->seq % p->n_targets],
		    sizeof(p->targets[0])) && errno != EINPROGRESS)
		end(L, c, END_CONNECT);
}

/* 1: the message in c->in is whole; 0: more to come; -1: closed or failed; -2: not ours. */
static int read_msg(struct conn *c)
{
	while (c->in_len < c->in_want) {
		ssize_t r = recv(c->fd, c->in + c->in_len, c->in_want - c->in_len, 0);
		uint8_t type;
		size_t total;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		if (r <= 0)
			return -1;
		c->in_len += (size_t)r;
		if (c->in_len == ARA_WIRE_HEADER && c->in_want == ARA_WIRE_HEADER) {
			if (ara_wire_peek(c->in, ARA_WIRE_HEADER, &type, &total) != ARA_WIRE_OK ||
			    total > sizeof(c->in))
				return -2;
			c->in_want = total;
		}
	}
	return 1;
}

/* What c sends after the CHALLENGE; 0, or -1 if the device failed. */
static int prepare(struct loop *L, struct conn *c)
{
	const struct load_plan *p = L->plan;
	uint64_t wall = (uint64_t)time(NULL);

	switch (c->kind) {
	case LOAD_REPLAY:
		c->out = p->replay;
		c->out_len = p->replay_len;
		return 0;
	case LOAD_OVERSIZED:
		/* Odd: the largest body, whole, for the server to read and refuse;
		 * even: a header announcing one byte more, refused as it is read. */
		c->out = L->oversized;
		c->out_len = c->seq & 1 ? L->oversized_len : ARA_WIRE_HEADER;
		if (!(c->seq & 1)) {
			memcpy(c->own, L->oversized, ARA_WIRE_HEADER);
			c->own[11]++;
			c->out = c->own;
		}
		return 0;
	case LOAD_STALL:
		return 0;
	default:
		break;
	}
	if (wall - c->device->issued_at >= p->max_age / 2 &&
	    load_device_init(c->device, &c->device->digests,
			     c->device->backend == ARA_EVIDENCE_TPM ? p->tpm : NULL, wall))
		return -1;
	if (load_device_attest(c->device, &c->s, c->challenge, CHALLENGE_LEN, p->name, c->own,
			       &c->out_len))
		return -1;
	if (c->kind == LOAD_MALFORMED)
		c->own[c->out_len - 1] ^= 1; /* the signature's last byte */
	c->out = c->own;
	return 0;
}

static void got_reply(struct loop *L, struct conn *c)
{
	struct load_result *res = L->res;
	struct ara_wire_refuse refuse;
	uint8_t secret[ARA_WIRE_SECRET_MAX];
	size_t secret_len;
	double now = load_now();

	if (ara_wire_decode_refuse(c->in, c->in_len, &refuse) == ARA_WIRE_OK) {
		res->refusal_codes[c->kind][refuse.code < 16 ? refuse.code : 0]++;
		end(L, c, END_REFUSED);
		return;
	}
	if (c->kind != LOAD_GENUINE && c->kind != LOAD_SLOW) {
		/* Whatever it holds, a DELIVER to a faulty session is a release. */
		end(L, c, ara_wire_decode_deliver(c->in, c->in_len, &(struct ara_wire_deliver){ 0 }) ==
					  ARA_WIRE_OK ?
				  END_DELIVERED :
				  END_PROTOCOL);
		return;
	}
	if (load_device_open(&c->s, L->plan->name, c->in, c->in_len, secret, &secret_len) ||
	    secret_len != L->plan->secret_len ||
	    memcmp(secret, L->plan->secret, secret_len) != 0) {
		end(L, c, ara_wire_decode_deliver(c->in, c->in_len, &(struct ara_wire_deliver){ 0 }) ==
					  ARA_WIRE_OK ?
				  END_WRONG_SECRET :
				  END_PROTOCOL);
		return;
	}
	if (push_latency(&res->total, (now - c->start) * 1e3) ||
	    push_latency(&res->server, (c->challenged - c->began + now - c->sent) * 1e3)) {
		fprintf(stderr, "ara-loadgen: out of memory for the latencies\n");
		L->stopping = 1;
	}
	if (!res->recorded_len) {
		memcpy(res->recorded_attest, c->own, c->out_len);
		res->recorded_len = c->out_len;
	}
	end(L, c, END_DELIVERED);
}

/* Sends what the socket takes of c->out (one byte per interval for a slow client). */
static void send_some(struct loop *L, struct conn *c)
{
	size_t n = c->out_len - c->out_off;
	ssize_t r;

	if (c->kind == LOAD_SLOW) {
		if (load_now() < c->next_byte)
			return;
		n = 1;
		c->next_byte = load_now() + L->plan->slow_interval;
	}
	r = send(c->fd, c->out + c->out_off, n, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r < 0) {
		/* The server may have refused before the rest: its reply is the answer. */
		c->state = C_REPLY;
		c->in_len = 0;
		c->in_want = ARA_WIRE_HEADER;
		if (read_msg(c) == 1)
			got_reply(L, c);
		else
			end(L, c, END_CLOSED);
		return;
	}
	c->out_off += (size_t)r;
	if (c->out_off == c->out_len) {
		c->sent = load_now();
		c->state = C_REPLY;
		c->in_len = 0;
		c->in_want = ARA_WIRE_HEADER;
		watch(L, c, EPOLLIN);
	}
}

static void got_challenge(struct loop *L, struct conn *c)
{
	const uint8_t *nonce;

	c->challenged = load_now();
	if (c->in_len != CHALLENGE_LEN ||
	    ara_wire_decode_challenge(c->in, c->in_len, &nonce) != ARA_WIRE_OK) {
		end(L, c, END_PROTOCOL);
		return;
	}
	memcpy(c->challenge, c->in, CHALLENGE_LEN);
	if (prepare(L, c)) {
		fprintf(stderr, "ara-loadgen: the device could not make its ATTEST\n");
		L->stopping = 1;
		end(L, c, END_PROTOCOL);
		return;
	}
	c->in_len = 0;
	c->in_want = ARA_WIRE_HEADER;
	c->out_off = 0;
	if (c->kind == LOAD_STALL) {
		c->state = C_HOLD; /* until the server ends it */
		watch(L, c, EPOLLIN);
		return;
	}
	c->state = C_SENDING;
	c->next_byte = 0;
	/* A slow client also listens, to see the server give up on it. */
	watch(L, c, c->kind == LOAD_SLOW ? EPOLLIN : EPOLLOUT);
	send_some(L, c);
}

static void on_event(struct loop *L, struct conn *c, uint32_t events)
{
	int err = 0, r;
	socklen_t len = sizeof(err);

	switch (c->state) {
	case C_CONNECTING:
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
			end(L, c, END_CONNECT);
			return;
		}
		c->state = C_CHALLENGE;
		watch(L, c, EPOLLIN);
		return;
	case C_SENDING:
		if (!(events & EPOLLIN)) {
			send_some(L, c);
			return;
		}
		/* fall through: the server spoke before the ATTEST was whole */
		c->state = C_REPLY;
		c->in_len = 0;
		c->in_want = ARA_WIRE_HEADER;
		/* fall through */
	case C_CHALLENGE:
	case C_REPLY:
	case C_HOLD:
		r = read_msg(c);
		if (r == 0)
			return;
		if (r < 0) {
			end(L, c, r == -1 ? END_CLOSED : END_PROTOCOL);
			return;
		}
		if (c->state == C_CHALLENGE)
			got_challenge(L, c);
		else
			got_reply(L, c);
		return;
	case C_FREE:
		return;
	}
}

/* Deadlines and slow clients' next bytes; the stop once the run is over. */
static void sweep(struct loop *L)
{
	double now = load_now();

	for (size_t i = 0; i < L->n_conns; i++) {
		struct conn *c = &L->conns[i];

		if (c->state == C_FREE)
			continue;
		if (c->deadline && now >= c->deadline)
			end(L, c, END_TIMEOUT);
		else if (c->kind == LOAD_SLOW && c->state == C_SENDING)
			send_some(L, c);
	}
}

/* Starts a connection in every free slot that may have one. */
static void refill(struct loop *L)
{
	for (size_t i = 0; i < L->n_conns; i++) {
		struct conn *c = &L->conns[i];

		if (c->state == C_FREE && (c->background ? !L->stopping : may_start(L)))
			start(L, c);
	}
}

static int foreground_active(const struct loop *L)
{
	for (size_t i = 0; i < L->plan->concurrency; i++)
		if (L->conns[i].state != C_FREE)
			return 1;
	return 0;
}

static int make_oversized(struct loop *L)
{
	L->oversized_len = ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX;
	L->oversized = calloc(1, L->oversized_len);
	if (!L->oversized)
		return -1;
	memcpy(L->oversized, ARA_WIRE_MAGIC, 4);
	L->oversized[4] = ARA_WIRE_VERSION;
	L->oversized[5] = ARA_WIRE_ATTEST;
	for (int i = 0; i < 4; i++)
		L->oversized[8 + i] = (uint8_t)(ARA_WIRE_BODY_MAX >> (24 - 8 * i));
	return 0;
}

int load_run(const struct load_plan *plan, struct load_result *res)
{
	struct loop L = { .plan = plan, .res = res };
	struct epoll_event ev[64];

	L.n_conns = plan->concurrency + plan->stalled + plan->slow;
	L.conns = calloc(L.n_conns, sizeof(*L.conns));
	L.ep = epoll_create1(EPOLL_CLOEXEC);
	if (!L.conns || L.ep < 0 || make_oversized(&L)) {
		fprintf(stderr, "ara-loadgen: cannot set up the loop: %s\n", strerror(errno));
		free(L.conns);
		return -1;
	}
	L.t0 = L.last_end = load_now();
	for (size_t i = plan->concurrency; i < L.n_conns; i++) {
		L.conns[i].background = 1;
		L.conns[i].kind = i < plan->concurrency + plan->stalled ? LOAD_STALL : LOAD_SLOW;
	}
	for (;;) {
		int n;

		refill(&L);
		if (!foreground_active(&L) && !more_to_start(&L))
			break;
		n = epoll_wait(L.ep, ev, 64, plan->rate ? 1 : 10);

		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "ara-loadgen: epoll_wait: %s\n", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++)
			on_event(&L, &L.conns[ev[i].data.u32], ev[i].events);
		sweep(&L);
	}
	L.stopping = 1;
	for (size_t i = 0; i < L.n_conns; i++)
		if (L.conns[i].state != C_FREE) {
			close(L.conns[i].fd);
			load_session_wipe(&L.conns[i].s);
		}
	res->wall = L.last_end - L.t0;
	res->background_held = L.held_n ? L.held_sum / (double)L.held_n : 0;
	close(L.ep);
	free(L.conns);
	free(L.oversized);
	return 0;
}
