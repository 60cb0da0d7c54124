/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-provision: the provisioner. It releases a secret to an ARA instance
 * only after verifying the instance's platform evidence and its session
 * signature against a policy (docs/provisioning.md; its command line in
 * docs/man/ara-provision.1).
 *
 * It listens on every socket given (TCP port 0: one the kernel picks; the
 * "listening" line names it) and serves one session at a time, each with a
 * deadline for the peer's whole message (serve.h), so a peer that stalls
 * or trickles delays the others by at most that. --sessions N: exit after
 * N sessions (for tests), with status 0. Every session ends with one log
 * line, a refusal with its reason.
 *
 * The policy is loaded before anything is created: a bad policy leaves no
 * socket file and no log behind.
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
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

#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "decide_store.h"
#include "ear.h"
#include "policy.h"
#include "serve.h"

#define LISTENERS_MAX 8

static const char usage_text[] =
	"usage: ara-provision --policy FILE (--unix PATH | --tcp HOST:PORT)...\n"
	"                     [--store URL] [--kek FILE] [--sessions N] [--log FILE]\n"
	"                     [--rtm-apps DIR [--rtm-root DIR] [--ear-key FILE]]\n"
	"Serve provisioning sessions: release a secret to an ARA instance whose\n"
	"evidence passes the policy.\n"
	"\n"
	"  --policy FILE       the policy (docs/provisioning.md; ara-policy writes one)\n"
	"  --unix PATH         listen on a Unix socket at PATH (removed at exit)\n"
	"  --tcp HOST:PORT     listen on a numeric address; port 0: the kernel picks\n"
	"  --store URL         the state: sqlite:PATH (default: sqlite:DIR/store.db,\n"
	"                      created on first start; DIR in ara-provision(1))\n"
	"  --kek FILE          the key that seals the store's secrets (default:\n"
	"                      DIR/kek, created on first start)\n"
	"  --sessions N        exit 0 after N sessions (default: serve for ever)\n"
	"  --log FILE          append the log to FILE (default: stderr)\n"
	"  --rtm-apps DIR      verify RTM reports: the App files, each named by its\n"
	"                      SHA-256 in hex (docs/provisioning.md, \"RTM reports\")\n"
	"  --rtm-root DIR      read the reports' other modules under DIR\n"
	"  --ear-key FILE      sign each report's verdict as an EAR with this P-256\n"
	"                      key (docs/ear.md)\n"
	"  -h, --help          print this help and exit 0\n"
	"  -V, --version       print the version and exit 0\n"
	"\n"
	"At most 8 listeners. Exit status: 0 the N sessions served, 2 usage error\n"
	"or a policy that cannot be read or parsed, 3 a socket, the log, the store\n"
	"or the KEK cannot be opened.\n";

/* 2 also for a policy that cannot be read or parsed. */
enum ara_provision_exit { EXIT_SERVED = ARA_CLI_OK, EXIT_USAGE = ARA_CLI_USAGE, EXIT_SYSTEM = 3 };

struct listener {
	int fd;
	char name[128];
	char unix_path[108]; /* removed at exit; empty for TCP */
};

/* The listeners made so far: their socket files go when the program does. */
static struct listener listeners[LISTENERS_MAX];
static size_t nlisteners;

static void remove_socket_files(void)
{
	for (size_t i = 0; i < nlisteners; i++)
		if (listeners[i].unix_path[0])
			unlink(listeners[i].unix_path);
}

/* A failure once sockets may exist: the message, no socket files left, exit. */
static noreturn void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static noreturn void die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ara_cli_prog());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	remove_socket_files();
	exit(status);
}

