/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's socket and fifo configurations: the decryptor in a worker
 * process (one per run, rts_worker.c) that the App talks to over a byte
 * stream, a request and a reply per unit. A request is the unit's record
 * (a sealed chunk, or a cenc sample with its IV and map) behind a header
 * (its length, whether it is the last), sent with one writev; a reply is
 * the worker's status and the clear unit, read with one readv when the
 * kernel has it all. Whole units, never bytes, and the same buffers unit
 * after unit. The App waits for each reply before it sends
 * the next request, as the client of a decryption service does: a channel
 * like these has room for a chunk or two (the shm ring is the configuration
 * with room for more).
 *   socket  an AF_UNIX SOCK_STREAM socket pair, made before the fork; its
 *           default buffers take a request whole;
 *   fifo    two named FIFOs (mkfifo) in a private directory under $TMPDIR
 *           (default /tmp), made once and removed at the end; the worker
 *           opens its ends by name. Their pipes are given 128 KiB
 *           (F_SETPIPE_SZ) to take a request whole: the default 64 KiB
 *           would cut every one in two.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rts_study.h"

#define PIPE_BYTES (128u << 10)

struct request {
	uint32_t len;	/* record bytes that follow */
	uint32_t final; /* the stream's last chunk */
};

struct reply {
	int32_t status; /* 0, or -1: the chunk did not open (the bytes that follow are zero) */
	uint32_t len;	/* clear bytes that follow */
};

/* The App's side of the run's channel (one socket for both ways, or two FIFOs). */
static struct {
	const char *config;
	int to_worker, from_worker;
} chan;
static struct rts_worker worker;

/*
 * Moves iov[0..n) whole through fd, reading or writing, whatever the
 * partial transfers (iov is used up). 0, or -1 with errno (0 at end-of-file).
 */
static int move_all(int fd, struct iovec *iov, int n, int writing)
{
	while (n > 0) {
		ssize_t r = writing ? writev(fd, iov, n) : readv(fd, iov, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		for (; n > 0 && (size_t)r >= iov->iov_len; n--, iov++)
			r -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return 0;
}

static const char *why(void)
{
	return errno ? strerror(errno) : "the other side closed the channel";
}

/* The worker's buffers, touched before it says it is ready (aligned: a record's map is read in place). */
static _Alignas(16) uint8_t w_sealed[RTS_SEALED_MAX];
static uint8_t w_clear[RTS_CHUNK];

static int worker_ready(int ready)
{
	memset(w_sealed, 0, sizeof(w_sealed));
	memset(w_clear, 0, sizeof(w_clear));
	return rts_worker_ready(ready);
}

/* The worker's loop: a reply for every request, until the last chunk's. */
static int serve_stream(struct rts_decryptor *d, const char *config, int in, int out)
{
	for (uint32_t i = 0;; i++) {
		struct request rq;
		struct reply rp;
		size_t clear_len;
		struct iovec h = { &rq, sizeof(rq) }, body = { w_sealed, 0 };
		struct iovec r[2] = { { &rp, sizeof(rp) }, { w_clear, 0 } };

		if (move_all(in, &h, 1, 0)) {
			fprintf(stderr, "rts_study: %s worker: request %u: %s\n", config, i, why());
			return 1;
		}
		if (rq.len == 0 || rq.len > RTS_SEALED_MAX) {
			fprintf(stderr, "rts_study: %s worker: request %u of %u bytes\n", config, i, rq.len);
			return 1;
		}
		body.iov_len = rq.len;
		if (move_all(in, &body, 1, 0)) {
			fprintf(stderr, "rts_study: %s worker: request %u: %s\n", config, i, why());
			return 1;
		}
		rp.status = rts_decryptor_open(d, config, i, rq.final != 0, w_sealed, rq.len, w_clear,
					       &clear_len);
		rp.len = (uint32_t)clear_len;
		r[1].iov_len = rp.len;
		if (move_all(out, r, 2, 1)) {
			fprintf(stderr, "rts_study: %s worker: reply %u: %s\n", config, i, why());
			return 1;
		}
		if (rp.status)
			return 1;
		if (rq.final)
			return 0;
	}
}

static int fd_run(const struct rts_stream *s)
{
	static uint8_t clear[RTS_CHUNK];

	for (uint32_t i = 0; i < s->chunks; i++) {
		size_t rec_len, len = rts_unit_clear_len(s, i);
		const uint8_t *rec = rts_unit(s, i, &rec_len);
		struct request rq = { .len = (uint32_t)rec_len, .final = (uint32_t)rts_chunk_final(s, i) };
		struct reply rp;
		struct iovec out[2] = { { &rq, sizeof(rq) }, { (void *)rec, rq.len } };
		struct iovec in[2] = { { &rp, sizeof(rp) }, { clear, len } };

		if (move_all(chan.to_worker, out, 2, 1) || move_all(chan.from_worker, in, 2, 0)) {
			fprintf(stderr, "rts_study: %s: chunk %u: %s\n", chan.config, i, why());
			return -1;
		}
		if (rp.status || rts_chunk_check(s, chan.config, i, clear, rp.len))
			return -1;
	}
	return 0;
}

static void close_channel(void)
{
	if (chan.from_worker >= 0 && chan.from_worker != chan.to_worker)
		close(chan.from_worker);
	if (chan.to_worker >= 0)
		close(chan.to_worker);
	chan.to_worker = chan.from_worker = -1;
}

/* A run that failed ends its worker first: it would report the closed channel. */
static int fd_stop(int ok, long *csw)
{
	if (!ok)
		rts_worker_abort(&worker);
	close_channel();
	return ok ? rts_worker_stop(&worker, csw) : 0;
}

static int socket_serve(struct rts_decryptor *d, int ready, void *arg)
{
	int fd = *(int *)arg;

	if (worker_ready(ready))
		return 1;
	return serve_stream(d, "socket", fd, fd);
}

static int socket_start(const struct rts_stream *s)
{
	int sv[2], rc;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		fprintf(stderr, "rts_study: socket: socketpair: %s\n", strerror(errno));
		return -1;
	}
	chan.config = "socket";
	chan.to_worker = chan.from_worker = sv[0];
	rc = rts_worker_start(&worker, "socket", s, socket_serve, &sv[1], sv[0]);
	close(sv[1]);
	if (!rc && rts_worker_wait_ready(&worker)) {
		rts_worker_abort(&worker);
		rc = -1;
	}
	if (rc)
		close_channel();
	return rc;
}

const struct rts_config rts_config_socket = {
	.name = "socket",
	.start = socket_start,
	.run = fd_run,
	.stop = fd_stop,
};

/* The FIFOs' directory and names; dir[0] == 0: not made. */
static char dir[PATH_MAX], fifo_in[PATH_MAX + 8], fifo_out[PATH_MAX + 8];

static void fifo_teardown(void)
{
	if (!dir[0])
		return;
	if (unlink(fifo_in) && errno != ENOENT)
		fprintf(stderr, "rts_study: fifo: %s: %s\n", fifo_in, strerror(errno));
	if (unlink(fifo_out) && errno != ENOENT)
		fprintf(stderr, "rts_study: fifo: %s: %s\n", fifo_out, strerror(errno));
	if (rmdir(dir))
		fprintf(stderr, "rts_study: fifo: %s: %s\n", dir, strerror(errno));
	dir[0] = 0;
}

static int fifo_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(dir, sizeof(dir), "%s/rts_study.XXXXXX", tmp && *tmp ? tmp : "/tmp");

	if (n < 0 || (size_t)n >= sizeof(dir) || !mkdtemp(dir)) {
		fprintf(stderr, "rts_study: fifo: cannot make a directory %s: %s\n", dir,
			n < 0 || (size_t)n >= sizeof(dir) ? "name too long" : strerror(errno));
		dir[0] = 0;
		return -1;
	}
	snprintf(fifo_in, sizeof(fifo_in), "%s/in", dir);
	snprintf(fifo_out, sizeof(fifo_out), "%s/out", dir);
	if (mkfifo(fifo_in, 0600) || mkfifo(fifo_out, 0600)) {
		fprintf(stderr, "rts_study: fifo: mkfifo in %s: %s\n", dir, strerror(errno));
		fifo_teardown();
		return -1;
	}
	return 0;
}

