/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The IPC baseline of the RTM case study (docs/rtm.md, "The case study"):
 * the hooks of services/rtm/runtime/hooks.c, linked instead of ARA's, hand
 * each transfer's entry (the same 8 bytes, ara_rtm_entry) to a logger in
 * another process over a Unix stream socket and wait for its one-byte
 * acknowledgement: one synchronous hand-off per transfer.
 *
 * The logger (ipc_logger.c) is a child forked at the first transfer (or
 * before main, whichever comes first) on one end of a socketpair. The last
 * destructor (priority 101, as exit_evidence.c's final report) closes the
 * hand-off and waits for the logger, which then hashes its last segment
 * and writes its summary to the file ARA_RTM_IPC_SUMMARY names (stderr
 * without it). A forked child that runs instrumented code gets a logger of
 * its own, which writes no summary.
 *
 * Fail-closed, as ARA's hooks: a transfer that cannot be handed off, one
 * after the hand-off closed, or a logger that failed ends the process
 * with ARA_RTM_EXIT_NO_EVIDENCE. Threads share the socket without a lock:
 * an 8-byte send on a stream socket is not split, and each waits for one
 * acknowledgement, which the logger sends after logging an entry.
 * This file is never instrumented itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/rtm_runtime.h"
#include "ipc_logger.h"

enum { HANDOFF_CLOSED = -2 }; /* ipc_fd after the last destructor */

static int ipc_fd = -1;	      /* the producer's end; -1 until the logger starts */
static pid_t logger_pid;      /* this process's logger */
static int summary_wanted = 1; /* not in a forked child's logger */
static int forking_logger;     /* set across the logger's fork: its child is no producer */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

/* "ara-rtm-ipc: <what>[: <strerror>]" on stderr, then the end of the process. */
__attribute__((noreturn, cold)) static void fail(const char *what, int err)
{
	static const char head[] = "ara-rtm-ipc: ";
	const char *why = err ? strerror(err) : NULL;

	/* Best effort: a failed write to stderr has nowhere to be reported. */
	if (write(STDERR_FILENO, head, sizeof(head) - 1) < 0 ||
	    write(STDERR_FILENO, what, strlen(what)) < 0 ||
	    (why && (write(STDERR_FILENO, ": ", 2) < 0 || write(STDERR_FILENO, why, strlen(why)) < 0)) ||
	    write(STDERR_FILENO, ", ending the process\n", 21) < 0)
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
	_exit(ARA_RTM_EXIT_NO_EVIDENCE);
}

/* The logger process: serves its end of the socket, then writes the summary. */
__attribute__((noreturn)) static void logger_main(int fd)
{
	struct ara_rtm_ipc_log log;
	uint8_t run_id[ARA_RTM_HASH_BYTES];
	const char *path = getenv("ARA_RTM_IPC_SUMMARY");
	int out = STDERR_FILENO;

	/* A random run id, as DOM0 draws at a run's first entry. */
	if (getrandom(run_id, sizeof(run_id), 0) != (ssize_t)sizeof(run_id))
		fail("getrandom", errno);
	if (ara_rtm_ipc_serve(fd, run_id, &log))
		fail("the logger failed", errno);
	if (!summary_wanted)
		_exit(0);
	if (path) {
		out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (out < 0)
			fail(path, errno);
	}
	if (ara_rtm_ipc_write_summary(out, &log))
		fail(path ? path : "stderr", errno);
	_exit(0);
}

/* A forked child of the producer starts a logger of its own at its next transfer. */
static void forked_child(void)
{
	if (forking_logger)
		return;
	if (ipc_fd >= 0)
		close(ipc_fd);
	if (ipc_fd != HANDOFF_CLOSED)
		ipc_fd = -1;
	summary_wanted = 0;
}

static void start_logger(void)
{
	static int atfork_done;
	int sv[2];
	pid_t pid;

	pthread_mutex_lock(&start_lock);
	if (ipc_fd != -1) { /* another thread started it */
		pthread_mutex_unlock(&start_lock);
		return;
	}
	if (!atfork_done && pthread_atfork(NULL, NULL, forked_child))
		fail("pthread_atfork", ENOMEM);
	atfork_done = 1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		fail("socketpair", errno);
	forking_logger = 1;
	pid = fork();
	if (pid < 0)
		fail("fork of the logger", errno);
	if (pid == 0) {
		close(sv[0]);
		logger_main(sv[1]);
	}
	forking_logger = 0;
	close(sv[1]);
	logger_pid = pid;
	__atomic_store_n(&ipc_fd, sv[0], __ATOMIC_RELEASE);
	pthread_mutex_unlock(&start_lock);
}

/* The producer's end of the socket: the logger is started at the first call. */
__attribute__((noinline, cold)) static int handoff_fd(void)
{
	int fd;

	while ((fd = __atomic_load_n(&ipc_fd, __ATOMIC_ACQUIRE)) < 0) {
		if (fd == HANDOFF_CLOSED)
			fail("a transfer after the hand-off closed at exit", 0);
		start_logger();
	}
	return fd;
}

/* Sends the entry and waits for its acknowledgement; the common case is one send and one recv. */
static inline void hand_off(enum ara_rtm_kind kind, void *dest)
{
	const uint64_t entry = ara_rtm_entry(kind, dest);
	const char *p = (const char *)&entry;
	size_t left = sizeof(entry);
	int fd = __atomic_load_n(&ipc_fd, __ATOMIC_RELAXED);
	ssize_t n;
	char ack;

	if (__builtin_expect(fd < 0, 0))
		fd = handoff_fd();
	while (left > 0) {
		n = send(fd, p, left, MSG_NOSIGNAL);
		if (__builtin_expect(n > 0, 1)) {
			p += n;
			left -= (size_t)n;
		} else if (n == 0 || errno != EINTR) {
			fail("sending an entry to the logger", n < 0 ? errno : EPIPE);
		}
	}
	while ((n = recv(fd, &ack, 1, 0)) != 1)
		if (n == 0 || errno != EINTR)
			fail("waiting for the logger's acknowledgement", n < 0 ? errno : EPIPE);
}

void __ara_rtm_icall(void *dest)
{
	hand_off(ARA_RTM_ICALL, dest);
}

void __ara_rtm_ijmp(void *dest)
{
	hand_off(ARA_RTM_IJMP, dest);
}

void __ara_rtm_ret(void *dest)
{
	hand_off(ARA_RTM_RET, dest);
}

/* A logger for every run, even one without a transfer: its summary says 0. */
__attribute__((constructor(101))) static void start_before_main(void)
{
	if (__atomic_load_n(&ipc_fd, __ATOMIC_ACQUIRE) == -1)
		start_logger();
}

/*
 * The last of the program's destructors, as ARA's final report
 * (exit_evidence.c): the logger has every transfer of the way out, and
 * has written its summary, before the process ends.
 */
__attribute__((destructor(101))) static void close_hand_off(void)
{
	int fd = __atomic_exchange_n(&ipc_fd, HANDOFF_CLOSED, __ATOMIC_ACQ_REL);
	int status;

	if (fd < 0)
		return;
	if (shutdown(fd, SHUT_WR))
		fail("closing the hand-off", errno);
	while (waitpid(logger_pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waiting for the logger", errno);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("the logger did not finish its log", 0);
	close(fd);
}
