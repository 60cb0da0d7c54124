/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parts of rts_study (rts_study.c, the paper's RTS case study) and what
 * they share: the two workloads' streams (rts_stream.c: gcm, sealed chunks;
 * rts_cenc.c: cenc, the samples of a fragmented MP4, read by rts_fmp4.c),
 * the decryptor and the worker process that holds it (rts_worker.c), the
 * five configurations (rts_inproc.c, rts_ipc_shm.c, rts_ipc_fd.c) and the
 * report (rts_report.c). A stream is a run of units, each handed to the
 * decryption component as one record of at most RTS_SEALED_MAX bytes: a
 * sealed chunk (gcm) or an encrypted sample with its IV and subsample map
 * (cenc). A function returning int returns 0, or -1 after saying
 * why on stderr, unless its comment says otherwise.
 */
#ifndef ARA_BENCH_RTS_STUDY_H
#define ARA_BENCH_RTS_STUDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <mbedtls/aes.h>
#include <mbedtls/gcm.h>

#include "cenc_sample.h"
#include "chunk_format.h"

#define RTS_CHUNK ARA_RTS_CHUNK_MAX			    /* clear bytes of a chunk: 64 KiB */
#define RTS_SEALED_MAX (RTS_CHUNK + ARA_RTS_TAG_BYTES) /* a chunk as sealed; any unit's record */

/* The study's gcm content key and its key ID (rts_stream.c); cenc's (rts_cenc.c). */
extern const uint8_t rts_key[16];
extern const uint8_t rts_key_id[ARA_RTS_KEY_ID_BYTES];
extern const uint8_t rts_cenc_key[16], rts_cenc_key_id[16];

enum rts_workload { RTS_GCM, RTS_CENC };

struct rts_cenc_media; /* rts_cenc.c */

/* A stream of one workload and the clear media it must decrypt to. */
struct rts_stream {
	enum rts_workload workload;
	size_t size;	 /* clear bytes */
	uint32_t chunks; /* units: chunks (gcm) or samples (cenc) */
	/* gcm */
	uint8_t header[ARA_RTS_HEADER_BYTES];
	uint8_t *clear;	 /* size bytes */
	uint8_t *sealed; /* the chunks, RTS_SEALED_MAX apart, after the header */
	/* cenc: the media whose samples, looped, are the units */
	const struct rts_cenc_media *media;
};

/*
 * gcm: pseudo-random clear text of size bytes (a fixed seed), sealed in
 * 64 KiB chunks; cenc: media's samples until they hold size bytes.
 */
int rts_stream_make(struct rts_stream *s, enum rts_workload w, size_t size,
		    const struct rts_cenc_media *media);
void rts_stream_free(struct rts_stream *s);
const char *rts_workload_name(enum rts_workload w);

/* Unit i's record and its length; its clear length; whether it is the stream's last. */
const uint8_t *rts_unit(const struct rts_stream *s, uint32_t i, size_t *len);
size_t rts_unit_clear_len(const struct rts_stream *s, uint32_t i);
static inline int rts_chunk_final(const struct rts_stream *s, uint32_t i)
{
	return i == s->chunks - 1;
}

/*
 * What the App does with each clear unit, in every configuration: compares
 * it with the clear media. -1 (and says so): it differs.
 */
int rts_chunk_check(const struct rts_stream *s, const char *config, uint32_t i,
		    const uint8_t *clear, size_t len);

/*
 * The cenc workload (rts_cenc.c). The media: the fragmented MP4 at path,
 * its samples encrypted in memory (NULL after saying why).
 */
struct rts_cenc_media *rts_cenc_media_load(const char *path);
void rts_cenc_media_free(struct rts_cenc_media *m);
void rts_cenc_stream(struct rts_stream *s, const struct rts_cenc_media *m, size_t size);
const uint8_t *rts_cenc_unit(const struct rts_stream *s, uint32_t i, size_t *len);
size_t rts_cenc_clear_len(const struct rts_stream *s, uint32_t i);
int rts_cenc_check(const struct rts_stream *s, const char *config, uint32_t i,
		   const uint8_t *clear, size_t len);
/* A sample's record read: its parts, pointing into it. -1: not a record. */
struct rts_cenc_record {
	const uint8_t *sample, *iv;
	const struct ara_cenc_subsample *map;
	uint32_t len, iv_len, count;
};
int rts_cenc_record(const uint8_t *in, size_t in_len, struct rts_cenc_record *r);
/*
 * The key the decryption component of config holds: cenc's, or one bit off
 * for the configuration rts_wrong_key_config names (--wrong-key: a test
 * that the run then fails).
 */
