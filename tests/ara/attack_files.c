/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App opens files that give what a denied system call would,
 * expose DOM0's state, or step out of the process (docs/security.md, class 4;
 * docs/files.md). ARA performs App code's opens and refuses each of these
 * file classes with EACCES, identified by what the kernel says about the
 * object, not by the path. If an open succeeds, the attack goes on to use
 * the file and prints what it got (the _unprotected twins, against libara
 * without the file classes, must show it), never changing the guest:
 * whatever it writes is the value it read, and sysrq-trigger is never
 * written.
 *
 * Objects the App could not make itself (ARA drops CAP_MKNOD, the filter
 * denies mounts) come from tests/ara/file_fixture.sh, named by
 * ARA_FILES_FIXTURE: "mem" (a node with /dev/mem's numbers, 1:1), "disk"
 * (a block device), and "tracing", "debug" and "cgroup" (tracefs, debugfs
 * and cgroup2 mounted).
 *
 * usage: attack_files ATTACK
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "attack.h"

#define PAGE 4096u

/* The fixture's object name, or NULL (and a FAIL line) without the fixture. */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("ARA_FILES_FIXTURE");

	if (!dir) {
		printf("FAIL: no ARA_FILES_FIXTURE (run under tests/ara/file_fixture.sh)\n");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static bool in_dom0(uint64_t addr)
{
	for (size_t i = 0; i < attack_n_dom0; i++)
		if (addr >= attack_dom0[i].start && addr < attack_dom0[i].end)
			return true;
	return false;
}

/* Reads a whole small file into buf (NUL-terminated); its length, or -1. */
static ssize_t read_small(int fd, char *buf, size_t cap)
{
	size_t got = 0;
	ssize_t r;

	while (got + 1 < cap && (r = read(fd, buf + got, cap - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
	return r < 0 ? -1 : (ssize_t)got;
}

/*
 * A thread blocked inside ARA: its open of a FIFO without a writer is
 * trapped, ARA's task reopens the FIFO (/proc/thread-self/fd/N) and waits
 * for a writer, and the App's thread waits for the task in the kernel, on
 * DOM0's stack, from DOM0's system-call page.
 */
static struct {
	char fifo[64];
	volatile pid_t tid;
	pthread_t thread;
} blocked;

static void *block_in_dom0(void *arg)
{
	int fd;

	(void)arg;
	blocked.tid = (pid_t)syscall(SYS_gettid);
	fd = open(blocked.fifo, O_RDONLY);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Starts the thread and waits until it sleeps in the kernel; 0, or 1 (FAIL). */
static int block_a_thread(void)
{
	char path[64], stat[512];
	const char *state;

	snprintf(blocked.fifo, sizeof(blocked.fifo), "/tmp/ara-files-fifo-%d", (int)getpid());
	unlink(blocked.fifo);
	if (mkfifo(blocked.fifo, 0600) != 0 || pthread_create(&blocked.thread, NULL, block_in_dom0, NULL)) {
		printf("FAIL: mkfifo or pthread_create: %s\n", strerror(errno));
		return 1;
	}
	for (int tries = 0; tries < 2000; tries++) {
		const struct timespec ms = { 0, 5000000 };
		int fd;

		nanosleep(&ms, NULL);
		if (!blocked.tid)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)blocked.tid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		read_small(fd, stat, sizeof(stat));
		close(fd);
		/*
		 * "tid (comm) S ...": the state follows the last ')'. The App's
		 * thread waits for ARA's task, which opens the FIFO (open.c), in
		 * the kernel's vfork wait: D.
		 */
		state = strrchr(stat, ')');
		if (state && state[1] == ' ' && (state[2] == 'S' || state[2] == 'D')) {
			printf("ara-evidence: thread %d sleeps in its trapped open of a FIFO\n", (int)blocked.tid);
			return 0;
		}
	}
	printf("FAIL: the thread did not block in its open of %s\n", blocked.fifo);
	return 1;
}

static void unblock_the_thread(void)
{
	int fd = open(blocked.fifo, O_WRONLY);

	if (fd >= 0)
		close(fd);
	pthread_join(blocked.thread, NULL);
	unlink(blocked.fifo);
}

/* /proc/<pid>/task/<tid>/syscall: the registers of a thread blocked in a system call. */
static int attack_task_syscall(void)
{
	char path[64], text[256];
	unsigned long long nr, a[6], sp, pc;
	int fd, rc;

	if (block_a_thread())
		return 1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)blocked.tid);
	fd = open(path, O_RDONLY);
	rc = attack_refused("open(/proc/self/task/<tid>/syscall) of a thread inside ARA", fd, EACCES);
	if (fd >= 0) {
		read_small(fd, text, sizeof(text));
		close(fd);
		if (sscanf(text, "%llu %llx %llx %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1], &a[2], &a[3],
			   &a[4], &a[5], &sp, &pc) == 9 && in_dom0(pc) && in_dom0(sp))
			printf("the registers of a thread inside ARA (system call %llu, x0 0x%llx): pc 0x%llx "
			       "and sp 0x%llx lie in DOM0\n",
			       nr, a[0], pc, sp);
		else
			printf("FAIL: read %s, not a thread inside DOM0\n", text);
	}
	unblock_the_thread();
	return rc;
}

/* /proc/<pid>/task/<tid>/stack: where a thread inside ARA sleeps in the kernel. */
static int attack_task_stack(void)
{
	char path[64], text[4096];
	int fd, rc;

	if (block_a_thread())
		return 1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stack", (int)blocked.tid);
	fd = open(path, O_RDONLY);
	rc = attack_refused("open(/proc/self/task/<tid>/stack) of a thread inside ARA", fd, EACCES);
	if (fd >= 0) {
		if (read_small(fd, text, sizeof(text)) < 0)
			printf("FAIL: read of the stack: %s\n", strerror(errno));
		for (char *c = text; *c; c++)
			if (*c == '\n')
				*c = ' ';
		printf("the kernel stack of a thread inside ARA: %s\n", text);
		close(fd);
	}
	unblock_the_thread();
	return rc;
}

/* /proc/self/pagemap: which of DOM0's pages are present, dirty, and (with CAP_SYS_ADMIN) where. */
static int attack_pagemap(void)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	int rc = attack_refused("open(/proc/self/pagemap)", fd, EACCES);
	size_t pages = 0, present = 0;

	if (fd < 0)
		return rc;
	for (size_t i = 0; i < attack_n_dom0; i++)
		for (uint64_t a = attack_dom0[i].start; a < attack_dom0[i].end; a += PAGE) {
			uint64_t entry;

			if (pread(fd, &entry, sizeof(entry), (off_t)(a / PAGE * 8)) != sizeof(entry))
				continue;
			pages++;
			present += entry >> 63;
		}
	printf("pagemap shows %zu of %zu DOM0 pages present\n", present, pages);
	close(fd);
	return rc;
}

/* /proc/kcore: physical memory, as an ELF core of the kernel's address space. */
static int kcore_fd, pagemap_fd;
static Elf64_Phdr kcore_load[64];
static size_t kcore_loads;

/* DOM0's bytes at src, read through kcore at the physical page pagemap names. */
static ssize_t kcore_read(void *dst, uint64_t src, size_t len)
{
	size_t done = 0;
	bool any = false;

	for (; done < len; done += PAGE) {
		uint64_t entry = 0, phys;

		memset((char *)dst + done, 0, PAGE);
		if (pread(pagemap_fd, &entry, sizeof(entry), (off_t)((src + done) / PAGE * 8)) != sizeof(entry) ||
		    !(entry >> 63) || !(entry & ((1ull << 55) - 1)))
			continue;
		phys = (entry & ((1ull << 55) - 1)) * PAGE;
		for (size_t i = 0; i < kcore_loads; i++)
			if (phys >= kcore_load[i].p_paddr && phys - kcore_load[i].p_paddr < kcore_load[i].p_memsz &&
			    pread(kcore_fd, (char *)dst + done, PAGE,
				  (off_t)(kcore_load[i].p_offset + phys - kcore_load[i].p_paddr)) == PAGE) {
				any = true;
				break;
			}
	}
	return any ? (ssize_t)len : -1;
}

static int attack_kcore(void)
{
	Elf64_Ehdr eh;
	int rc;

	kcore_fd = open("/proc/kcore", O_RDONLY);
	rc = attack_refused("open(/proc/kcore)", kcore_fd, EACCES);
	if (kcore_fd < 0)
		return rc;
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap_fd < 0 || pread(kcore_fd, &eh, sizeof(eh), 0) != sizeof(eh)) {
		printf("FAIL: pagemap or kcore's ELF header: %s\n", strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < eh.e_phnum && kcore_loads < 64; i++) {
		Elf64_Phdr ph;

		if (pread(kcore_fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * eh.e_phentsize)) == sizeof(ph) &&
		    ph.p_type == PT_LOAD && ph.p_paddr != (Elf64_Addr)-1)
			kcore_load[kcore_loads++] = ph;
	}
	printf("kcore: %zu loads with physical addresses; reading DOM0 through them\n", kcore_loads);
	attack_exploit_reads(kcore_read);
	return rc;
}

/* A node the App did not find in /dev, with /dev/mem's numbers: refused by number. */
static int attack_dev_mem_node(void)
{
	const char *path = fixture("mem");
	int fd, rc;

	if (!path)
		return 1;
	fd = open(path, O_RDONLY);
	rc = attack_refused("open of a node with /dev/mem's numbers (1:1) outside /dev", fd, EACCES);
	if (fd >= 0) {
		/* Not read: a read of physical memory this machine has no RAM at could fault the kernel. */
		printf("opened a node with /dev/mem's numbers (1:1) at %s\n", path);
		close(fd);
	}
	return rc;
}

/* /dev/userfaultfd: what the denied userfaultfd system call makes. */
static int attack_dev_userfaultfd(void)
{
	int fd = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	int rc = attack_refused("open(/dev/userfaultfd)", fd, EACCES);

	if (fd >= 0) {
		int uffd = ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC);
		struct uffdio_api api = { .api = UFFD_API };

		if (uffd >= 0 && ioctl(uffd, UFFDIO_API, &api) == 0)
			printf("made a userfaultfd through /dev/userfaultfd (UFFDIO_API: features 0x%llx)\n",
			       (unsigned long long)api.features);
		else
			printf("FAIL: /dev/userfaultfd opened, but no userfaultfd: %s\n", strerror(errno));
		close(fd);
	}
	return rc;
}

