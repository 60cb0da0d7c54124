/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM runtime's evidence export (docs/rtm.md, "Instrumentation"): sealed
 * log segments and batch checkpoints leave DOM0 with RTM_EXPORT and are
 * appended to the files the environment names; reports and batch mode for
 * the App. Never instrumented.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ara/bytes.h"
#include "ara/ara.h"
#include "ara/rtm.h"
#include "ara/rtm_runtime.h"
#include "rtm_format.h"
#include "runtime_internal.h"

/* A file evidence is appended to, opened at its first use. */
struct sink {
	const char *env;  /* the variable naming it */
	const char *path; /* its value, once opened */
	int fd;		  /* SINK_UNOPENED, SINK_DISCARD or the descriptor */
};
#define SINK_UNOPENED (-1)
#define SINK_DISCARD (-2)

/* All of it under lock: one export at a time, whichever thread. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t segment[ARA_RTM_SEGMENT_BYTES];
static uint8_t checkpoint[ARA_RTM_CHECKPOINT_MAX];
static struct sink segments = {"ARA_RTM_SEGMENTS", NULL, SINK_UNOPENED};
static struct sink checkpoints = {"ARA_RTM_CHECKPOINTS", NULL, SINK_UNOPENED};
/*
 * Segments exported so far, the next index expected: written under lock,
 * read without it (atomically) by report(), which may run with signals
 * open: a handler on the same thread may be waiting for the lock to export.
 */
static uint64_t exported;

static int sink_open(struct sink *s)
{
	const char *path = getenv(s->env);

	if (!path || !*path) {
		s->fd = SINK_DISCARD;
		ara_rtm_warn(s->env, "not set: exported RTM evidence is discarded, and ara-verify "
				     "will refuse this run");
		return 0;
	}
	s->path = path;
	s->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (s->fd < 0) {
		int err = errno;
		s->fd = SINK_UNOPENED;
		fprintf(stderr, "ara-rtm: cannot open %s=%s: %s\n", s->env, path, strerror(err));
		errno = err;
		return -1;
	}
	return 0;
}

static int sink_append(struct sink *s, const uint8_t *buf, size_t len)
{
	if (s->fd == SINK_UNOPENED && sink_open(s) != 0)
		return -1;
	if (s->fd == SINK_DISCARD)
		return 0;
	while (len > 0) {
		ssize_t n = write(s->fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;
			fprintf(stderr, "ara-rtm: cannot write to %s=%s: %s\n", s->env, s->path,
				strerror(err));
			errno = err;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Exports until DOM0 has no sealed segment left. */
static int drain_locked(void)
{
	for (;;) {
		struct ara_rtm_export_arg arg = {
			.segment = (uintptr_t)segment,
			.checkpoint = (uintptr_t)checkpoint,
			.checkpoint_cap = sizeof(checkpoint),
		};
		int status = secure_call(ARA_FID_RTM_EXPORT, &arg);

		if (status == ARA_E_NOENT)
			return ARA_OK;
		if (status == ARA_E_BUSY) {
			sched_yield();
			continue;
		}
		if (status != ARA_OK) {
			ara_rtm_warn("RTM_EXPORT failed", ara_strerror(status));
			return status;
		}
		if (sink_append(&segments, segment, sizeof(segment)) != 0)
			return ARA_RTM_IO_ERROR;
		if (arg.checkpoint_len > 0 &&
		    sink_append(&checkpoints, checkpoint, arg.checkpoint_len) != 0)
			return ARA_RTM_IO_ERROR;
		/* Once the files hold it: a report then names no segment they lack. */
		__atomic_store_n(&exported, arg.index + 1, __ATOMIC_RELEASE);
	}
}

/*
 * With the App's signals blocked: a handler on this thread that logged
 * while DOM0's log is full (ARA_RTM_LOG_FULL) would wait for this very
 * export, which could not go on before the handler returned.
 */
int ara_rtm_flush_segments(void)
{
	sigset_t all, old;
	int status;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&lock);
	status = drain_locked();
	pthread_mutex_unlock(&lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return status;
}

static int report(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
		  uint32_t *len, uint32_t flags)
{
	/*
	 * Another thread may seal a segment between the export and the
	 * report: then the report names a segment the files lack. Export and
	 * report again until they agree (each report has its own sequence
	 * number; the verifier takes the one it is given).
	 */
	for (;;) {
		struct ara_rtm_report_arg arg = {.out = (uintptr_t)out, .out_cap = cap, .flags = flags};
		uint64_t sealed;
		int status = ara_rtm_flush_segments();

		if (status != ARA_OK)
			return status;
		memcpy(arg.nonce, nonce, sizeof(arg.nonce));
		status = secure_call(ARA_FID_RTM_REPORT, &arg);
		*len = arg.out_len;
		if (status != ARA_OK)
			return status;
		if (arg.out_len < ARA_RTM_HEADER_BYTES)
			return ARA_E_INTERNAL; /* DOM0 wrote less than a header */
		sealed = ara_get_le64((const uint8_t *)out + ARA_RTM_OFF_SEALED);
		if (sealed <= __atomic_load_n(&exported, __ATOMIC_ACQUIRE))
			return ARA_OK;
	}
}

int ara_rtm_report(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
		   uint32_t *len)
{
	return report(nonce, out, cap, len, 0);
}

int ara_rtm_report_final(const uint8_t nonce[ARA_RTM_NONCE_BYTES], void *out, uint32_t cap,
			 uint32_t *len)
{
	return report(nonce, out, cap, len, ARA_RTM_REPORT_FINAL);
}

int ara_rtm_batch(const uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	struct ara_rtm_batch_arg arg;

	memcpy(arg.nonce, nonce, sizeof(arg.nonce));
	return secure_call(ARA_FID_RTM_BATCH, &arg);
}
