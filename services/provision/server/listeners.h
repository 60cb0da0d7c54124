/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The service's listening sockets: made from the configuration, or handed
 * over by systemd's socket activation (LISTEN_FDS). Non-blocking; a Unix
 * socket file the service made goes with its listener, one systemd made
 * stays systemd's.
 */
#ifndef ARA_PROVISION_LISTENERS_H
#define ARA_PROVISION_LISTENERS_H

#include <stddef.h>

#include "config.h"

struct ara_listener {
	int fd;
	int inherited;	     /* from systemd: its file is not ours to remove */
	char name[128];	     /* "unix PATH" or "tcp HOST:PORT" (the port bound) */
	char unix_path[108]; /* ours to remove; empty for TCP */
};

/*
 * Listens as l says. A Unix socket file left by a provisioner that died
 * (nobody accepts on it) is replaced; one in use is not. 0, or -1 with
 * why ("PATH: cannot listen: ...").
 */
int ara_listen(const struct ara_config_listener *l, struct ara_listener *out, char *why,
	       size_t why_cap);

/*
 * The sockets systemd passed (LISTEN_PID is this process), at most cap:
 * their count, or -1 with why. The variables are unset after.
 */
int ara_listen_inherited(struct ara_listener *out, size_t cap, char *why, size_t why_cap);

/* Closes the listener and removes its socket file if it is ours. */
void ara_listener_close(struct ara_listener *l);

#endif