/*
 * A raw disk: a block device's first sector, which the fixture marked.
 * The test guest has no block device (its drivers are modules it lacks);
 * there the fixture's node names a disk that does not exist, and without
 * the file classes the kernel, not ARA, answers the open.
 */
static int attack_block_device(void)
{
	const char *path = fixture("disk");
	char sector[512];
	int fd, rc;

	if (!path)
		return 1;
	fd = open(path, O_RDONLY);
	if (fd < 0 && errno != EACCES)
		printf("the kernel, not ARA, answered the open of a block device: %s\n", strerror(errno));
	rc = attack_refused("open of a block device", fd, EACCES);
	if (fd >= 0) {
		if (pread(fd, sector, sizeof(sector), 0) == (ssize_t)sizeof(sector))
			printf("read the raw disk's first sector: %.20s\n", sector);
		else
			printf("FAIL: read of the block device: %s\n", strerror(errno));
		close(fd);
	}
	return rc;
}

/* A sysctl that makes the kernel run a program as root: written back unchanged. */
static int attack_modprobe(void)
{
	int fd = open("/proc/sys/kernel/modprobe", O_RDWR);
	int rc = attack_refused("open(/proc/sys/kernel/modprobe, O_RDWR)", fd, EACCES);
	char value[512];
	ssize_t len;

	if (fd < 0)
		return rc;
	len = read_small(fd, value, sizeof(value));
	if (len > 0 && lseek(fd, 0, SEEK_SET) == 0 && write(fd, value, (size_t)len) == len) {
		value[strcspn(value, "\n")] = '\0';
		printf("wrote /proc/sys/kernel/modprobe (back to its value, %s)\n", value);
	} else {
		printf("FAIL: write of modprobe's own value: %s\n", strerror(errno));
	}
	close(fd);
	return rc;
}

