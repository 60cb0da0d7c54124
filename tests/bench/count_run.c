/* SPDX-License-Identifier: Apache-2.0 */
/*
 * count_run: runs a program R times, each run between two marks of
 * qemu/bench.sh's counting plugin (measure_mark, the hint ara_bench
 * executes around a batch), so that the plugin reports the guest
 * instructions of one whole run: the program's, its children's and the
 * kernel's on their behalf. qemu/lib/count.sh uses it for what is not one
 * operation of ara_bench (Lua under the RTM against the plain interpreter,
 * docs/performance.md).
 *
 * It pins itself to the CPU it starts on; the program and everything it
 * starts inherit that, so the work happens on the vCPU the marks count.
 * The program's output goes to FILE (default /dev/null): a serial console
 * would add its own work to the count. A run that does not exit 0 stops
 * count_run with status 1 and FILE's name; the marks of the runs before
 * it stay paired.
 *
 * usage: count_run [--repeats R] [--output FILE] -- PROGRAM [ARG...]
 * exit status: 0 every run exited 0; 1 a run failed or could not start;
 * 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure.h"

static int usage(const char *self)
{
	fprintf(stderr, "usage: %s [--repeats R] [--output FILE] -- PROGRAM [ARG...]\n", self);
	return 2;
}

/* One run: PROGRAM's exit status, or -1 (errno) if it could not be started or waited for. */
static int run_once(char **argv, const char *output)
{
	int status;
	pid_t child;

	measure_mark();
	child = fork();
	if (child == 0) {
		int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &status, 0) != child) {
		measure_mark();
		return -1;
	}
	measure_mark();
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	const char *output = "/dev/null";
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
			output = argv[i + 1];
		} else {
			return usage(argv[0]);
		}
	}
	if (i + 1 >= argc)
		return usage(argv[0]);
	argv += i + 1;
	if (measure_pin_here() < 0) {
		fprintf(stderr, "count_run: cannot pin to a CPU: %s\n", strerror(errno));
		return 1;
	}
	for (long r = 1; r <= repeats; r++) {
		int st = run_once(argv, output);

		if (st < 0) {
			fprintf(stderr, "count_run: run %ld of %s: %s\n", r, argv[0], strerror(errno));
			return 1;
		}
		if (st != 0) {
			fprintf(stderr, "count_run: run %ld of %s exited with status %d (126: %s could not "
				"be opened, 127: the program could not be run); its output is in %s\n",
				r, argv[0], st, output, output);
			return 1;
		}
	}
	printf("count_run: %ld run(s) of %s, each exited 0\n", repeats, argv[0]);
	return 0;
}
