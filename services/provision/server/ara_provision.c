/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-provision: the provisioner. It releases a secret to an ARA instance
 * only after verifying the instance's platform evidence and its session
 * signature against a policy (docs/provisioning.md).
 *
 *   ara-provision --policy FILE [--unix PATH]... [--tcp HOST:PORT]...
 *                 [--sessions N] [--log FILE]
 *
 * It listens on every socket given (TCP port 0: one the kernel picks; the
 * "listening" line names it) and serves one session at a time, each with a
 * deadline for the peer's whole message (serve.h), so a peer that stalls
 * or trickles delays the others by at most that. --sessions N: exit after N sessions (for tests), with status 0.
 * Every session ends with one log line, a refusal with its reason.
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "policy.h"
#include "serve.h"

#define LISTENERS_MAX 8

struct listener {
	int fd;
	char name[128];
	char unix_path[108]; /* removed at exit; empty for TCP */
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ara-provision: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void listen_unix(struct listener *l, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sa.sun_path))
		die("--unix %s: path too long", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0 || bind(l->fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(l->fd, 16))
		die("--unix %s: cannot listen", path);
	snprintf(l->name, sizeof(l->name), "unix %s", path);
	memcpy(l->unix_path, sa.sun_path, sizeof(l->unix_path));
}

static void listen_tcp(struct listener *l, const char *spec)
{
	l->unix_path[0] = '\0';
	char host[64], port[16];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	struct sockaddr_storage bound;
	socklen_t bound_len = sizeof(bound);
	int one = 1;

	if (!colon || (size_t)(colon - spec) >= sizeof(host) || strlen(colon + 1) >= sizeof(port))
		die("--tcp %s: expected HOST:PORT with a numeric host", spec);
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	snprintf(port, sizeof(port), "%s", colon + 1);
	if (getaddrinfo(host, port, &hints, &ai))
		die("--tcp %s: not a numeric address and port", spec);
	l->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0 || setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l->fd, ai->ai_addr, ai->ai_addrlen) || listen(l->fd, 16) ||
	    getsockname(l->fd, (struct sockaddr *)&bound, &bound_len))
		die("--tcp %s: cannot listen", spec);
	freeaddrinfo(ai);
	if (getnameinfo((struct sockaddr *)&bound, bound_len, host, sizeof(host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
		die("--tcp %s: cannot name the bound address", spec);
	snprintf(l->name, sizeof(l->name), "tcp %s:%s", host, port);
}

/* Accepts one connection on l and serves it. */
static void serve_one(const struct listener *l, const struct ara_policy *p, unsigned long id,
		      FILE *log)
{
	struct timeval tv = { .tv_sec = ARA_SERVE_TIMEOUT };
	int fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0) {
		fprintf(log, "ara-provision: session %lu (%s): accept failed: %s\n", id, l->name,
			strerror(errno));
		return;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		fprintf(log, "ara-provision: session %lu (%s): no socket deadline: %s\n", id,
			l->name, strerror(errno));
	else
		ara_serve(fd, p, id, l->name, log);
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' }, { "unix", required_argument, NULL, 'u' },
		{ "tcp", required_argument, NULL, 't' },    { "sessions", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },    { NULL, 0, NULL, 0 },
	};
	struct listener l[LISTENERS_MAX];
	struct pollfd pfd[LISTENERS_MAX];
	static struct ara_policy policy; /* large: secrets inline */
	const char *policy_path = NULL;
	unsigned long sessions = 0, served = 0;
	size_t n = 0;
	FILE *log = stderr;
	char why[512], *end;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if ((c == 'u' || c == 't') && n == LISTENERS_MAX)
			die("at most %d listeners", LISTENERS_MAX);
		switch (c) {
		case 'p': policy_path = optarg; break;
		case 'u': listen_unix(&l[n++], optarg); break;
		case 't': listen_tcp(&l[n++], optarg); break;
		case 's':
			sessions = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || !optarg[0])
				die("--sessions %s: not a count", optarg);
			break;
		case 'l':
			if (!(log = fopen(optarg, "a")))
				die("--log %s: cannot open", optarg);
			break;
		default:
			die("%s", "usage: ara-provision --policy FILE [--unix PATH]... [--tcp HOST:PORT]... [--sessions N] [--log FILE]");
		}
	}
	if (!policy_path || n == 0 || optind != argc)
		die("%s", "usage: ara-provision --policy FILE [--unix PATH]... [--tcp HOST:PORT]... [--sessions N] [--log FILE]");
	/* The secrets are in this process from here on: no core dumps of it. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		die("prctl(PR_SET_DUMPABLE): %s", strerror(errno));
	if (ara_policy_load(policy_path, &policy, why, sizeof(why)))
		die("policy: %s", why);
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < n; i++) {
		fprintf(log, "ara-provision: listening on %s\n", l[i].name);
		pfd[i] = (struct pollfd){ .fd = l[i].fd, .events = POLLIN };
	}
	fflush(log);
	while (sessions == 0 || served < sessions) {
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		for (size_t i = 0; i < n && (sessions == 0 || served < sessions); i++)
			if (pfd[i].revents & POLLIN)
				serve_one(&l[i], &policy, ++served, log);
	}
	ara_policy_wipe(&policy);
	for (size_t i = 0; i < n; i++)
		if (l[i].unix_path[0])
			unlink(l[i].unix_path);
	return 0;
}