/*
 * The open race: ARA checks the object behind its O_PATH probe, then
 * reopens that object through /proc/thread-self/fd/N. Another thread puts
 * an O_PATH descriptor of modprobe (which may be opened O_PATH, since it
 * may be read) at the number the probe takes, the moment something else
 * is there; this thread opens a file of its own for writing, again and
 * again, and looks at what it got. ARA's probe and reopen live in a
 * descriptor table of its own, which the other thread cannot reach.
 */
#define RACE_ATTEMPTS 4000
static struct {
	int evil, slot;
	struct stat evil_st;
	int stop, in_open;
	unsigned int epoch, idle_epoch; /* the swapper is idle since open number epoch returned */
	unsigned long swaps;
} race;

/*
 * Swapped at once, the probe would be checked as modprobe and refused: the
 * swap must fall between the check and the reopen, so it waits a different
 * while each time. It swaps only while an open is under way: what the
 * open returned is then looked at undisturbed.
 */
static void *race_swap(void *arg)
{
	struct stat st;
	uint32_t lcg = 1;

	(void)arg;
	while (!__atomic_load_n(&race.stop, __ATOMIC_SEQ_CST)) {
		if (!__atomic_load_n(&race.in_open, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&race.idle_epoch, __atomic_load_n(&race.epoch, __ATOMIC_SEQ_CST),
					 __ATOMIC_SEQ_CST);
			continue;
		}
		if (fstat(race.slot, &st) != 0 || st.st_ino == race.evil_st.st_ino)
			continue;
		lcg = lcg * 1103515245u + 12345u;
		for (volatile uint32_t spin = (lcg >> 8) % 20000u; spin > 0; spin--)
			;
		if (dup3(race.evil, race.slot, 0) == race.slot)
			race.swaps++;
	}
	return NULL;
}

