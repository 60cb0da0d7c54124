/* SPDX-License-Identifier: Apache-2.0 */
/*
 * count_run: runs a program R times, each run between two marks of
 * qemu/bench.sh's counting plugin (measure_mark, the hint ara_bench
 * executes around a batch), so that the plugin reports the guest
 * instructions of one whole run: the program's, its children's and the
 * kernel's on their behalf. qemu/lib/count.sh uses it for what is not one
 * operation of ara_bench (Lua under the RTM against the plain interpreter,
 * docs/performance.md), and the RTM case study's driver
 * (tests/rtm/study/rtm_study.sh) to time each run.
 *
 * It pins itself to the CPU it starts on; the program and everything it
 * starts inherit that, so the work happens on the vCPU the marks count.
 * The program's output goes to FILE (default /dev/null): a serial console
 * would add its own work to the count; its standard error to ERRFILE
 * (default: FILE), its standard input comes from INFILE (default: count_run's).
 * After each run count_run prints
 *   count_run: run R: S s wall, U s user, Y s sys
 * (CLOCK_MONOTONIC around the run; the run's and its children's CPU times).
 * A run that does not exit 0 stops count_run with status 1 and FILE's name;
 * the marks of the runs before it stay paired.
 *
 * usage: count_run [--repeats R] [--output FILE] [--errors ERRFILE]
 *                  [--input INFILE] -- PROGRAM [ARG...]
 * exit status: 0 every run exited 0; 1 a run failed or could not start;
 * 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

static int usage(const char *self)
{
	fprintf(stderr, "usage: %s [--repeats R] [--output FILE] [--errors ERRFILE] [--input INFILE] "
		"-- PROGRAM [ARG...]\n", self);
	return 2;
}

/* Where a run's standard streams go (NULL: count_run's own). */
struct streams {
	const char *output, *errors, *input;
};

/* Opens path onto descriptor target: 0, or -1. */
static int redirect(const char *path, int flags, int target)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	return fd < 0 || dup2(fd, target) < 0 ? -1 : 0;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/*
 * One run: PROGRAM's exit status, or -1 (errno) if it could not be started
 * or waited for. Prints the run's times.
 */
static int run_once(char **argv, const struct streams *io, long r)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t child;

	measure_mark();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = fork();
	if (child == 0) {
		const int out = O_WRONLY | O_CREAT | O_TRUNC;

		/* One open file for both when they are one: an offset of its own each would overwrite. */
		if (redirect(io->output, out, 1) < 0 ||
		    (strcmp(io->errors, io->output) == 0 ? dup2(1, 2) : redirect(io->errors, out, 2)) < 0 ||
		    (io->input && redirect(io->input, O_RDONLY, 0) < 0))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (child < 0 || wait4(child, &status, 0, &ru) != child) {
		measure_mark();
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	measure_mark();
	printf("count_run: run %ld: %.6f s wall, %.6f s user, %.6f s sys\n", r,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       seconds(ru.ru_utime), seconds(ru.ru_stime));
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	struct streams io = { "/dev/null", NULL, NULL };
	long repeats = 1;
	int i = 1;

	for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
		char *end;

		if (i + 1 >= argc)
			return usage(argv[0]);
		if (strcmp(argv[i], "--repeats") == 0) {
			errno = 0;
			repeats = strtol(argv[i + 1], &end, 10);
			if (errno || *end || repeats < 1 || repeats > 1000)
				return usage(argv[0]);
		} else if (strcmp(argv[i], "--output") == 0) {
			io.output = argv[i + 1];
		} else if (strcmp(argv[i], "--errors") == 0) {
			io.errors = argv[i + 1];
		} else if (strcmp(argv[i], "--input") == 0) {
			io.input = argv[i + 1];
		} else {
			return usage(argv[0]);
		}
	}
	if (i + 1 >= argc)
		return usage(argv[0]);
	if (!io.errors)
		io.errors = io.output;
	argv += i + 1;
	if (measure_pin_here() < 0) {
		fprintf(stderr, "count_run: cannot pin to a CPU: %s\n", strerror(errno));
		return 1;
	}
	for (long r = 1; r <= repeats; r++) {
		int st = run_once(argv, &io, r);

		if (st < 0) {
			fprintf(stderr, "count_run: run %ld of %s: %s\n", r, argv[0], strerror(errno));
			return 1;
		}
		if (st != 0) {
			fprintf(stderr, "count_run: run %ld of %s exited with status %d (126: %s, %s or "
				"the input could not be opened, 127: the program could not be run); its "
				"output is in %s\n", r, argv[0], st, io.output, io.errors, io.output);
			return 1;
		}
	}
	printf("count_run: %ld run(s) of %s, each exited 0\n", repeats, argv[0]);
	return 0;
}
