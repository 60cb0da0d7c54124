/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study's decryption component, and the process it runs in when a
 * process boundary isolates it. The decryptor is ara_rts_open (the chunk
 * format's own; cenc: cenc_sample.c's ara_cenc_decrypt, rts_cenc.c) on the
 * tools' mbedtls, which uses the CPU's AES and PMULL
 * instructions where it finds them, as DOM0's does: none calls it in the
 * App; shm, socket and fifo in a worker forked for each run, which holds
 * the key and serves that run's stream over its channel. The worker is set
 * up (key schedule, channel, buffers touched) before the App starts its
 * clock, and says so over a pipe: a worker that dies first is an
 * end-of-file there, not a hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rts_study.h"

int rts_decryptor_init(struct rts_decryptor *d, const char *config, const struct rts_stream *s)
{
	d->workload = s->workload;
	if (s->workload == RTS_CENC)
		return rts_cenc_decryptor_init(&d->aes, config);
	mbedtls_gcm_init(&d->gcm);
	/* As ARA's STREAM_OPEN: the key is found by the header's key ID. */
	if (ara_rts_header_decode(s->header, ARA_RTS_HEADER_BYTES, &d->h) ||
	    memcmp(d->h.key_id, rts_key_id, sizeof(rts_key_id))) {
		fprintf(stderr, "rts_study: %s: no key for this stream header\n", config);
		return -1;
	}
	if (mbedtls_gcm_setkey(&d->gcm, MBEDTLS_CIPHER_ID_AES, rts_key, 8 * sizeof(rts_key))) {
		fprintf(stderr, "rts_study: %s: mbedtls_gcm_setkey failed\n", config);
		mbedtls_gcm_free(&d->gcm);
		return -1;
	}
	return 0;
}

int rts_decryptor_open(struct rts_decryptor *d, const char *config, uint32_t i, int final,
		       const uint8_t *in, size_t in_len, uint8_t *out, size_t *out_len)
{
	if (d->workload == RTS_CENC)
		return rts_cenc_open(&d->aes, config, i, in, in_len, out, out_len);
	*out_len = in_len > ARA_RTS_TAG_BYTES ? in_len - ARA_RTS_TAG_BYTES : 0;
	if (!ara_rts_open(&d->gcm, &d->h, i, final, in, in_len, out))
		return 0;
	fprintf(stderr, "rts_study: %s: chunk %u (%zu bytes) does not open\n", config, i, in_len);
	return -1;
}

void rts_decryptor_free(struct rts_decryptor *d)
{
	/* Both zeroize the key schedule. */
	if (d->workload == RTS_CENC)
		mbedtls_aes_free(&d->aes);
	else
		mbedtls_gcm_free(&d->gcm);
}

long rts_switches(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

int rts_worker_start(struct rts_worker *w, const char *config, const struct rts_stream *s,
		     rts_serve_fn *serve, void *arg, int app_fd)
{
	pid_t app = getpid();
	int ready[2];

	*w = (struct rts_worker){ .config = config, .ready = -1 };
	if (pipe(ready)) {
		fprintf(stderr, "rts_study: %s: pipe: %s\n", config, strerror(errno));
		return -1;
	}
	w->children_csw = rts_switches(RUSAGE_CHILDREN);
	fflush(NULL); /* nothing buffered may be written twice */
	w->pid = fork();
	if (w->pid < 0) {
		fprintf(stderr, "rts_study: %s: fork: %s\n", config, strerror(errno));
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	if (w->pid == 0) {
		struct rts_decryptor d;
		int st;

		close(ready[0]);
		if (app_fd >= 0)
			close(app_fd);
		/* No worker outlives the App, even one that died before this. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != app)
			_exit(1);
		if (rts_decryptor_init(&d, config, s))
			_exit(1);
		st = serve(&d, ready[1], arg);
		rts_decryptor_free(&d);
		_exit(st);
	}
	close(ready[1]);
	w->ready = ready[0];
	return 0;
}

int rts_worker_ready(int ready)
{
	ssize_t r;

	while ((r = write(ready, "r", 1)) < 0 && errno == EINTR)
		;
	close(ready);
	if (r == 1)
		return 0;
	fprintf(stderr, "rts_study: the worker cannot say it is ready: %s\n", strerror(errno));
	return -1;
}

int rts_worker_wait_ready(struct rts_worker *w)
{
	ssize_t r;
	char c;

	while ((r = read(w->ready, &c, 1)) < 0 && errno == EINTR)
		;
	close(w->ready);
	w->ready = -1;
	if (r == 1)
		return 0;
	fprintf(stderr, "rts_study: %s: the worker ended before it was set up\n", w->config);
	return -1;
}

int rts_worker_gone(const struct rts_worker *w)
{
	siginfo_t si = { .si_pid = 0 };

	return waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid != 0;
}

static pid_t reap(struct rts_worker *w, int *status)
{
	pid_t r;

	while ((r = waitpid(w->pid, status, 0)) < 0 && errno == EINTR)
		;
	if (w->ready >= 0)
		close(w->ready);
	w->ready = -1;
	return r;
}

int rts_worker_stop(struct rts_worker *w, long *csw)
{
	int status;

	if (reap(w, &status) != w->pid) {
		fprintf(stderr, "rts_study: %s: waitpid: %s\n", w->config, strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "rts_study: %s: the worker failed (wait status %#x)\n", w->config,
			status);
		return -1;
	}
	*csw += rts_switches(RUSAGE_CHILDREN) - w->children_csw;
	return 0;
}

void rts_worker_abort(struct rts_worker *w)
{
	int status, gone;

	if (w->pid <= 0) /* no worker: kill(0) would be the whole process group */
		return;
	gone = rts_worker_gone(w);
	if (!gone)
		kill(w->pid, SIGKILL);
	if (reap(w, &status) == w->pid && gone)
		fprintf(stderr, "rts_study: %s: the worker had ended (wait status %#x)\n", w->config,
			status);
}