static int attack_open_race(void)
{
	char own[] = "/tmp/ara-open-race-XXXXXX";
	int own_fd = mkstemp(own), rc = 1, opened = 0, won = -1;
	pthread_t t;

	race.evil = open("/proc/sys/kernel/modprobe", O_PATH | O_CLOEXEC);
	if (own_fd < 0 || race.evil < 0 || fstat(race.evil, &race.evil_st) != 0) {
		printf("FAIL: set-up (own file, O_PATH modprobe): %s\n", strerror(errno));
		return 1;
	}
	close(own_fd);
	race.slot = dup(0); /* the lowest free number: where the next open's descriptor goes */
	close(race.slot);
	if (pthread_create(&t, NULL, race_swap, NULL) != 0) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	for (int i = 0; i < RACE_ATTEMPTS && won < 0; i++) {
		int fd, fl;
		struct stat st;

		__atomic_store_n(&race.in_open, 1, __ATOMIC_SEQ_CST);
		fd = open(own, O_RDWR | O_CLOEXEC);
		__atomic_add_fetch(&race.epoch, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&race.in_open, 0, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&race.idle_epoch, __ATOMIC_SEQ_CST) !=
		       __atomic_load_n(&race.epoch, __ATOMIC_SEQ_CST))
			;
		if (fd < 0)
			continue; /* the other thread closed or replaced one of ARA's descriptors */
		fl = fcntl(fd, F_GETFL);
		if (fstat(fd, &st) == 0 && st.st_ino == race.evil_st.st_ino &&
		    st.st_dev == race.evil_st.st_dev && fl >= 0 && !(fl & O_PATH) &&
		    (fl & O_ACCMODE) == O_RDWR)
			won = fd;
		else
			close(fd);
		opened++;
		if (won < 0) /* free the number again (the swapped-in modprobe, or nothing) */
			close(race.slot);
	}
	__atomic_store_n(&race.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	unlink(own);
	printf("ara-evidence: %d opens of a file of the App's own for writing, %lu descriptors "
	       "swapped in by another thread\n", opened, race.swaps);
	if (won >= 0) {
		char value[512];
		ssize_t len = read_small(won, value, sizeof(value));

		if (len > 0 && lseek(won, 0, SEEK_SET) == 0 && write(won, value, (size_t)len) == len) {
			value[strcspn(value, "\n")] = '\0';
			printf("won the open race: wrote /proc/sys/kernel/modprobe (back to its value, %s)\n",
			       value);
		} else {
			printf("FAIL: won the open race, but the write of modprobe's own value failed: %s\n",
			       strerror(errno));
		}
		printf("the open race was not refused\n");
		return 1;
	}
	if (opened == 0 || race.swaps == 0)
		printf("FAIL: the race did not run (%d opens, %lu swaps)\n", opened, race.swaps);
	else
		rc = 0;
	return rc;
}

