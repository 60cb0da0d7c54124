/* SPDX-License-Identifier: Apache-2.0 */
/* What store.h gives every backend's callers: opening by URL, the defaults. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"

static const struct ara_store_ops *const backends[] = {
	&ara_store_sqlite_ops,
#ifdef ARA_STORE_HAVE_PG
	&ara_store_pg_ops,
#endif
};

struct ara_store *ara_store_open(const char *url, char *why, size_t cap)
{
	return ara_store_open_kek(url, NULL, NULL, why, cap);
}

struct ara_store *ara_store_open_kek(const char *url, ara_store_reseal_fn reseal, void *ctx,
				     char *why, size_t cap)
{
	const char *colon = strchr(url, ':');
	struct ara_store *s;
	int from;

	for (size_t i = 0; colon && i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (strlen(backends[i]->scheme) != (size_t)(colon - url) ||
		    strncmp(url, backends[i]->scheme, (size_t)(colon - url)) != 0)
			continue;
		if (!(s = backends[i]->open(url, why, cap)))
			return NULL;
		s->reseal = reseal;
		s->reseal_ctx = ctx;
		if (s->ops->migrate(s, &from) == ARA_STORE_OK)
			return s;
		snprintf(why, cap, "%s", s->why);
		s->ops->close(s);
		return NULL;
	}
	/* Named by its scheme alone: the rest of a URL may be a password. */
#ifndef ARA_STORE_HAVE_PG
	if (colon && colon - url == 10 && !strncmp(url, "postgresql", 10)) {
		snprintf(why, cap, "postgresql: this program was built without libpq: it has no"
				   " PostgreSQL store (only sqlite:PATH)");
		return NULL;
	}
#endif
	snprintf(why, cap, "'%.*s': not a store this program has (sqlite:PATH%s)",
		 colon ? (int)(colon - url) : 16, url,
#ifdef ARA_STORE_HAVE_PG
		 " or postgresql://..."
#else
		 ""
#endif
	);
	return NULL;
}

void ara_store_url_redacted(const char *url, char *out, size_t cap)
{
	const char *auth = strstr(url, "://"), *at = NULL, *colon = NULL, *p;
	size_t n = 0;

	if (auth) {
		auth += 3;
		at = auth + strcspn(auth, "@/?");
		colon = memchr(auth, ':', (size_t)(at - auth));
		if (*at != '@')
			colon = NULL; /* no user information: a colon is the port's */
	}
	for (p = url; *p && n + 4 < cap;) {
		if (colon && p == colon + 1) {
			memcpy(out + n, "***", 3);
			n += 3;
			p = at;
		} else if ((p == url || p[-1] == '?' || p[-1] == '&') && !strncmp(p, "password=", 9)) {
			if (n + 13 >= cap)
				break;
			memcpy(out + n, "password=***", 12);
			n += 12;
			p += 9 + strcspn(p + 9, "&");
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
}

void ara_store_close(struct ara_store *s)
{
	if (s)
		s->ops->close(s);
}

/* mkdir -p, the last component mode 0700. */
static int make_dir(char *path, char *why, size_t cap)
{
	struct stat st;

	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			snprintf(why, cap, "%s: cannot create the directory: %s", path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) && errno != EEXIST) {
		snprintf(why, cap, "%s: cannot create the directory: %s", path, strerror(errno));
		return -1;
	}
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, cap, "%s: not a directory", path);
		return -1;
	}
	return 0;
}

int ara_store_state_dir(char *dir, size_t cap, char *why, size_t why_cap)
{
	const char *env = getenv("ARA_PROVISION_STATE"), *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(dir, cap, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(dir, cap, "/var/lib/ara-provision");
	else if (xdg && xdg[0] == '/')
		n = snprintf(dir, cap, "%s/ara-provision", xdg);
	else if (home && home[0] == '/')
		n = snprintf(dir, cap, "%s/.local/state/ara-provision", home);
	else {
		snprintf(why, why_cap, "no state directory: set ARA_PROVISION_STATE or HOME");
		return -1;
	}
	if (n < 0 || (size_t)n >= cap) {
		snprintf(why, why_cap, "the state directory's path is too long");
		return -1;
	}
	return make_dir(dir, why, why_cap);
}

int ara_store_default_url(char *url, size_t cap, char *why, size_t why_cap)
{
	char dir[4096];
	int n;

	if (ara_store_state_dir(dir, sizeof(dir), why, why_cap))
		return -1;
	n = snprintf(url, cap, "sqlite:%s/store.db", dir);
	if (n < 0 || (size_t)n >= cap) {
		snprintf(why, why_cap, "the store's path is too long");
		return -1;
	}
	return 0;
}
