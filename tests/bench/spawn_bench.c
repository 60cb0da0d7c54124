/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spawn_bench [--iterations N] [--repeats R] PROGRAM: starts PROGRAM (no
 * arguments) N times with posix_spawn and waits for each, R times over, and
 * prints the median, min and max nanoseconds per start. qemu/bench.sh runs
 * it twice in one guest boot: natively, and under ara-loader, where every
 * start is an execve that ARA mediates (libara/src/dom0/execve.c) and
 * PROGRAM then runs under ARA too. Not a test: nothing is asserted.
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPEATS 101

extern char **environ;

static long parse(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *end || v < 1 ? -1 : v;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long iterations = 50, repeats = 5;
	double per[MAX_REPEATS];
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--iterations"))
			iterations = parse(argv[i + 1]);
		else if (!strcmp(argv[i], "--repeats"))
			repeats = parse(argv[i + 1]);
		else
			iterations = -1;
	}
	if (i + 1 != argc || iterations < 1 || repeats < 1 || repeats > MAX_REPEATS) {
		fprintf(stderr, "usage: spawn_bench [--iterations N] [--repeats R<=%d] PROGRAM\n",
			MAX_REPEATS);
		return 2;
	}
	for (long r = 0; r < repeats; r++) {
		uint64_t start = now_ns();

		for (long n = 0; n < iterations; n++) {
			char *args[] = { argv[i], NULL };
			pid_t pid;
			int status, err = posix_spawn(&pid, argv[i], NULL, NULL, args, environ);

			if (err != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0) {
				fprintf(stderr, "FAIL: spawn_bench: starting %s: %s\n", argv[i],
					err ? strerror(err) : "it did not exit 0");
				return 1;
			}
		}
		per[r] = (double)(now_ns() - start) / (double)iterations;
	}
	qsort(per, (size_t)repeats, sizeof(per[0]), cmp);
	printf("spawn_bench: %ld starts x %ld: median %.0f ns, min %.0f, max %.0f per start\n",
	       iterations, repeats, per[repeats / 2], per[0], per[repeats - 1]);
	return 0;
}