/*
 * The same race for an executable mapping: ARA checks that the file behind
 * the descriptor is not on a noexec mount, then reads it into the code it
 * maps. Another thread keeps putting a file of a noexec mount and one of
 * /tmp behind the number, by turns; this thread maps the number
 * executable, again and again, and looks at what it got.
 */
#define MMAP_RACE_ATTEMPTS 4000
static struct {
	int slot, allowed, noexec;
	int stop;
} mmap_race;

static void *mmap_race_swap(void *arg)
{
	uint32_t lcg = 1;

	(void)arg;
	while (!__atomic_load_n(&mmap_race.stop, __ATOMIC_RELAXED)) {
		dup3(mmap_race.allowed, mmap_race.slot, 0);
		lcg = lcg * 1103515245u + 12345u;
		for (volatile uint32_t spin = (lcg >> 8) % 20000u; spin > 0; spin--)
			;
		dup3(mmap_race.noexec, mmap_race.slot, 0);
	}
	return NULL;
}

static int attack_mmap_noexec_race(void)
{
	const char *code = fixture("noexec/code");
	char allowed[] = "/tmp/ara-mmap-race-XXXXXX";
	int rc = 1, mapped = 0, won = 0;
	void *p;
	pthread_t t;

	if (!code)
		return 1;
	mmap_race.noexec = open(code, O_RDONLY | O_CLOEXEC);
	mmap_race.allowed = mkstemp(allowed);
	if (mmap_race.noexec < 0 || mmap_race.allowed < 0 ||
	    write(mmap_race.allowed, "ARA-ALLOWED-PAGE", 16) != 16) {
		printf("FAIL: set-up (%s, a file in /tmp): %s\n", code, strerror(errno));
		return 1;
	}
	unlink(allowed);
	/* Straight: the kernel's rule, which ARA keeps. */
	p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, mmap_race.noexec, 0);
	if (attack_refused("mmap(PROT_EXEC) of a file on a noexec mount", p == MAP_FAILED ? -1 : 0,
			   EPERM) != 0)
		return 1;
	mmap_race.slot = dup(mmap_race.allowed);
	if (pthread_create(&t, NULL, mmap_race_swap, NULL) != 0) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	for (int i = 0; i < MMAP_RACE_ATTEMPTS && !won; i++) {
		p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, mmap_race.slot, 0);
		if (p == MAP_FAILED)
			continue;
		mapped++;
		won = memcmp(p, "ARA-NOEXEC-PAGE", 15) == 0;
		munmap(p, PAGE);
	}
	__atomic_store_n(&mmap_race.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	printf("ara-evidence: %d executable mappings of a descriptor another thread kept swapping\n",
	       mapped);
	if (won) {
		printf("won the mmap race: mapped a page of a noexec mount executable\n");
		printf("the mmap race was not refused\n");
	} else if (mapped == 0) {
		printf("FAIL: the race did not run (no mapping made)\n");
	} else {
		rc = 0;
	}
	return rc;
}

/* sysrq-trigger: one byte reboots the machine. Opened, never written. */
static int attack_sysrq_trigger(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);
	int rc = attack_refused("open(/proc/sysrq-trigger, O_WRONLY)", fd, EACCES);

	if (fd >= 0) {
		printf("opened /proc/sysrq-trigger for writing (nothing written)\n");
		close(fd);
	}
	return rc;
}

/*
 * tracefs uprobe_events: a uprobe in DOM0's code, run as the code runs
 * (uretprobes rewrite the return address on the stack; probes read memory
 * and registers). Opened for writing; nothing written.
 */
static int attack_tracefs_uprobe(void)
{
	const char *dir = fixture("tracing");
	char path[600];
	int fd, rc;

	if (!dir)
		return 1;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	/* O_APPEND, not O_TRUNC: a truncating open deletes every uprobe of the system. */
	fd = open(path, O_WRONLY | O_APPEND);
	rc = attack_refused("open(tracefs uprobe_events, O_WRONLY)", fd, EACCES);
	if (fd >= 0) {
		printf("opened tracefs uprobe_events for writing (nothing written)\n");
		close(fd);
	}
	return rc;
}

