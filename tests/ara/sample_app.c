/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sample App of the acceptance test: an ordinary multi-threaded,
 * dynamically linked program that prints, reads a file, and calls ARA
 * 1,000,000 times from several threads, checking every result.
 *
 * usage: sample_app FILE [THREADS] [CALLS]
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "por_sysreg.h"

#define ECHO_EVERY 1000

/*
 * The App's own first code (its constructors run before main, after
 * libara's): ARA must have finished and left DOM2's row by then.
 */
static uint64_t por_at_first_app_code;

__attribute__((constructor)) static void first_app_code(void)
{
	por_at_first_app_code = por_el0_read();
}

struct worker {
	pthread_t thread;
	unsigned int id;
	uint64_t calls, echoes, wrong;
};

static void *work(void *p)
{
	struct worker *w = p;

	for (uint64_t i = 0; i < w->calls; i++) {
		int st = secure_call(ARA_FID_NULL, NULL);

		if (st != ARA_OK) {
			fprintf(stderr, "thread %u: null call %" PRIu64 ": %s\n", w->id, i,
				ara_strerror(st));
			w->wrong++;
		}
		if (i % ECHO_EVERY == 0) {
			struct ara_echo_arg a = { .in = ((uint64_t)w->id << 40) ^ i, .out = 0 };

			st = secure_call(ARA_FID_ECHO, &a);
			if (st != ARA_OK || a.out != ara_echo_expect(a.in) || por_el0_read() != ARA_POR_DOM2)
				w->wrong++;
			w->echoes++;
		}
	}
	return NULL;
}

static long read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	long total = 0;
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		total += (long)n;
	fclose(f);
	return total;
}

int main(int argc, char **argv)
{
	unsigned int threads = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) : 4;
	uint64_t calls = argc > 3 ? strtoull(argv[3], NULL, 0) : 1000000;
	struct ara_info_arg info;
	struct worker *w;
	uint64_t wrong = 0, echoes = 0;
	long bytes;
	int st;

	printf("sample-app: started\n");
	printf("ara-evidence: sample-app: the App's first constructor ran with POR_EL0 0x%" PRIx64
	       " (DOM2's row is 0x%x)\n", por_at_first_app_code, ARA_POR_DOM2);
	if (por_at_first_app_code != ARA_POR_DOM2)
		return 1;
	if (argc < 2 || threads == 0 || threads > 64 || calls < threads) {
		fprintf(stderr, "usage: %s FILE [THREADS 1..64] [CALLS >= THREADS]\n", argv[0]);
		return 2;
	}
	bytes = read_file(argv[1]);
	if (bytes < 0)
		return 1;
	printf("sample-app: read %ld bytes from %s\n", bytes, argv[1]);

	memset(&info, 0, sizeof(info));
	st = secure_call(ARA_FID_INFO, &info);
	if (st != ARA_OK) {
		printf("sample-app: ARA_FID_INFO: %s\n", ara_strerror(st));
		return 1;
	}
	printf("sample-app: ARA %u.%u.%u, %" PRIu64 " DOM2 words scanned, %" PRIu64
	       " POR_EL0 writes neutralised\n",
	       info.version >> 16, (info.version >> 8) & 0xff, info.version & 0xff,
	       info.scanned_words, info.patched_writes);

	/* The measured identity: a test compares it with sha256sum of the files. */
	printf("ara-identity: app ");
	for (size_t i = 0; i < sizeof(info.app_sha256); i++)
		printf("%02x", info.app_sha256[i]);
	printf("\nara-identity: libara ");
	for (size_t i = 0; i < sizeof(info.libara_sha256); i++)
		printf("%02x", info.libara_sha256[i]);
	printf("\n");

	w = calloc(threads, sizeof(*w));
	if (!w)
		return 1;
	for (unsigned int i = 0; i < threads; i++) {
		w[i].id = i;
		w[i].calls = calls / threads + (i < calls % threads);
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (unsigned int i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		wrong += w[i].wrong;
		echoes += w[i].echoes;
	}
	free(w);
	printf("ara-evidence: sample-app: %" PRIu64 " null calls and %" PRIu64
	       " echo calls from %u threads: %" PRIu64 " wrong\n",
	       calls, echoes, threads, wrong);
	return wrong ? 1 : 0;
}
