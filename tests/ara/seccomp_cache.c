/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the kernel caches of ARA's filter, against the generated head
 * (libara/seccomp/cache_head.h). Runs outside ARA, as root: starts
 * cache_app under ara-loader, reads /proc/<its pid>/seccomp_cache (Linux's
 * CONFIG_SECCOMP_CACHE_DEBUG, which the TPM guest's kernel has; reading it
 * needs CAP_SYS_ADMIN, which ARA drops in the App), and requires
 * "aarch64 N ALLOW" exactly for the numbers the head passes on arch and nr
 * (the kernel's own emulation, seccomp_is_const_allow(), mirrored by
 * tests/unit/bpf_interp.c), "FILTER" for every other one, and no AArch32
 * number cached. Its own file, with no filter, lists nothing.
 *
 * usage: seccomp_cache LOADER APP HEAD_FILE
 */
#include <errno.h>
#include <linux/audit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_interp.h"
#include "check.h"

/* Linux 6.12's NR_syscalls on arm64: the lines the kernel prints for aarch64. */
#define KERNEL_NR 463
/* As tests/unit/test_seccomp_cache.c: 240 today. */
#define CACHEABLE_FLOOR 230

static struct sock_filter head[4096];

static size_t read_head(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(head, sizeof(head[0]), sizeof(head) / sizeof(head[0]), f);
	fclose(f);
	return n;
}

/* Checks the file against the head; returns the numbers it lists as ALLOW for aarch64. */
static int check_cache_file(const char *path, size_t head_len)
{
	FILE *f = fopen(path, "r");
	char arch[16], status[16];
	int nr, allowed = 0, lines = 0;

	check(f != NULL, "%s: %s", path, strerror(errno));
	if (!f)
		return -1;
	while (fscanf(f, "%15s %d %15s", arch, &nr, status) == 3) {
		const int allow = strcmp(status, "ALLOW") == 0;

		check(allow || strcmp(status, "FILTER") == 0, "%s: %s %d %s", path, arch, nr, status);
		if (strcmp(arch, "aarch64") != 0) {
			check(!allow, "%s: %s %d is cached (AArch32 calls must meet the filter)", path, arch, nr);
			continue;
		}
		check(nr == lines, "%s: line %d is number %d", path, lines, nr);
		lines++;
		allowed += allow;
		if (allow != bpf_const_allow(head, head_len, (uint32_t)nr, AUDIT_ARCH_AARCH64))
			check(0, "%s: the kernel says %s for %d, the head %s", path, status, nr,
			      allow ? "does not pass it" : "passes it");
	}
	check(feof(f), "%s: a line that is not 'ARCH NR ALLOW|FILTER'", path);
	fclose(f);
	check(lines == 0 || lines == KERNEL_NR, "%s: %d aarch64 lines, not %d", path, lines, KERNEL_NR);
	return allowed;
}

int main(int argc, char **argv)
{
	int to_app[2], from_app[2], status;
	char path[64];
	size_t head_len;
	long app_pid;
	FILE *out;
	pid_t pid;
	int own, cached;

	if (argc != 4) {
		fprintf(stderr, "usage: seccomp_cache LOADER APP HEAD_FILE\n");
		return 2;
	}
	head_len = read_head(argv[3]);
	check(head_len > 0, "%s: no head", argv[3]);
	/* Without a filter, the kernel lists nothing: what follows comes from ARA's. */
	own = check_cache_file("/proc/self/seccomp_cache", head_len);
	check(own == 0, "/proc/self/seccomp_cache lists %d numbers without a filter", own);

	if (pipe(to_app) || pipe(from_app)) {
		perror("seccomp_cache: pipe");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(to_app[0], 0);
		dup2(from_app[1], 1);
		close(to_app[1]);
		close(from_app[0]);
		execv(argv[1], (char *const[]){ argv[1], argv[2], NULL });
		_exit(127);
	}
	close(to_app[0]);
	close(from_app[1]);
	out = fdopen(from_app[0], "r");
	check(pid > 0 && out && fscanf(out, "ready %ld", &app_pid) == 1, "the App did not start");
	if (check_failures() == 0) {
		snprintf(path, sizeof(path), "/proc/%ld/seccomp_cache", app_pid);
		cached = check_cache_file(path, head_len);
		check(cached >= CACHEABLE_FLOOR, "%s: %d numbers cached, fewer than %d", path, cached,
		      CACHEABLE_FLOOR);
		printf("ara-evidence: the kernel caches %d of %d aarch64 numbers of an ARA App's filter, "
		       "the head's\n", cached, KERNEL_NR);
	}
	close(to_app[1]); /* the App's end-of-file: it exits */
	if (pid > 0) {
		check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the App did not exit 0");
	}
	return check_report("seccomp_cache: the kernel's cache of ARA's filter");
}