extern const char *rts_wrong_key_config;
const uint8_t *rts_cenc_key_held(const char *config);
int rts_cenc_decryptor_init(mbedtls_aes_context *aes, const char *config);
int rts_cenc_open(mbedtls_aes_context *aes, const char *config, uint32_t i, const uint8_t *in,
		  size_t in_len, uint8_t *out, size_t *out_len);

/* The samples of a fragmented MP4 (rts_fmp4.c): where each lies, its length, its track's kind. */
struct rts_fmp4_sample {
	size_t at;
	uint32_t len;
	uint8_t video;
};
/* buf: the file at path, whole. *samples is malloc'ed. */
int rts_fmp4_samples(const char *path, const uint8_t *buf, size_t len,
		     struct rts_fmp4_sample **samples, uint32_t *n, uint32_t *fragments);

/* The decryption component: the content key, one stream's header (gcm). */
struct rts_decryptor {
	enum rts_workload workload;
	mbedtls_gcm_context gcm; /* gcm */
	struct ara_rts_header h;
	mbedtls_aes_context aes; /* cenc */
};

/* Opens the stream: gcm by its header (the key for its key ID), cenc's key; the key schedule. */
int rts_decryptor_init(struct rts_decryptor *d, const char *config, const struct rts_stream *s);
/* Decrypts unit i's record (in_len bytes) into out, which may be in; *out_len its clear bytes. */
int rts_decryptor_open(struct rts_decryptor *d, const char *config, uint32_t i, int final,
		       const uint8_t *in, size_t in_len, uint8_t *out, size_t *out_len);
void rts_decryptor_free(struct rts_decryptor *d);

/*
 * The worker: a forked process holding the decryptor for one run. In it,
 * serve(d, ready, arg) sets up its side of the channel, calls
 * rts_worker_ready(ready) and decrypts until the last chunk; what it
 * returns is the worker's exit status. The worker dies with the App
 * (PR_SET_PDEATHSIG).
 */
struct rts_worker {
	const char *config;
	pid_t pid;
	int ready;	    /* the App's end of the ready pipe, until rts_worker_wait_ready */
	long children_csw;  /* RUSAGE_CHILDREN's context switches before the fork */
};

typedef int rts_serve_fn(struct rts_decryptor *d, int ready, void *arg);

/* Forks the worker for stream s; app_fd (-1: none) is closed in the worker. */
int rts_worker_start(struct rts_worker *w, const char *config, const struct rts_stream *s,
		     rts_serve_fn *serve, void *arg, int app_fd);
/* In the worker: tells the App it is set up. */
int rts_worker_ready(int ready);
/* In the App: waits until the worker is set up. */
int rts_worker_wait_ready(struct rts_worker *w);
/* Whether the worker has exited (not yet waited for). */
int rts_worker_gone(const struct rts_worker *w);
/*
 * Waits for the worker, which must exit 0 (having decrypted the last
 * chunk), and adds to *csw its context switches, voluntary and involuntary,
 * over its whole life (RUSAGE_CHILDREN).
 */
int rts_worker_stop(struct rts_worker *w, long *csw);
/* Ends a worker whose run failed: SIGKILL, then waits for it. */
void rts_worker_abort(struct rts_worker *w);
/* getrusage(who)'s context switches, voluntary and involuntary. */
long rts_switches(int who);

/*
 * A configuration: how the App has a stream decrypted. setup and teardown
 * (either may be NULL) run once for the whole study; start and stop around
 * each run, untimed; run, timed, has every chunk decrypted and checked
 * (rts_chunk_check). stop(ok, &csw) ends the run (ok: run succeeded; else
 * stop only cleans up) and adds to csw the switches of a worker.
 */
struct rts_config {
	const char *name;
	int (*setup)(void);
	int (*start)(const struct rts_stream *s);
	int (*run)(const struct rts_stream *s);
	int (*stop)(int ok, long *csw);
	void (*teardown)(void);
};

extern const struct rts_config rts_config_none, rts_config_ara, rts_config_shm,
	rts_config_socket, rts_config_fifo;

/* One run's figures. */
struct rts_sample {
	double seconds;
	long csw; /* context switches: the App's during the run, and its worker's */
};

/* The CSV (rts_report.c): the header line, one row per run (workload: s's); path names the file in messages. */
int rts_csv_header(FILE *f, const char *path);
int rts_csv_row(FILE *f, const char *path, const char *config, const struct rts_stream *s,
		unsigned int repeat, const struct rts_sample *x);
/*
 * The summary of one stream size on stderr: samples[c * repeats + r] is
 * configuration c's run r; configuration 0 (none) is the baseline of the
 * overheads, configuration 1 (ara) the unit of their ratios.
 */
void rts_summary(const struct rts_stream *s, const struct rts_config *const *configs,
		 size_t n_configs, const struct rts_sample *samples, unsigned int repeats);

#endif
