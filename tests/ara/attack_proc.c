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



static int mem_fd; /* an open /proc/<pid>/mem */

static ssize_t mem_read(void *dst, uint64_t src, size_t len)
{
	return pread(mem_fd, dst, len, (off_t)src);
}

/* Reads every readable DOM0 range through fd, and shows what leaked. */
static void read_dom0_through(int fd)
{
	mem_fd = fd;
	attack_exploit_reads(mem_read);
}

/* fd: the result of one open attempt, which must fail with want_errno. */
static int judge(const char *what, int fd, int want_errno)
{
	int rc = attack_refused(what, fd, want_errno);

	if (fd >= 0)
		read_dom0_through(fd);
	return rc;
}

static int attack_proc_self_mem_read(void)
{
	return judge("open(/proc/self/mem, O_RDONLY)", open("/proc/self/mem", O_RDONLY), EACCES);
}

/* Every writable DOM0 range: /proc/self/mem must reach none. */
static int attack_proc_self_mem_write(void)
{
	int fd = open("/proc/self/mem", O_RDWR);

	if (fd >= 0) {
		for (size_t i = 0; i < attack_n_dom0; i++) {
			uint64_t word = 0x4141414141414141ull;

			if (attack_dom0[i].perms[1] == 'w' &&
			    pwrite(fd, &word, sizeof(word), (off_t)attack_dom0[i].start) == sizeof(word)) {
				printf("BREACH: wrote 8 bytes into DOM0 at 0x%llx\n",
				       (unsigned long long)attack_dom0[i].start);
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

/*
 * With O_PATH the kernel's openat ignores O_CREAT, O_EXCL and O_TMPFILE's
 * file-making part: through a link made in /tmp, "a new file" is the
 * link's target, /proc/self/mem, and O_PATH | O_TMPFILE opens a directory
 * (/proc/self/map_files). Each must be checked as the open it is: refused.
 */
static int attack_proc_mem_opath_ignored_flags(void)
{
	char link[] = "/tmp/ara-opath-XXXXXX";
	int t = mkstemp(link), fd, rc;

	if (t < 0 || close(t) || unlink(link) || symlink("/proc/self/mem", link)) {
		printf("FAIL: a link in /tmp: %s\n", strerror(errno));
		return 1;
	}
	fd = openat(AT_FDCWD, link, O_PATH | O_CREAT | O_EXCL, 0600);
	rc = attack_refused("openat(a link to /proc/self/mem, O_PATH | O_CREAT | O_EXCL)", fd, EACCES);
	unlink(link);
	fd = openat(AT_FDCWD, "/proc/self/map_files", O_PATH | O_TMPFILE, 0600);
	return attack_refused("openat(/proc/self/map_files, O_PATH | O_TMPFILE)", fd, EACCES) | rc;
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

static const struct attack_entry attacks[] = {
	{ "proc_self_mem_read", attack_proc_self_mem_read },
	{ "proc_self_mem_write", attack_proc_self_mem_write },
	{ "proc_task_mem", attack_proc_task_mem },
	{ "proc_mem_dirfd", attack_proc_mem_dirfd },
	{ "proc_mem_opath_reopen", attack_proc_mem_opath_reopen },
	{ "proc_mem_openat2", attack_proc_mem_openat2 },
	{ "proc_mem_opath_ignored_flags", attack_proc_mem_opath_ignored_flags },
	{ "proc_mem_bind_mount", attack_proc_mem_bind_mount },
};

int main(int argc, char **argv)
{
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
