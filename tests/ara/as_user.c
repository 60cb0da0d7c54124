/* SPDX-License-Identifier: Apache-2.0 */
/*
 * as_user UID COMMAND [ARG...]: runs COMMAND as user and group UID, with no
 * supplementary groups and no capabilities left (a plain setuid from root
 * clears them all), so that a test can run the attack suite as an
 * unprivileged user in the guest, where everything else runs as root.
 * Test-only; not an App (it never runs under ARA itself).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long uid;

	if (argc < 3) {
		fprintf(stderr, "usage: %s UID COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	errno = 0;
	uid = strtoul(argv[1], &end, 10);
	if (errno || *end || uid == 0 || uid > 0xfffffffeul) {
		fprintf(stderr, "as_user: '%s' is not a non-root user ID\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid)) {
		fprintf(stderr, "as_user: cannot become user %lu: %s\n", uid, strerror(errno));
		return 2;
	}
	if (geteuid() == 0 || getuid() == 0 || prctl(PR_CAPBSET_READ, 0) < 0) {
		fprintf(stderr, "as_user: still root after setresuid\n");
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "as_user: cannot run %s: %s\n", argv[2], strerror(errno));
	return 127;
}
