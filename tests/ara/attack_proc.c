/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App opens /proc/<pid>/mem, through which the kernel reads
 * and writes any mapping ignoring keys (IV4), by every path at hand. Each
 * attempt must fail with EACCES (ARA performs App code's opens and refuses
 * memory files) or EPERM (the filter refuses mounts); if it succeeds, the
 * program goes on to read DOM0 through it and prints what it finds around
 * DOM0's canary, which the ctest treats as a leak.
 *
 * usage: attack_proc ATTACK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/domains.h"
#include "attack.h"

#define CANARY "ARA-DOM0-CANARY"

static struct range dom0[512];
static size_t n_dom0;

/* Reads every readable DOM0 range through fd; prints the canary if found. */
static void read_dom0_through(int fd)
{
	static unsigned char buf[1 << 20];

	for (size_t i = 0; i < n_dom0; i++) {
		size_t len = dom0[i].end - dom0[i].start;
		ssize_t got;

		if (dom0[i].perms[0] != 'r')
			continue;
		if (len > sizeof(buf))
			len = sizeof(buf);
		got = pread(fd, buf, len, (off_t)dom0[i].start);
		if (got <= 0)
			continue;
		unsigned char *hit = memmem(buf, (size_t)got, CANARY, sizeof(CANARY) - 1);
		if (hit) {
			printf("LEAK at 0x%llx: %.50s\n",
			       (unsigned long long)(dom0[i].start + (uint64_t)(hit - buf)), hit);
			return;
		}
	}
	printf("LEAK: DOM0 was readable through the file, the canary not found\n");
}

/* fd is the result of one open attempt; 0 if it was refused as it must be. */
static int judge(const char *what, int fd, int want_errno)
{
	if (fd >= 0) {
		printf("%s was not refused\n", what);
		read_dom0_through(fd);
		return 1;
	}
	if (errno != want_errno) {
		printf("%s failed, but not with %s: %s\n", what, strerror(want_errno), strerror(errno));
		return 1;
	}
	printf("ara-evidence: %s: refused with %s\n", what, strerror(errno));
	return 0;
}

static int attack_proc_self_mem_read(void)
{
	return judge("open(/proc/self/mem, O_RDONLY)", open("/proc/self/mem", O_RDONLY), EACCES);
}

/* The gate's control block: the one writable DOM0 page of the entry object's size. */
static int attack_proc_self_mem_write(void)
{
	int fd = open("/proc/self/mem", O_RDWR);

	if (fd >= 0) {
		for (size_t i = 0; i < n_dom0; i++) {
			uint64_t word = 0x4141414141414141ull;

			if (dom0[i].perms[1] == 'w' &&
			    pwrite(fd, &word, sizeof(word), (off_t)dom0[i].start) == sizeof(word)) {
				printf("BREACH: wrote 8 bytes into DOM0 at 0x%llx\n",
				       (unsigned long long)dom0[i].start);
				break;
			}
		}
	}
	return judge("open(/proc/self/mem, O_RDWR)", fd, EACCES);
}

static int attack_proc_task_mem(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%ld/mem", (long)syscall(SYS_gettid));
	return judge("open(/proc/self/task/<tid>/mem)", open(path, O_RDONLY), EACCES);
}

static int attack_proc_mem_dirfd(void)
{
	int dir = open("/proc/self", O_PATH | O_DIRECTORY);

	if (dir < 0) {
		printf("FAIL: open(/proc/self, O_PATH): %s\n", strerror(errno));
		return 1;
	}
	return judge("openat(/proc/self as a directory, \"mem\")", openat(dir, "mem", O_RDONLY), EACCES);
}

/* An O_PATH descriptor cannot read, but reopening it through /proc/self/fd can. */
static int attack_proc_mem_opath_reopen(void)
{
	int opath = open("/proc/self/mem", O_PATH);
	char path[64];

	if (opath < 0)
		return judge("open(/proc/self/mem, O_PATH)", opath, EACCES);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", opath);
	return judge("reopen of an O_PATH /proc/self/mem through /proc/self/fd", open(path, O_RDONLY),
		     EACCES);
}

static int attack_proc_mem_openat2(void)
{
	struct open_how how = { .flags = O_RDONLY };

	return judge("openat2(/proc/self/mem)",
		     (int)syscall(SYS_openat2, AT_FDCWD, "/proc/self/mem", &how, sizeof(how)), EACCES);
}

/* A bind mount would give the memory file a name ARA does not refuse. */
static int attack_proc_mem_bind_mount(void)
{
	char target[] = "/tmp/ara-bind-XXXXXX";
	int t = mkstemp(target), r;

	if (t < 0) {
		printf("FAIL: mkstemp: %s\n", strerror(errno));
		return 1;
	}
	close(t);
	r = mount("/proc/self/mem", target, NULL, MS_BIND, NULL);
	if (r == 0) {
		int rc = judge("bind mount of /proc/self/mem", open(target, O_RDONLY), EPERM);

		umount2(target, MNT_DETACH);
		unlink(target);
		return rc;
	}
	unlink(target);
	return judge("bind mount of /proc/self/mem", -1, EPERM);
}

static const struct {
	const char *name;
	int (*run)(void);
} attacks[] = {
	{ "proc_self_mem_read", attack_proc_self_mem_read },
	{ "proc_self_mem_write", attack_proc_self_mem_write },
	{ "proc_task_mem", attack_proc_task_mem },
	{ "proc_mem_dirfd", attack_proc_mem_dirfd },
	{ "proc_mem_opath_reopen", attack_proc_mem_opath_reopen },
	{ "proc_mem_openat2", attack_proc_mem_openat2 },
	{ "proc_mem_bind_mount", attack_proc_mem_bind_mount },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s ATTACK\n", argv[0]);
		return 2;
	}
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	n_dom0 = attack_ranges(ARA_PKEY_DOM0, dom0, sizeof(dom0) / sizeof(dom0[0]));
	if (n_dom0 < 4) {
		printf("FAIL: found %zu DOM0 ranges\n", n_dom0);
		return 1;
	}
	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++)
		if (strcmp(argv[1], attacks[i].name) == 0)
			return attacks[i].run();
	fprintf(stderr, "%s: no attack named %s\n", argv[0], argv[1]);
	return 2;
}