/*
 * The worker opens its reading end without waiting for a writer, then its
 * writing end (the App has the reader open already), says it is ready, and
 * polls for the first request: until the App opens its end for writing, a
 * read would see end-of-file, while poll waits for a writer's data.
 */
static int fifo_serve(struct rts_decryptor *d, int ready, void *arg)
{
	struct pollfd p = { .events = POLLIN };
	int out;

	(void)arg;
	p.fd = open(fifo_in, O_RDONLY | O_NONBLOCK);
	out = open(fifo_out, O_WRONLY);
	if (p.fd < 0 || out < 0) {
		fprintf(stderr, "rts_study: fifo worker: open %s: %s\n", p.fd < 0 ? fifo_in : fifo_out,
			strerror(errno));
		return 1;
	}
	if (worker_ready(ready))
		return 1;
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (fcntl(p.fd, F_SETFL, 0)) {
		fprintf(stderr, "rts_study: fifo worker: fcntl: %s\n", strerror(errno));
		return 1;
	}
	return serve_stream(d, "fifo", p.fd, out);
}

/* A FIFO end of the App's: blocking from now on, with room for a whole request or reply. */
static int fifo_ready_end(int fd)
{
	return fcntl(fd, F_SETFL, 0) || fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES) < 0 ? -1 : 0;
}

/*
 * No open here can wait for a worker that died: the App opens its reading
 * end before the fork without waiting (the worker's open for writing then
 * finds a reader), and its writing end once the worker has said it is
 * ready, so holds its reading end.
 */
static int fifo_start(const struct rts_stream *s)
{
	chan.config = "fifo";
	chan.to_worker = -1;
	chan.from_worker = open(fifo_out, O_RDONLY | O_NONBLOCK);
	if (chan.from_worker < 0) {
		fprintf(stderr, "rts_study: fifo: open %s: %s\n", fifo_out, strerror(errno));
		return -1;
	}
	if (rts_worker_start(&worker, "fifo", s, fifo_serve, NULL, chan.from_worker)) {
		close_channel();
		return -1;
	}
	if (rts_worker_wait_ready(&worker))
		goto fail;
	chan.to_worker = open(fifo_in, O_WRONLY | O_NONBLOCK);
	if (chan.to_worker < 0 || fifo_ready_end(chan.to_worker) || fifo_ready_end(chan.from_worker)) {
		fprintf(stderr, "rts_study: fifo: opening %s for writing, or sizing the pipes: %s\n",
			fifo_in, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	rts_worker_abort(&worker);
	close_channel();
	return -1;
}

const struct rts_config rts_config_fifo = {
	.name = "fifo",
	.setup = fifo_setup,
	.start = fifo_start,
	.run = fd_run,
	.stop = fd_stop,
	.teardown = fifo_teardown,
};
