/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program spawn_app starts with execve (never with ara-loader): it must
 * be running under ARA, without a manifest, with spawn_app as its parent
 * identity. Its first argument says what else to do:
 *   info PARENT_SHA256_HEX   the checks above, then exit 42
 *   exit N                   exit N
 *   signal                   raise SIGTERM
 *   write BYTES              write BYTES bytes to stdout
 *   nest N PARENT_HEX        exec itself with N - 1 until 0, then exit 40 + N0
 *   mask                     exit 0 if SIGUSR1 is blocked (the mask survived exec)
 *   attack                   ptrace and process_vm_readv the parent: both refused
 *   wait                     read stdin until end of file, then exit 0
 *   grandchild APP_HEX       exit 0 if under ARA with a parent that is not APP_HEX
 *   comm NAME                exit 0 if the process's name (/proc/self/comm) is NAME
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/hex.h"
#include "por_sysreg.h"

static int under_ara(const char *parent_hex)
{
	struct ara_info_arg info;
	static const uint8_t zero[32];
	char parent[65];
	int status;

	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: spawn-child: POR_EL0 is 0x%llx, not DOM2's row\n",
		       (unsigned long long)por_el0_read());
		return 0;
	}
	status = secure_call(ARA_FID_INFO, &info);
	if (status != ARA_OK) {
		printf("FAIL: spawn-child: secure_call(INFO): %s\n", ara_strerror(status));
		return 0;
	}
	ara_hex_encode(info.exec_parent_sha256, 32, parent);
	if (memcmp(info.manifest_sha256, zero, 32) != 0 || memcmp(info.app_sha256, zero, 32) == 0 ||
	    strcmp(parent, parent_hex) != 0) {
		printf("FAIL: spawn-child: identity: no manifest expected, parent %s, expected %s\n",
		       parent, parent_hex);
		return 0;
	}
	return 1;
}

static int attack_parent(void)
{
	pid_t parent = getppid();
	char buf[16];
	struct iovec l = { buf, sizeof(buf) }, r = { (void *)&buf, sizeof(buf) };
	long pt = ptrace(PTRACE_ATTACH, parent, NULL, NULL);
	int pt_errno = errno;
	ssize_t vm = process_vm_readv(parent, &l, 1, &r, 1, 0);
	int vm_errno = errno;

	if (pt != -1 || pt_errno != EPERM || vm != -1 || vm_errno != EPERM) {
		printf("FAIL: spawn-child: ptrace %ld (%s), process_vm_readv %zd (%s) of the parent\n",
		       pt, strerror(pt_errno), vm, strerror(vm_errno));
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "info") && argc == 3)
		return under_ara(argv[2]) ? 42 : 1;
	if (!strcmp(argv[1], "exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(argv[1], "signal"))
		return raise(SIGTERM) == 0 ? 3 : 4;
	if (!strcmp(argv[1], "write") && argc == 3) {
		static char block[4096];
		long left = atol(argv[2]);

		memset(block, 'a', sizeof(block));
		while (left > 0) {
			ssize_t w = write(1, block, left < 4096 ? (size_t)left : sizeof(block));

			if (w <= 0)
				return 5;
			left -= w;
		}
		return 0;
	}
	if (!strcmp(argv[1], "nest") && argc == 4) {
		int n = atoi(argv[2]);
		char next[16];

		if (!under_ara(argv[3]))
			return 1;
		if (n == 0)
			return 40;
		snprintf(next, sizeof(next), "%d", n - 1);
		/* Each generation is its own App: the next one's parent is this program. */
		struct ara_info_arg info;
		char self_hex[65];

		if (secure_call(ARA_FID_INFO, &info) != ARA_OK)
			return 1;
		ara_hex_encode(info.app_sha256, 32, self_hex);
		execl(argv[0], argv[0], "nest", next, self_hex, (char *)NULL);
		printf("FAIL: spawn-child: exec of itself: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "mask")) {
		sigset_t now;

		return sigprocmask(SIG_BLOCK, NULL, &now) == 0 && sigismember(&now, SIGUSR1) ? 0 : 6;
	}
	if (!strcmp(argv[1], "grandchild") && argc == 3) {
		struct ara_info_arg info;
		static const uint8_t zero[32];
		char parent[65];

		if (por_el0_read() != ARA_POR_DOM2 || secure_call(ARA_FID_INFO, &info) != ARA_OK)
			return 1;
		ara_hex_encode(info.exec_parent_sha256, 32, parent);
		return memcmp(info.exec_parent_sha256, zero, 32) && strcmp(parent, argv[2]) ? 0 : 1;
	}
	if (!strcmp(argv[1], "comm") && argc == 3) {
		char comm[32] = "";
		FILE *f = fopen("/proc/self/comm", "r");

		if (!f || !fgets(comm, sizeof(comm), f))
			return 1;
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, argv[2]) != 0) {
			printf("spawn-child: comm is \"%s\", expected \"%s\"\n", comm, argv[2]);
			return 1;
		}
		return 0;
	}
	if (!strcmp(argv[1], "wait")) {
		char c;

		while (read(0, &c, 1) > 0)
			;
		return 0;
	}
	if (!strcmp(argv[1], "attack"))
		return attack_parent() ? 0 : 1;
	return 2;
}
