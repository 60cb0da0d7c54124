/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The configuration file (config.h). Strict like the policy: a typo or a
 * second value must not change the service silently, so an unknown name,
 * a repeated directive, a value out of range or a NUL refuses the file
 * whole; a reload keeps the running configuration then.
 */
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

#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "config.h"
#include "wire.h"

#define LINE_MAX_BYTES 1024

void ara_config_defaults(struct ara_config *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	c->workers = cpus < 1 ? 1 : cpus > 64 ? 64 : (uint32_t)cpus;
	c->max_connections = 1024;
	c->max_per_peer = 64;
	c->max_message = ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX;
	c->max_buffered = 256u << 20;
	c->max_reports = 4;
	c->deadline = 30;
	c->stop_grace = 5;
}

int ara_config_listener(const char *kind, const char *spec, struct ara_config_listener *l,
			char *why, size_t cap)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	const char *colon = strrchr(spec, ':');
	struct addrinfo *ai;
	char host[64];

	l->tcp = strcmp(kind, "tcp") == 0;
	if (!l->tcp && strcmp(kind, "unix") != 0)
		return ara_why(why, cap, "listen %s: expected 'unix PATH' or 'tcp HOST:PORT'", kind);
	if (!l->tcp) {
		if (!spec[0] || strlen(spec) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return ara_why(why, cap, "unix %s: path empty or too long", spec);
	} else {
		if (!colon || (size_t)(colon - spec) >= sizeof(host))
			return ara_why(why, cap,
				       "tcp %s: expected HOST:PORT, a numeric address and port",
				       spec);
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
		if (getaddrinfo(host, colon + 1, &hints, &ai))
			return ara_why(why, cap,
				       "tcp %s: expected HOST:PORT, a numeric address and port",
				       spec);
		freeaddrinfo(ai);
	}
	snprintf(l->spec, sizeof(l->spec), "%s", spec);
	return 0;
}

/* path relative to the directory of file, unless absolute; -1 if too long. */
static int resolve(const char *file, const char *path, char out[PATH_MAX])
{
	const char *slash = strrchr(file, '/');
	int n;

	if (path[0] == '/' || !slash)
		n = snprintf(out, PATH_MAX, "%s", path);
	else
		n = snprintf(out, PATH_MAX, "%.*s/%s", (int)(slash - file), file, path);
	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/* The numeric directives: name, where in struct ara_config, range. */
struct number {
	const char *name;
	size_t offset, size;
	uint64_t min, max;
};

static const struct number numbers[] = {
	{ "workers", offsetof(struct ara_config, workers), 4, 1, 64 },
	{ "max-connections", offsetof(struct ara_config, max_connections), 4, 1, 65536 },
	{ "max-per-peer", offsetof(struct ara_config, max_per_peer), 4, 1, 65536 },
	{ "max-message", offsetof(struct ara_config, max_message), 4, ARA_WIRE_HEADER + 1,
	  ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX },
	{ "max-reports", offsetof(struct ara_config, max_reports), 4, 1, 1024 },
	{ "max-buffered", offsetof(struct ara_config, max_buffered), 8, ARA_WIRE_HEADER + 1,
	  UINT64_C(1) << 40 },
	{ "deadline", offsetof(struct ara_config, deadline), 4, 1, 3600 },
	{ "stop-grace", offsetof(struct ara_config, stop_grace), 4, 0, 3600 },
};

#define N_NUMBERS (sizeof(numbers) / sizeof(numbers[0]))
/* Seen-bits: one per number, then the paths, then the store. */
#define SEEN_PATH (1u << N_NUMBERS)

static const struct path {
	const char *name;
	size_t offset;
} paths[] = {
	{ "policy", offsetof(struct ara_config, policy) },
	{ "log", offsetof(struct ara_config, log) },
	{ "signing-key", offsetof(struct ara_config, signing_key) },
	{ "kek", offsetof(struct ara_config, kek) },
	{ "rtm-apps", offsetof(struct ara_config, rtm_apps) },
	{ "rtm-root", offsetof(struct ara_config, rtm_root) },
	{ "ear-key", offsetof(struct ara_config, ear_key) },
};

#define SEEN_STORE (SEEN_PATH << (sizeof(paths) / sizeof(paths[0])))

/* One directive (name, then the rest of the line in arg); 0 or -1 with why. */
static int directive(const char *file, char *name, char *arg, unsigned *seen, struct ara_config *c,
		     char *why, size_t cap)
{
	char *second;
	uint64_t v;

	if (strcmp(name, "listen") == 0) {
		second = strchr(arg, ' ');
		if (!second)
			return ara_why(why, cap, "listen: expected 'unix PATH' or 'tcp HOST:PORT'");
		*second++ = '\0';
		if (c->n_listen == ARA_CONFIG_LISTENERS_MAX)
			return ara_why(why, cap, "at most %d listen lines",
				       ARA_CONFIG_LISTENERS_MAX);
		if (ara_config_listener(arg, second, &c->listen[c->n_listen], why, cap))
			return -1;
		if (!c->listen[c->n_listen].tcp) {
			if (resolve(file, second, c->listen[c->n_listen].spec) ||
			    strlen(c->listen[c->n_listen].spec) >= sizeof(((struct sockaddr_un *)0)->sun_path))
				return ara_why(why, cap, "unix %s: path too long", second);
		}
		c->n_listen++;
		return 0;
	}
	if (strchr(arg, ' '))
		return ara_why(why, cap, "%s: one value expected, not '%s'", name, arg);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		unsigned bit = SEEN_PATH << i;

		if (strcmp(name, paths[i].name) != 0)
			continue;
		if (*seen & bit)
			return ara_why(why, cap, "%s given twice", name);
		*seen |= bit;
		if (resolve(file, arg, (char *)c + paths[i].offset))
			return ara_why(why, cap, "%s: path too long", name);
		return 0;
	}
	if (strcmp(name, "store") == 0) {
		if (*seen & SEEN_STORE)
			return ara_why(why, cap, "%s given twice", name);
		*seen |= SEEN_STORE;
		if (snprintf(c->store, sizeof(c->store), "%s", arg) >= (int)sizeof(c->store))
			return ara_why(why, cap, "%s: too long", name);
		return 0;
	}
	for (size_t i = 0; i < N_NUMBERS; i++) {
		const struct number *n = &numbers[i];

		if (strcmp(name, n->name) != 0)
			continue;
		if (*seen & (1u << i))
			return ara_why(why, cap, "%s given twice", name);
		*seen |= 1u << i;
		if (ara_parse_u64(arg, n->min, n->max, &v))
			return ara_why(why, cap, "%s: '%s' is not a number in %llu..%llu", name, arg,
				       (unsigned long long)n->min, (unsigned long long)n->max);
		if (n->size == 4) {
			uint32_t v32 = (uint32_t)v;

			memcpy((char *)c + n->offset, &v32, 4);
		} else {
			memcpy((char *)c + n->offset, &v, 8);
		}
		return 0;
	}
	return ara_why(why, cap, "unknown directive '%s'", name);
}

