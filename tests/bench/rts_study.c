/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rts_study: the ARA paper's RTS case study (section 7.1), in the POE guest.
 * A media player hands encrypted media to a decryption component that
 * holds the content key; the study compares what it costs to isolate that
 * component in ARA (DOM0 of the player's own process) with isolating it in
 * a separate process reached over IPC, against no isolation. Two
 * workloads (--workload), each a stream of units:
 *   gcm     the paper's primary: 64 KiB chunks of the RTS's own AES-GCM
 *           chunk format (docs/rts.md), made in memory at start from a
 *           fixed key and pseudo-random clear text (rts_stream.c);
 *   cenc    the samples of a real fragmented MP4 (H.264 and AAC, 1-second
 *           fragments, made at build time by FFmpeg: make_rts_media.sh),
 *           encrypted at start with Common Encryption's 'cenc' scheme
 *           (AES-CTR, a subsample map per video sample), looped to the
 *           stream's size (rts_cenc.c).
 * Each configuration decrypts a stream whole, unit by unit, and the App
 * checks every clear unit against the clear media:
 *   none    the App decrypts (mbedtls GCM, or cenc_sample.c's CTR with the
 *           subsample map, on the AES instructions): the baseline;
 *   ara     ARA's RTS (RTS_STREAM_OPEN, _CHUNK, _CLOSE, or RTS_CENC_OPEN,
 *           _DECRYPT, _CLOSE through secure_call), the keys provisioned to
 *           this App's ARA instance (rts_inproc.c);
 *   shm     a worker process with the key and the same code as none, fed
 *           through a 4 MiB shared-memory ring, futex wake-ups
 *           (rts_ipc_shm.c);
 *   socket  the same worker over an AF_UNIX stream socket pair;
 *   fifo    the same over two named FIFOs (rts_ipc_fd.c).
 * The paper decrypts 2, 4 and 8 GB on a Cortex-A76; the emulator runs about
 * 100 times slower, so the default streams are 4, 8 and 16 MiB (--sizes),
 * 1/512 of the paper's, for both workloads. A cenc stream ends with the
 * first whole sample that reaches its size, so its size_bytes is a little
 * over the size asked for.
 *
 * A run is one stream decrypted whole by one configuration. Only the chunks
 * are timed (CLOCK_MONOTONIC), between two of the counting plugin's marks
 * (measure_mark: qemu/lib/count.sh can count a run's guest instructions):
 * opening the stream (ARA's STREAM_OPEN, none's key schedule, forking the
 * worker and its key schedule) comes before, closing it after. Context
 * switches per run (getrusage, voluntary and involuntary): the App's over
 * the timed part (RUSAGE_SELF, ARA's threads included) plus its worker's
 * over the worker's whole life, a few of them outside the timed part
 * (RUSAGE_CHILDREN across the wait for it). Everything runs on the one CPU
 * the study starts on, the workers too, as the paper measures on one core.
 * Repetitions are interleaved (run 1 of every configuration, then run
 * 2, ...), so that a change in the host's load affects all alike.
 *
 * Output: CSV on stdout, or in --csv FILE, one row per run
 * (workload,config,size_bytes,repeat,seconds,ctx_switches,chunks; chunks:
 * the units, chunks or samples); on stderr per workload and stream size,
 * the summary (rts_report.c). An ARA App: run it as
 *   ARA_EVIDENCE=dev-insecure ara-loader ./rts_study [options]
 * Exit status: 0 every run decrypted its stream whole and right; 1 a run
 * failed (a unit that did not decrypt or came back different, an IPC or
 * ARA error), or the study could not be set up, read its media or write its
 * output; 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "measure.h"
#include "rts_study.h"

#define MAX_REPEATS 1000u
#define MAX_SIZES 16
#define MAX_SIZE (UINT64_C(1) << 30)

/* none first: the baseline of the overheads; ara second: the unit of their ratios. */
static const struct rts_config *const configs[] = {
	&rts_config_none, &rts_config_ara, &rts_config_shm, &rts_config_socket, &rts_config_fifo,
};
#define N_CONFIGS (sizeof(configs) / sizeof(configs[0]))

struct options {
	size_t sizes[MAX_SIZES], n_sizes;
	unsigned int repeats;
	int gcm, cenc;	   /* the workloads to run */
	const char *csv;   /* NULL: stdout */
	const char *media; /* cenc's fragmented MP4 */
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: ARA_EVIDENCE=dev-insecure ara-loader %s [--workload W] [--sizes LIST]\n"
		"       [--repeats R] [--csv FILE] [--media FILE]\n"
		"  --workload W  gcm (AES-GCM chunks), cenc (CENC samples of a fragmented MP4)\n"
		"                or all (default: all, gcm first)\n"
		"  --sizes LIST  stream sizes in bytes, comma-separated, each with an optional\n"
		"                K or M suffix (KiB, MiB), 1 byte to 1 GiB (default 4M,8M,16M)\n"
		"  --repeats R   runs per configuration and size, 1..%u (default 20)\n"
		"  --csv FILE    the CSV rows to FILE instead of stdout\n"
		"  --media FILE  cenc's clear fragmented MP4 (default %s)\n"
		"  --wrong-key CONFIG  a test: CONFIG's decryption component holds a cenc key\n"
		"                one bit off, so its first cenc run must fail\n"
		"  --help        this text\n"
		"  --version     the version\n"
		"configurations: none, ara, shm, socket, fifo (each run decrypts the stream whole).\n"
		"exit status: 0 all runs right, 1 a run failed or no output, 2 usage\n",
		prog, MAX_REPEATS, RTS_MEDIA);
}

/* One size: digits, then K, M or nothing. */
static int parse_size(const char *s, size_t len, size_t *out)
{
	uint64_t v = 0, unit = 1;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > MAX_SIZE)
			return -1;
	}
	if (i + 1 == len && (s[i] == 'K' || s[i] == 'M'))
		unit = s[i++] == 'K' ? 1024 : 1024 * 1024;
	if (i == 0 || i != len || v == 0 || v > MAX_SIZE / unit)
		return -1;
	*out = (size_t)(v * unit);
	return 0;
}

