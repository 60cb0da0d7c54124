/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioning service (docs/provisioning.md, "The service"): many
 * sessions at once on one I/O thread (epoll, non-blocking sockets, a
 * deadline per connection, limits on connections and bytes), decisions on
 * worker threads, SIGHUP reloads the configuration and the policy, SIGTERM
 * stops gracefully, systemd is told (notify.h).
 */
#ifndef ARA_PROVISION_SERVER_H
#define ARA_PROVISION_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

/*
 * Makes the configuration whole: the defaults, the file, the command line.
 * Called at the start and at each SIGHUP. 0, or -1 with why.
 */
typedef int (*ara_configure_fn)(void *arg, struct ara_config *c, char *why, size_t why_cap);

struct ara_server_options {
	ara_configure_fn configure;
	void *arg;
	uint64_t sessions; /* stop after this many sessions; 0: for ever */
};

/* Exit statuses (ara-provision's). */
enum ara_server_status {
	ARA_SERVER_DONE = 0,
	ARA_SERVER_CONFIG = 2, /* the configuration or the policy cannot be read or parsed */
	ARA_SERVER_SYSTEM = 3, /* a socket, the log or a thread cannot be made */
};

/*
 * Configures, loads the policy, listens, opens the log, serves until
 * SIGTERM (or o->sessions sessions), then removes its socket files.
 * A failure before serving is one line on standard error.
 */
int ara_server_run(const struct ara_server_options *o);

#endif