int ara_config_parse(const char *file, const char *text, size_t len, struct ara_config *c,
		     char *why, size_t cap)
{
	struct ara_config next = *c;
	char line[LINE_MAX_BYTES + 1], msg[PATH_MAX + 64];
	unsigned seen = 0, lineno = 0;
	size_t at = 0;

	const char *nul = memchr(text, '\0', len);

	if (nul) {
		for (const char *t = text; t < nul; t++)
			lineno += *t == '\n';
		return ara_why(why, cap, "%s:%u: a NUL byte", file, lineno + 1);
	}
	while (at < len) {
		const char *end = memchr(text + at, '\n', len - at);
		size_t n = (end ? (size_t)(end - text) : len) - at;
		char *name, *arg;

		lineno++;
		if (n > LINE_MAX_BYTES)
			return ara_why(why, cap, "%s:%u: line over %d bytes", file, lineno,
				       LINE_MAX_BYTES);
		memcpy(line, text + at, n);
		line[n] = '\0';
		at += n + 1;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
			line[--n] = '\0';
		name = line + strspn(line, " \t");
		if (!*name || *name == '#')
			continue;
		arg = name + strcspn(name, " \t");
		if (!*arg)
			return ara_why(why, cap, "%s:%u: %s: a value is needed", file, lineno, name);
		*arg++ = '\0';
		arg += strspn(arg, " \t");
		for (char *t = arg; *t; t++)
			if (*t == '\t')
				*t = ' ';
		if (directive(file, name, arg, &seen, &next, msg, sizeof(msg)))
			return ara_why(why, cap, "%s:%u: %s", file, lineno, msg);
	}
	*c = next;
	return 0;
}

int ara_config_load(const char *path, struct ara_config *c, char *why, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *text;
	size_t len;
	int r;

	if (fd < 0) {
		ara_why(why, cap, "%s:0: cannot open %s: %s", path, path, strerror(errno));
		return ARA_CONFIG_UNREADABLE;
	}
	/* Bounded before it is read: a large file costs nothing. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)ARA_CONFIG_FILE_MAX) {
		close(fd);
		return ara_why(why, cap, "%s:0: not a regular file of at most %u bytes", path,
			       ARA_CONFIG_FILE_MAX);
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text || ara_read_upto(fd, text, (size_t)st.st_size + 1, &len) ||
	    len > (size_t)st.st_size) {
		ara_why(why, cap, "%s:0: cannot read %s: %s", path, path,
			text ? strerror(errno ? errno : EFBIG) : "out of memory");
		r = ARA_CONFIG_UNREADABLE;
	} else {
		r = ara_config_parse(path, text, len, c, why, cap);
	}
	if (text) /* a store URL in it may carry a password */
		mbedtls_platform_zeroize(text, (size_t)st.st_size + 1);
	free(text);
	close(fd);
	return r;
}
