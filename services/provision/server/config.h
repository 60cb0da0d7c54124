/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service's configuration: the file's grammar (docs/provisioning.md,
 * "The configuration file") and the defaults. One directive per line, each
 * at most once but listen; anything else, a NUL byte included, refuses the
 * file whole with its name and line.
 */
#ifndef ARA_PROVISION_CONFIG_H
#define ARA_PROVISION_CONFIG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define ARA_CONFIG_LISTENERS_MAX 8
#define ARA_CONFIG_FILE_MAX (64u << 10)

struct ara_config_listener {
	int tcp;		   /* 0: a Unix socket at spec */
	char spec[PATH_MAX];	   /* the path, or HOST:PORT (numeric) */
};

struct ara_config {
	char policy[PATH_MAX];	   /* empty: not given */
	char log[PATH_MAX];	   /* empty: standard error */
	char store[PATH_MAX];	   /* the store's URL (store.h); empty: the default */
	char kek[PATH_MAX];	   /* the KEK file (kek.h); empty: the state directory's */
	char signing_key[PATH_MAX]; /* the DELIVERs' signing key (PEM); empty: unsigned */
	char rtm_apps[PATH_MAX];    /* RTM reports' App files (report.h); empty: REPORTs refused */
	char rtm_root[PATH_MAX];    /* their other modules under it; empty: their own paths */
	char ear_key[PATH_MAX];	    /* signs each VERDICT's EAR; empty: VERDICTs carry none */
	struct ara_config_listener listen[ARA_CONFIG_LISTENERS_MAX];
	size_t n_listen;
	uint32_t workers;	   /* decision threads */
	uint32_t max_connections;  /* open at once, all peers */
	uint32_t max_per_peer;	   /* open at once from one address (TCP) or user (Unix) */
	uint32_t max_message;	   /* the largest ATTEST taken, bytes */
	uint64_t max_buffered;	   /* ATTEST bytes held at once, all sessions */
	uint32_t max_reports;	   /* REPORTs (up to ~10.5 MiB each) being read or decided */
	uint32_t deadline;	   /* seconds for the peer's whole ATTEST, and for the reply */
	uint32_t stop_grace;	   /* seconds a reading session has after SIGTERM */
};

/* The defaults: no policy, no listener, the limits of the man page. */
void ara_config_defaults(struct ara_config *c);

/*
 * Reads path over *c (which holds the defaults, or the command line's
 * values are applied after). Relative paths in it start at its directory.
 * 0; ARA_CONFIG_UNREADABLE if path cannot be opened or read; -1 if it does
 * not parse. Either error with one line in why ("FILE:LINE: ...").
 */
#define ARA_CONFIG_UNREADABLE (-2)
int ara_config_load(const char *path, struct ara_config *c, char *why, size_t why_cap);

/* The same from len bytes of text (a NUL among them is an error). */
int ara_config_parse(const char *name, const char *text, size_t len, struct ara_config *c,
		     char *why, size_t why_cap);

/* A listen spec ("unix PATH" or "tcp HOST:PORT") checked: 0, or -1 with why. */
int ara_config_listener(const char *kind, const char *spec, struct ara_config_listener *l,
			char *why, size_t why_cap);

#endif
