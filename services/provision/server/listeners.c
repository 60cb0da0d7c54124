/* SPDX-License-Identifier: Apache-2.0 */
/* The listening sockets (listeners.h). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ara_cli.h"
#include "listeners.h"

#define BACKLOG SOMAXCONN

/* A socket file nobody accepts on: what a provisioner killed with -9 leaves. */
static int stale(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), refused;

	if (fd < 0)
		return 0;
	refused = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) && errno == ECONNREFUSED;
	close(fd);
	return refused;
}

static int listen_unix(const char *path, struct ara_listener *l, char *why, size_t cap)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int r;

	memcpy(sa.sun_path, path, strlen(path) + 1); /* its length checked by config.c */
	l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (l->fd < 0)
		return ara_why(why, cap, "%s: cannot listen: %s", path, strerror(errno));
	r = bind(l->fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r && errno == EADDRINUSE && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    stale(&sa) && unlink(path) == 0)
		r = bind(l->fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r) {
		r = errno;
		close(l->fd);
		errno = r;
		return ara_why(why, cap, "%s: cannot listen: %s", path,
			       errno == EADDRINUSE ? "in use by a running server" : strerror(errno));
	}
	memcpy(l->unix_path, sa.sun_path, sizeof(l->unix_path));
	snprintf(l->name, sizeof(l->name), "unix %.*s", (int)sizeof(l->name) - 6, path);
	if (listen(l->fd, BACKLOG)) {
		ara_why(why, cap, "%s: cannot listen: %s", path, strerror(errno));
		ara_listener_close(l);
		return -1;
	}
	return 0;
}

/* "tcp HOST:PORT" of a bound socket; -1 if it has no name. */
static int name_tcp(struct ara_listener *l)
{
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	char host[64], port[16];

	if (getsockname(l->fd, (struct sockaddr *)&bound, &len) ||
	    getnameinfo((struct sockaddr *)&bound, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV))
		return -1;
	snprintf(l->name, sizeof(l->name), "tcp %s:%s", host, port);
	return 0;
}

static int listen_tcp(const char *spec, struct ara_listener *l, char *why, size_t cap)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	const char *colon = strrchr(spec, ':');
	struct addrinfo *ai;
	char host[64];
	int one = 1, ok;

	snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec); /* checked by config.c */
	if (getaddrinfo(host, colon + 1, &hints, &ai))
		return ara_why(why, cap, "%s: cannot listen: not a numeric HOST:PORT", spec);
	l->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	ok = l->fd >= 0 && !setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) &&
	     !bind(l->fd, ai->ai_addr, ai->ai_addrlen) && !listen(l->fd, BACKLOG);
	freeaddrinfo(ai);
	if (!ok || name_tcp(l)) {
		ara_why(why, cap, "%s: cannot listen: %s", spec, strerror(errno));
		if (l->fd >= 0)
			close(l->fd);
		return -1;
	}
	return 0;
}

int ara_listen(const struct ara_config_listener *c, struct ara_listener *l, char *why, size_t cap)
{
	memset(l, 0, sizeof(*l));
	return c->tcp ? listen_tcp(c->spec, l, why, cap) : listen_unix(c->spec, l, why, cap);
}

int ara_listen_inherited(struct ara_listener *out, size_t cap, char *why, size_t why_cap)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	uint64_t p, n;

	if (!pid || !fds)
		return 0;
	if (ara_parse_u64(pid, 1, UINT32_MAX, &p) || ara_parse_u64(fds, 0, cap, &n))
		return ara_why(why, why_cap,
			       "LISTEN_PID=%s LISTEN_FDS=%s: not a pid and at most %zu sockets", pid,
			       fds, cap);
	if ((pid_t)p != getpid())
		return 0; /* meant for another process */
	for (int i = 0; i < (int)n; i++) {
		struct ara_listener *l = &out[i];
		struct sockaddr_storage sa;
		socklen_t len = sizeof(sa);
		int type = 0;
		socklen_t tlen = sizeof(type);

		memset(l, 0, sizeof(*l));
		l->fd = 3 + i; /* SD_LISTEN_FDS_START */
		l->inherited = 1;
		if (getsockname(l->fd, (struct sockaddr *)&sa, &len) ||
		    getsockopt(l->fd, SOL_SOCKET, SO_TYPE, &type, &tlen) || type != SOCK_STREAM)
			return ara_why(why, why_cap,
				       "socket activation: fd %d is not a stream socket", l->fd);
		if (fcntl(l->fd, F_SETFD, FD_CLOEXEC) ||
		    fcntl(l->fd, F_SETFL, fcntl(l->fd, F_GETFL) | O_NONBLOCK))
			return ara_why(why, why_cap, "socket activation: fd %d: %s", l->fd,
				       strerror(errno));
		if (sa.ss_family == AF_UNIX)
			snprintf(l->name, sizeof(l->name), "unix %.*s", (int)sizeof(l->name) - 6,
				 ((struct sockaddr_un *)&sa)->sun_path);
		else if (name_tcp(l))
			return ara_why(why, why_cap, "socket activation: fd %d has no address",
				       l->fd);
	}
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return (int)n;
}

void ara_listener_close(struct ara_listener *l)
{
	if (l->fd < 0)
		return;
	close(l->fd);
	l->fd = -1;
	if (!l->inherited && l->unix_path[0])
		unlink(l->unix_path);
}
