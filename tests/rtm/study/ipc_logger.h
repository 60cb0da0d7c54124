/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The IPC baseline's logger (docs/rtm.md, "The case study"): the other end
 * of the Unix socket ipc_hooks.c hands each transfer to. It does the work
 * ARA's log does for an entry: appends it to a 1 MiB segment and, when the
 * segment is full, hashes it into the RTM's chain (H <- SHA-256(H ||
 * segment), services/rtm/verify/chain.c); then it acknowledges the entry
 * with one byte, which the producer waits for.
 */
#ifndef ARA_RTM_IPC_LOGGER_H
#define ARA_RTM_IPC_LOGGER_H

#include <stdint.h>

#include "rtm_format.h"

struct ara_rtm_ipc_log {
	uint64_t entries;  /* entries logged */
	uint64_t segments; /* segments hashed into the chain (the last one partly filled) */
	uint8_t chain[ARA_RTM_HASH_BYTES];
};

/*
 * Serves the socket fd until its peer shuts it down: every 8-byte entry
 * read is logged and acknowledged. The chain starts from run_id (as DOM0's
 * from its random run id); at the end the partly filled segment
 * (zero-padded) is hashed as well. 0, or -1 with errno set (EPROTO: a
 * stream that ended inside an entry, EIO: the hash failed).
 */
int ara_rtm_ipc_serve(int fd, const uint8_t run_id[ARA_RTM_HASH_BYTES], struct ara_rtm_ipc_log *log);

/*
 * Writes the summary "entries N\nsegments S\nchain HEX\n" to fd: 0, or -1
 * with errno set.
 */
int ara_rtm_ipc_write_summary(int fd, const struct ara_rtm_ipc_log *log);

#endif
