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
 * Each attempt is one exec in a child of its own (a single-threaded fork
 * that starts the attack's threads): an exec ARA refuses after its commit
 * has begun leaves the thread a descriptor table of its own, out of the
 * other threads' reach. The child's exit status says how the attempt
 * ended (exec_swap_outcome.h): the exec refused, the program ARA checked
 * ran (the attack's thread came too late: its race was missed), or the
 * refused program ran (BREACH). Whether that thread gets there in time
 * depends on the CPU it gets, which other work on the machine can take.
 * A missed race shows nothing about ARA, either way: it is neither a pass
 * nor a failure, and trying again is what an attacker does. So the test
 * tries again, counts the missed attempts and prints them; it never takes
 * one for a pass, and fails if no attempt was a real attack. swap makes
 * its 60 attempts (the twin stops at the first breach), every one of
 * which ARA must refuse; inject tries until an attempt wins its race,
 * which ARA must refuse with EPERM (a descriptor it opened was replaced),
 * and fails if none wins in 60.
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
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/domains.h"
#include "exec_swap_outcome.h"
#include "por_sysreg.h"

#define ATTEMPTS 60
#define WATCHED 8 /* descriptor numbers from the lowest free one */
#define BUSY_LEN (1u << 20)

static struct {
	char *benign, *evil;
	size_t size;
	int memfd, lowest; /* the memfd can be at a watched number */
	int hand_back, armed; /* inject: the program pair's sv[1]; armed: its number is known */
} s;

/* Descriptor n is a memfd named name ("/memfd:NAME (deleted)"). */
static int is_memfd(int n, const char *name)
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

/*
 * ARA's copy is sealed once written: swapped in before that, the App's memfd
 * (which cannot be sealed) makes ARA's seal fail and the exec is refused
 * for it, a race missed. So the swap waits for the seal, as an attacker
 * who reads ARA's code would.
 */
static int sealed_copy(int n)
{
	int seals;

	if (!is_memfd(n, "ara-app"))
		return 0;
	seals = fcntl(n, F_GET_SEALS);
	return seals > 0 && (seals & F_SEAL_WRITE);
}

static void *swapper(void *arg)
{
	int swapped = -1, seen = 0;

	(void)arg;
	while (swapped < 0)
		for (int n = s.lowest; n < s.lowest + WATCHED && swapped < 0; n++)
			if (sealed_copy(n) && dup3(s.memfd, n, 0) == n)
				swapped = n;
	/* Checked: ARA goes on to its next copies. Now the refused program. */
	while (!seen)
		for (int n = s.lowest; n < s.lowest + WATCHED && !seen; n++)
			seen = is_memfd(n, "ara-libara");
	if (pwrite(s.memfd, s.evil, s.size, 0) != (ssize_t)s.size)
		printf("FAIL: pwrite of the memfd: %s\n", strerror(errno));
	return NULL;
}

/*
 * Sends the memfd into the program's socket pair (the first the exec
 * makes), at the end the task sends from, sv[1]: ARA then receives the
 * first message on sv[0]. sv[1] is the second lowest free number; it names
 * no socket of another pair afterwards, since ARA receives the program's
 * copy onto it and holds it until its commit. The message arrives too late
 * if the task's is queued already; once the number is not a socket, or
 * the pair is closed, the race is missed.
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
	while (!__atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
		;
	while (sendmsg(s.hand_back, &m, MSG_DONTWAIT) != 1 && (errno == EBADF || errno == EAGAIN))
		; /* not made yet (EBADF), or its queue full */
	return NULL;
}

/* Keeps ARA's staging window (and its lock) busy. */
static void *busy(void *arg)
{
	(void)arg;
	for (;;) {
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

/*
 * One attempt, in the child: the attack's threads, then one exec of path.
 * Returns (as the child's exit status) only if the exec was refused.
 */
static int attempt(int inject, const char *path)
{
	char *args[] = { (char *)path, NULL };
	pthread_t t_race, t_busy;
	int e;

	if (!inject && pwrite(s.memfd, s.benign, s.size, 0) != (ssize_t)s.size) {
		printf("FAIL: pwrite of the memfd: %s\n", strerror(errno));
		return 1;
	}
	s.lowest = dup(0);
	close(s.lowest);
	/* The injector needs no wider window, only a CPU: no busy thread then. */
	if (pthread_create(&t_race, NULL, inject ? injector : swapper, NULL) ||
	    (!inject && pthread_create(&t_busy, NULL, busy, NULL))) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	if (inject) { /* the two lowest free numbers, now that the thread runs: the pair's */
		int sv0 = dup(0);

		s.hand_back = dup(0);
		close(sv0);
		close(s.hand_back);
		__atomic_store_n(&s.armed, 1, __ATOMIC_RELEASE);
	}
	execve(path, args, environ);
	e = errno < EXEC_SWAP_ERRNO_MAX - EXEC_SWAP_REFUSED ? errno : 0;
	return EXEC_SWAP_REFUSED + e;
}

int main(int argc, char **argv)
{
	char evil_path[] = "/tmp/ara-exec-swap-XXXXXX";
	const char *what;
	int evil_fd, inject, execs = 0, refused = 0, missed = 0, breach = 0, other = 0;
	int first_errno = 0, last_errno = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 3 || (strcmp(argv[1], "swap") != 0 && strcmp(argv[1], "inject") != 0)) {
		fprintf(stderr, "usage: %s swap|inject TARGET\n", argv[0]);
		return 2;
	}
	inject = strcmp(argv[1], "inject") == 0;
	what = inject ? "sending a memfd of its own ahead of" : "swapping";
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
	/* The target then says by its exit status which program ran. */
	setenv("ARA_EXEC_SWAP_ATTACK", "1", 1);
	/* swap: every attempt; inject: until one wins its race. Both stop at a breach. */
	while (execs < ATTEMPTS && !breach && !other && !(inject && refused)) {
		pid_t child = fork();
		int status;

		if (child == 0)
			_exit(attempt(inject, inject ? argv[2] : evil_path));
		if (child < 0 || waitpid(child, &status, 0) != child) {
			printf("FAIL: fork or waitpid: %s\n", strerror(errno));
			other++;
			break;
		}
		execs++;
		if (WIFEXITED(status) && WEXITSTATUS(status) >= EXEC_SWAP_REFUSED &&
		    WEXITSTATUS(status) <= EXEC_SWAP_ERRNO_MAX) {
			last_errno = WEXITSTATUS(status) - EXEC_SWAP_REFUSED;
			if (!refused++)
				first_errno = last_errno;
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXEC_SWAP_RAN_CHECKED) {
			missed++;
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXEC_SWAP_RAN_REFUSED) {
			breach++;
		} else {
			printf("FAIL: attempt %d ended with %s %d\n", execs,
			       WIFEXITED(status) ? "exit status" : "signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			other++;
		}
	}
	unlink(evil_path);
	printf("ara-evidence: %d attempts, another thread %s ARA's copy of the program: "
	       "%d refused, %d missed the race (the program ARA checked ran), %d ran the refused "
	       "program\n", execs, what, refused, missed, breach);
	if (breach || other)
		return 1;
	if (inject ? refused && first_errno == EPERM : refused == ATTEMPTS) {
		printf("ara-evidence: %d execs, another thread %s ARA's copy of the program: all refused "
		       "(first %s, last %s)\n", refused, what, strerror(first_errno), strerror(last_errno));
		return 0;
	}
	if (inject && refused)
		printf("FAIL: the exec whose race was won was refused with %s, not EPERM (a descriptor "
		       "ARA opened was replaced)\n", strerror(first_errno));
	else if (inject)
		printf("FAIL: the race was never won in %d attempts: no exec ARA could refuse\n", execs);
	else
		printf("FAIL: %d of %d execs were not refused\n", missed, execs);
	return 1;
}