static void listen_unix(struct listener *l, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memcpy(sa.sun_path, path, strlen(path) + 1); /* its length checked with the options */
	l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0 || bind(l->fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(EXIT_SYSTEM, "%s: cannot listen: %s", path, strerror(errno));
	memcpy(l->unix_path, sa.sun_path, sizeof(l->unix_path));
	nlisteners++; /* bound: its file is ours to remove */
	if (listen(l->fd, 16))
		die(EXIT_SYSTEM, "%s: cannot listen: %s", path, strerror(errno));
	snprintf(l->name, sizeof(l->name), "unix %s", path);
}

/* The numeric HOST:PORT spec as an address to bind; NULL if it is not one. */
static struct addrinfo *tcp_address(const char *spec)
{
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	char host[64], port[16];

	if (!colon || (size_t)(colon - spec) >= sizeof(host) || strlen(colon + 1) >= sizeof(port))
		return NULL;
	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	snprintf(port, sizeof(port), "%s", colon + 1);
	return getaddrinfo(host, port, &hints, &ai) ? NULL : ai;
}

static void listen_tcp(struct listener *l, const char *spec, const struct addrinfo *ai)
{
	char host[64], port[16];
	struct sockaddr_storage bound;
	socklen_t bound_len = sizeof(bound);
	int one = 1;

	l->unix_path[0] = '\0';
	l->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0 || setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l->fd, ai->ai_addr, ai->ai_addrlen) || listen(l->fd, 16) ||
	    getsockname(l->fd, (struct sockaddr *)&bound, &bound_len))
		die(EXIT_SYSTEM, "%s: cannot listen: %s", spec, strerror(errno));
	if (getnameinfo((struct sockaddr *)&bound, bound_len, host, sizeof(host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
		die(EXIT_SYSTEM, "%s: cannot name the bound address", spec);
	snprintf(l->name, sizeof(l->name), "tcp %s:%s", host, port);
	nlisteners++;
}

/* Accepts one connection on l and serves it. */
static void serve_one(const struct listener *l, const struct ara_policy *p,
		      const struct ara_decide_store *store, const struct ara_report_ctx *reports,
		      unsigned long id, FILE *log)
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
		ara_serve(fd, p, store, reports, id, l->name, log);
	close(fd);
}

/* What the command line asks for; nothing is opened while it is read. */
struct options {
	const char *policy, *log, *store, *kek, *rtm_apps, *rtm_root, *ear_key;
	const char *listen[LISTENERS_MAX]; /* each --unix PATH or --tcp HOST:PORT */
	struct addrinfo *tcp[LISTENERS_MAX]; /* --tcp's address; NULL for --unix */
	size_t nlisten;
	uint64_t sessions; /* 0: for ever */
};

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' }, { "unix", required_argument, NULL, 'u' },
		{ "tcp", required_argument, NULL, 't' },    { "sessions", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },    { "store", required_argument, NULL, 'S' },
		{ "kek", required_argument, NULL, 'k' },    { "rtm-apps", required_argument, NULL, 'a' },
		{ "rtm-root", required_argument, NULL, 'r' }, { "ear-key", required_argument, NULL, 'e' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'l': o->log = optarg; break;
		case 'a': o->rtm_apps = optarg; break;
		case 'r': o->rtm_root = optarg; break;
		case 'e': o->ear_key = optarg; break;
		case 'S': o->store = optarg; break;
		case 'k': o->kek = optarg; break;
		case 'u':
		case 't':
			if (o->nlisten == LISTENERS_MAX)
				ara_usage_error("at most %d listeners", LISTENERS_MAX);
			if (c == 'u' && strlen(optarg) >= sizeof(((struct sockaddr_un *)0)->sun_path))
				ara_usage_error("--unix %s: path too long", optarg);
			if (c == 't' && !(o->tcp[o->nlisten] = tcp_address(optarg)))
				ara_usage_error("--tcp %s: expected HOST:PORT, a numeric address and port",
						optarg);
			o->listen[o->nlisten++] = optarg;
			break;
		case 's': o->sessions = ara_cli_number("--sessions", optarg, 1, UINT32_MAX); break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind != argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->policy || o->nlisten == 0)
		ara_usage_error("--policy and at least one --unix or --tcp are needed");
	if (!o->rtm_apps && (o->rtm_root || o->ear_key))
		ara_usage_error("--rtm-root and --ear-key are for RTM reports: --rtm-apps is needed");
}

/*
 * The store (--store, or the default SQLite file) and the KEK (--kek, or
 * the state directory's, created on first start), and the policy file put
 * into the store: the service decides by the store's newest policy.
 */
