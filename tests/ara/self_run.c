/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include "self_run.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int self_run(const char *self, const char *const *args, struct self_run *r)
{
	const char *argv[8] = { self }; /* the rest NULL */
	size_t argc = 1;
	int fds[2];
	ssize_t n;
	pid_t pid;

	for (const char *const *a = args; *a; a++) {
		if (argc + 1 >= sizeof(argv) / sizeof(argv[0])) {
			fprintf(stderr, "self_run: too many arguments\n");
			return -1;
		}
		argv[argc++] = *a;
	}
	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		perror("self_run: pipe or fork");
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(self, (char *const *)argv);
		perror("self_run: execv");
		_exit(127);
	}
	close(fds[1]);
	r->len = 0;
	while ((n = read(fds[0], r->out + r->len, sizeof(r->out) - r->len)) > 0)
		r->len += (size_t)n;
	close(fds[0]);
	if (waitpid(pid, &r->status, 0) != pid) {
		perror("self_run: waitpid");
		return -1;
	}
	return 0;
}

int self_run_has(const struct self_run *r, const void *s, size_t n)
{
	return memmem(r->out, r->len, s, n) != NULL;
}
