/* SPDX-License-Identifier: Apache-2.0 */
/* The IPC baseline's logger (ipc_logger.h). */
#include "ipc_logger.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chain.h"

/* Writes all of [p, p + n) to fd: 0, or -1. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = send(fd, c, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int ara_rtm_ipc_serve(int fd, const uint8_t run_id[ARA_RTM_HASH_BYTES], struct ara_rtm_ipc_log *log)
{
	/* 1 MiB of entries, as one of DOM0's segments. */
	uint64_t *seg = calloc(ARA_RTM_SEGMENT_ENTRIES, sizeof(*seg));
	/* A few entries at once: the producer's threads each send one and wait. */
	static const char acks[64];
	size_t fill = 0, partial = 0;
	int ret = -1;

	memset(log, 0, sizeof(*log));
	if (!seg)
		return -1;
	if (ara_rtm_chain_start(run_id, log->chain)) {
		errno = EIO;
		goto out;
	}
	for (;;) {
		/* Bytes go straight into the segment; a partial entry is completed by the next read. */
		size_t room = (ARA_RTM_SEGMENT_ENTRIES - fill) * sizeof(*seg) - partial;
		size_t cap = room < sizeof(acks) * sizeof(*seg) ? room : sizeof(acks) * sizeof(*seg);
		ssize_t got = recv(fd, (char *)(seg + fill) + partial, cap, 0);
		size_t whole;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto out;
		if (got == 0)
			break;
		partial += (size_t)got;
		whole = partial / sizeof(*seg);
		partial %= sizeof(*seg);
		fill += whole;
		log->entries += whole;
		if (fill == ARA_RTM_SEGMENT_ENTRIES) {
			if (ara_rtm_chain_step(log->chain, (const uint8_t *)seg)) {
				errno = EIO;
				goto out;
			}
			log->segments++;
			fill = 0;
		}
		if (whole > 0 && write_all(fd, acks, whole))
			goto out;
	}
	if (partial) {
		errno = EPROTO;
		goto out;
	}
	if (fill > 0) {
		memset(seg + fill, 0, (ARA_RTM_SEGMENT_ENTRIES - fill) * sizeof(*seg));
		if (ara_rtm_chain_step(log->chain, (const uint8_t *)seg)) {
			errno = EIO;
			goto out;
		}
		log->segments++;
	}
	ret = 0;
out:
	free(seg);
	return ret;
}

int ara_rtm_ipc_write_summary(int fd, const struct ara_rtm_ipc_log *log)
{
	char text[160];
	int n = snprintf(text, sizeof(text), "entries %llu\nsegments %llu\nchain ",
			 (unsigned long long)log->entries, (unsigned long long)log->segments);

	for (unsigned i = 0; i < ARA_RTM_HASH_BYTES; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%02x", log->chain[i]);
	text[n++] = '\n';
	for (size_t done = 0; done < (size_t)n;) {
		ssize_t w = write(fd, text + done, (size_t)n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}
