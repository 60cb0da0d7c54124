/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs a command with an effective group ID other than its real one, which
 * the kernel starts in secure-execution mode (AT_SECURE): ara-loader must
 * refuse to start there, since the dynamic linker would ignore its
 * --preload of libara and the App would run without ARA. Run as root.
 *
 * usage: secure_exec COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	/* Real group 0, effective and saved 65534: the exec is a secure one. */
	if (setresgid(0, 65534, 65534) != 0) {
		printf("FAIL: setresgid: %s\n", strerror(errno));
		return 1;
	}
	execv(argv[1], argv + 1);
	printf("FAIL: exec %s: %s\n", argv[1], strerror(errno));
	return 1;
}