static int parse_sizes(const char *list, struct options *o)
{
	const char *p = list;

	o->n_sizes = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (o->n_sizes == MAX_SIZES || parse_size(p, len, &o->sizes[o->n_sizes])) {
			fprintf(stderr, "rts_study: --sizes '%s': expected up to %d sizes from 1 to 1G, "
				"comma-separated (e.g. 256K,4M)\n", list, MAX_SIZES);
			return -1;
		}
		o->n_sizes++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Returns 0 to run, 1 after --help or --version, 2 on a usage error (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "sizes", required_argument, NULL, 's' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "csv", required_argument, NULL, 'c' },
		{ "workload", required_argument, NULL, 'w' },
		{ "media", required_argument, NULL, 'm' },
		{ "wrong-key", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	unsigned long v;
	int c;

	*o = (struct options){ .sizes = { 4u << 20, 8u << 20, 16u << 20 }, .n_sizes = 3, .repeats = 20,
			       .gcm = 1, .cenc = 1, .media = RTS_MEDIA };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_sizes(optarg, o))
				return 2;
			break;
		case 'r':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (optarg[0] < '0' || optarg[0] > '9' || *end || errno || v < 1 || v > MAX_REPEATS) {
				fprintf(stderr, "rts_study: --repeats '%s': expected a whole number from 1 to %u\n",
					optarg, MAX_REPEATS);
				return 2;
			}
			o->repeats = (unsigned int)v;
			break;
		case 'c':
			o->csv = optarg;
			break;
		case 'w':
			o->gcm = !strcmp(optarg, "gcm") || !strcmp(optarg, "all");
			o->cenc = !strcmp(optarg, "cenc") || !strcmp(optarg, "all");
			if (!o->gcm && !o->cenc) {
				fprintf(stderr, "rts_study: --workload '%s': expected gcm, cenc or all\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			o->media = optarg;
			break;
		case 'k':
			rts_wrong_key_config = NULL;
			for (size_t k = 0; k < N_CONFIGS; k++)
				if (!strcmp(optarg, configs[k]->name))
					rts_wrong_key_config = configs[k]->name;
			if (!rts_wrong_key_config) {
				fprintf(stderr, "rts_study: --wrong-key '%s': expected none, ara, shm, "
					"socket or fifo\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 1;
		case 'V':
			printf("rts_study " ARA_PROJECT_VERSION "\n");
			return 1;
		default: /* getopt_long said what was wrong */
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rts_study: unexpected argument '%s'\n", argv[optind]);
		usage(stderr, argv[0]);
		return 2;
	}
	return 0;
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* One run of configuration c on stream s. */
static int run_once(const struct rts_config *c, const struct rts_stream *s, struct rts_sample *x)
{
	struct timespec t0, t1;
	long csw;
	int rc;

	if (c->start(s))
		return -1;
	csw = -rts_switches(RUSAGE_SELF);
	measure_mark();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = c->run(s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	measure_mark();
	csw += rts_switches(RUSAGE_SELF);
	if (c->stop(rc == 0, &csw) || rc)
		return -1;
	x->seconds = seconds(&t0, &t1);
	x->csw = csw;
	return 0;
}

/* Every run of one workload's stream of one size, its CSV rows and its summary. */
static int study_size(const struct options *o, enum rts_workload w, const struct rts_cenc_media *m,
		      size_t size, struct rts_sample *samples, FILE *csv, const char *csv_path)
{
	struct rts_stream s;
	int rc = 0;

	if (rts_stream_make(&s, w, size, m))
		return -1;
	for (unsigned int r = 0; r < o->repeats && !rc; r++) {
		for (size_t c = 0; c < N_CONFIGS && !rc; c++) {
			struct rts_sample *x = &samples[c * o->repeats + r];

			rc = run_once(configs[c], &s, x) ||
			     rts_csv_row(csv, csv_path, configs[c]->name, &s, r + 1, x);
		}
	}
	if (!rc)
		rts_summary(&s, configs, N_CONFIGS, samples, o->repeats);
	rts_stream_free(&s);
	return rc ? -1 : 0;
}

static void teardown(size_t n)
{
	while (n-- > 0) {
		if (configs[n]->teardown)
			configs[n]->teardown();
	}
}

int main(int argc, char **argv)
{
	struct rts_sample *samples = NULL;
	struct rts_cenc_media *media = NULL;
	const char *csv_path = "stdout";
	struct options o;
	FILE *csv = stdout;
	size_t ready = 0;
	int rc;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (o.csv) {
		csv_path = o.csv;
		csv = fopen(csv_path, "w");
		if (!csv) {
			fprintf(stderr, "rts_study: %s: %s\n", csv_path, strerror(errno));
			return 1;
		}
	}
	/* A worker that died must show as an error here, not kill the App quietly. */
	signal(SIGPIPE, SIG_IGN);
	if (measure_pin_here() < 0) {
		fprintf(stderr, "rts_study: cannot pin to one CPU: %s\n", strerror(errno));
		goto fail;
	}
	samples = calloc(N_CONFIGS * o.repeats, sizeof(*samples));
	if (!samples) {
		fprintf(stderr, "rts_study: no memory for the samples\n");
		goto fail;
	}
	if (o.cenc && !(media = rts_cenc_media_load(o.media)))
		goto fail;
	for (; ready < N_CONFIGS; ready++) {
		if (configs[ready]->setup && configs[ready]->setup())
			goto fail;
	}
	if (rts_csv_header(csv, csv_path))
		goto fail;
	for (int w = RTS_GCM; w <= RTS_CENC; w++) {
		if (!(w == RTS_GCM ? o.gcm : o.cenc))
			continue;
		for (size_t z = 0; z < o.n_sizes; z++) {
			if (study_size(&o, (enum rts_workload)w, media, o.sizes[z], samples, csv,
				       csv_path))
				goto fail;
		}
	}
	teardown(ready);
	rts_cenc_media_free(media);
	free(samples);
	if (csv != stdout && fclose(csv)) {
		fprintf(stderr, "rts_study: %s: %s\n", csv_path, strerror(errno));
		return 1;
	}
	return 0;

fail:
	teardown(ready);
	rts_cenc_media_free(media);
	free(samples);
	fprintf(stderr, "rts_study: FAIL: the study stopped; the rows written so far stand\n");
	return 1;
}