static uint32_t open_store(const struct options *o, const struct ara_policy *p,
			   struct ara_decide_store *st)
{
	static char url[4200], kek[4200];
	char dir[4096], why[512], host[32] = "";
	uint32_t version;

	if (o->kek) {
		if (ara_kek_load(o->kek, st->kek, why, sizeof(why)))
			die(EXIT_SYSTEM, "%s", why);
	} else {
		if (ara_store_state_dir(dir, sizeof(dir), why, sizeof(why)))
			die(EXIT_SYSTEM, "%s", why);
		snprintf(kek, sizeof(kek), "%s/kek", dir);
		if (access(kek, F_OK) == 0 ? ara_kek_load(kek, st->kek, why, sizeof(why))
					   : ara_kek_create(kek, st->kek, why, sizeof(why)))
			die(EXIT_SYSTEM, "%s", why);
	}
	if (o->store)
		snprintf(url, sizeof(url), "%s", o->store);
	else if (ara_store_default_url(url, sizeof(url), why, sizeof(why)))
		die(EXIT_SYSTEM, "%s", why);
	st->url = url;
	gethostname(host, sizeof(host) - 1);
	snprintf(st->service, sizeof(st->service), "%.32s.%ld", host, (long)getpid());
	if (ara_decide_store_import(st, p, &version, why, sizeof(why)))
		die(EXIT_SYSTEM, "%s", why);
	return version;
}

int main(int argc, char **argv)
{
	struct pollfd pfd[LISTENERS_MAX];
	static struct ara_policy policy; /* large: secrets inline */
	static struct options o;
	static struct ara_ear_key ear;
	char build[64];
	struct ara_report_ctx reports = { 0 };
	static struct ara_decide_store store;
	uint64_t served = 0;
	uint32_t version;
	FILE *log = stderr;
	char why[512];

	ara_cli_init("ara-provision");
	parse_options(argc, argv, &o);
	/* The secrets are in this process from here on: no core dumps of it. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		die(EXIT_SYSTEM, "prctl(PR_SET_DUMPABLE): %s", strerror(errno));
	if (ara_policy_load(o.policy, &policy, why, sizeof(why)))
		die(EXIT_USAGE, "policy %s", why);
	version = open_store(&o, &policy, &store);
	if (o.ear_key && ara_ear_key_load(o.ear_key, &ear, why, sizeof(why)))
		die(EXIT_USAGE, "--ear-key %s", why);
	snprintf(build, sizeof(build), "ara-provision %s", ara_cli_version);
	reports = (struct ara_report_ctx){ o.rtm_apps, o.rtm_root, o.ear_key ? &ear : NULL, build };
	for (size_t i = 0; i < o.nlisten; i++) {
		if (o.tcp[i]) {
			listen_tcp(&listeners[i], o.listen[i], o.tcp[i]);
			freeaddrinfo(o.tcp[i]);
		} else {
			listen_unix(&listeners[i], o.listen[i]);
		}
	}
	if (o.log && !(log = fopen(o.log, "a")))
		die(EXIT_SYSTEM, "%s: cannot open the log: %s", o.log, strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	fprintf(log, "ara-provision: store %s, policy version %u\n", store.url, version);
	for (size_t i = 0; i < nlisteners; i++) {
		fprintf(log, "ara-provision: listening on %s\n", listeners[i].name);
		pfd[i] = (struct pollfd){ .fd = listeners[i].fd, .events = POLLIN };
	}
	fflush(log);
	while (o.sessions == 0 || served < o.sessions) {
		if (poll(pfd, nlisteners, -1) < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_SYSTEM, "poll: %s", strerror(errno));
		}
		for (size_t i = 0; i < nlisteners && (o.sessions == 0 || served < o.sessions); i++)
			if (pfd[i].revents & POLLIN)
				serve_one(&listeners[i], &policy, &store, o.rtm_apps ? &reports : NULL,
					  ++served, log);
	}
	ara_policy_wipe(&policy);
	ara_ear_key_wipe(&ear);
	ara_decide_store_release();
	mbedtls_platform_zeroize(store.kek, sizeof(store.kek));
	remove_socket_files();
	return EXIT_SERVED;
}