/*
 * A sysfs file opened with O_PATH (allowed: sysfs may be read), then
 * reopened for writing through /proc/self/fd: the reopen is checked too.
 * The first of: /sys/kernel/uevent_helper, a program the kernel runs as
 * root on every device event (absent without CONFIG_UEVENT_HELPER, as in
 * Debian's kernel), and KSM's pages_to_scan. Written back unchanged.
 */
static int attack_sysfs_reopen_write(void)
{
	static const char *const targets[] = { "/sys/kernel/uevent_helper",
					       "/sys/kernel/mm/ksm/pages_to_scan" };
	const char *target = NULL;
	char value[512], reopen[64];
	int path_fd = -1, fd, rc;
	ssize_t len;

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]) && path_fd < 0; i++) {
		target = targets[i];
		path_fd = open(target, O_PATH);
	}
	if (path_fd < 0) {
		printf("FAIL: open(%s, O_PATH): %s\n", target, strerror(errno));
		return 1;
	}
	printf("ara-evidence: open(%s, O_PATH) allowed\n", target);
	snprintf(reopen, sizeof(reopen), "/proc/self/fd/%d", path_fd);
	fd = open(reopen, O_RDWR);
	rc = attack_refused("reopen of an O_PATH sysfs file for writing through /proc/self/fd", fd, EACCES);
	if (fd >= 0) {
		len = read_small(fd, value, sizeof(value));
		if (len >= 0 && lseek(fd, 0, SEEK_SET) == 0 &&
		    write(fd, len ? value : "\n", len ? (size_t)len : 1) >= 0)
			printf("reopened %s for writing through /proc/self/fd and wrote back its value\n",
			       target);
		else
			printf("FAIL: write of its own value: %s\n", strerror(errno));
		close(fd);
	}
	close(path_fd);
	return rc;
}

/* cgroup.procs: moves a task between cgroups; written with this process's own ID, where it is. */
static int attack_cgroup_write(void)
{
	const char *dir = fixture("cgroup");
	char path[600], pid[32];
	int fd, rc;

	if (!dir)
		return 1;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	rc = attack_refused("open(cgroup.procs, O_WRONLY)", fd, EACCES);
	if (fd >= 0) {
		int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

		if (write(fd, pid, (size_t)len) == len)
			printf("wrote cgroup.procs (this process, into the cgroup it is in)\n");
		else
			printf("FAIL: write of cgroup.procs: %s\n", strerror(errno));
		close(fd);
	}
	return rc;
}

/* debugfs: the kernel's internals; its root directory, listed. */
static int attack_debugfs(void)
{
	const char *dir = fixture("debug");
	char entries[4096];
	int fd, rc;

	if (!dir)
		return 1;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	rc = attack_refused("open(debugfs)", fd, EACCES);
	if (fd >= 0) {
		long n = syscall(SYS_getdents64, fd, entries, sizeof(entries));

		printf("listed debugfs: %ld bytes of entries\n", n);
		close(fd);
	}
	return rc;
}

static const struct attack_entry attacks[] = {
	{ "file_task_syscall", attack_task_syscall },
	{ "file_task_stack", attack_task_stack },
	{ "file_pagemap", attack_pagemap },
	{ "file_kcore", attack_kcore },
	{ "file_dev_mem_node", attack_dev_mem_node },
	{ "file_dev_userfaultfd", attack_dev_userfaultfd },
	{ "file_block_device", attack_block_device },
	{ "file_modprobe", attack_modprobe },
	{ "file_sysrq_trigger", attack_sysrq_trigger },
	{ "file_tracefs_uprobe", attack_tracefs_uprobe },
	{ "file_sysfs_reopen_write", attack_sysfs_reopen_write },
	{ "file_open_race", attack_open_race },
	{ "file_mmap_noexec_race", attack_mmap_noexec_race },
	{ "file_cgroup_write", attack_cgroup_write },
	{ "file_debugfs", attack_debugfs },
};

int main(int argc, char **argv)
{
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
