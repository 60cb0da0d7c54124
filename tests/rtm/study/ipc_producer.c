/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The producer side of test_ipc (test_ipc.c): a program linked with the
 * IPC baseline's hooks (ipc_hooks.c) that calls them by hand, as
 * instrumented code would.
 *
 *   ipc_producer count N   N transfers, then a normal exit
 *   ipc_producer cut       one transfer, then the hand-off socket is shut
 *                          down under the hooks, then another transfer
 *                          (which must end the process)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara/rtm_runtime.h"

#define DEST ((void *)(uintptr_t)0x7f0000123450u)

/* Shuts down every socket the process holds (the hooks' is the only one). */
static int cut_sockets(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	struct stat st;
	int cut = 0;

	if (!d) {
		perror("ipc_producer: /proc/self/fd");
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] != '.' && fd != dirfd(d) && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    shutdown(fd, SHUT_RDWR) == 0)
			cut++;
	}
	closedir(d);
	return cut;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "count") == 0) {
		long n = atol(argv[2]);

		for (long i = 0; i < n; i++) {
			__ara_rtm_icall(DEST);
			__ara_rtm_ijmp(DEST);
			__ara_rtm_ret(DEST);
		}
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "cut") == 0) {
		__ara_rtm_icall(DEST);
		if (cut_sockets() != 1) {
			fprintf(stderr, "ipc_producer: not exactly one socket to cut\n");
			return 2;
		}
		__ara_rtm_icall(DEST);
		fprintf(stderr, "ipc_producer: a transfer went on without its logger\n");
		return 3;
	}
	fprintf(stderr, "usage: ipc_producer count N | cut\n");
	return 2;
}
