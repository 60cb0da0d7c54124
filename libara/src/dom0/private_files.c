/* SPDX-License-Identifier: Apache-2.0 */
/*
 * private_files.h: the task's side and the hand-back of its descriptor.
 *
 * The socket pair is made in the process's table before the task starts,
 * so App code can reach it too: it can read the message first (and gets
 * the descriptor ARA checked, as it would have anyway), or put one of its
 * own descriptors in front of it (which it holds already). Neither gives
 * it a descriptor it could not have opened, but the second means that the
 * caller cannot tell from the descriptor whether it is the task's: a
 * caller for which that matters takes the identity of what it made in the
 * task (exec_files.c). Nothing is waited for (the message is there once
 * the task has ended, or never), so neither blocks ARA.
 *
 * The task's copy of the table holds a reference to every descriptor the
 * App had, which would keep, for instance, a pipe open that another App
 * thread closes while the task waits in a FIFO's open: the task closes
 * all but the one it needs first.
 */
#include "kernel.h"
#include "private_files.h"
#include "sys.h"

/* The kernel's struct user_msghdr and struct cmsghdr on arm64 (no libc here). */
struct msg {
	void *name;
	int name_len;
	struct iovec *iov;
	size_t iov_len;
	void *control;
	size_t control_len;
	unsigned int flags;
};

struct fd_cmsg {
	size_t len;
	int level;
	int type;
	int fd;
} __attribute__((aligned(8)));

#define FD_CMSG_LEN (offsetof(struct fd_cmsg, fd) + sizeof(int))

struct job {
	long (*work)(void *arg);
	void *arg;
	long keep; /* the one App descriptor the work uses; -1: none */
	long sock; /* where the task sends its descriptor; -1: it sends none */
	long result;
};

long ara_private_files_run(void (*fn)(void *), void *arg);

static long send_fd(long sock, long fd)
{
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct fd_cmsg c = { .len = FD_CMSG_LEN, .level = SOL_SOCKET, .type = SCM_RIGHTS, .fd = (int)fd };
	struct msg m = { .iov = &iov, .iov_len = 1, .control = &c, .control_len = sizeof(c) };
	long n = ara_sys3(__NR_sendmsg, sock, &m, MSG_DONTWAIT);

	return n == 1 ? 0 : n < 0 ? n : -EIO;
}

static long receive_fd(long sock, int cloexec)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct fd_cmsg c = { 0 };
	struct msg m = { .iov = &iov, .iov_len = 1, .control = &c, .control_len = sizeof(c) };
	long n = ara_sys3(__NR_recvmsg, sock, &m, MSG_DONTWAIT | (cloexec ? MSG_CMSG_CLOEXEC : 0));

	if (n < 0)
		return n;
	if (m.control_len >= FD_CMSG_LEN && c.len == FD_CMSG_LEN && c.level == SOL_SOCKET &&
	    c.type == SCM_RIGHTS)
		return c.fd;
	/* No room in the table for it (the kernel truncates the control data), or no descriptor sent. */
	return (m.flags & MSG_CTRUNC) ? -EMFILE : -EIO;
}

/*
 * The task starts with the caller's signal mask: every signal blocked, so
 * that none is delivered to a thread ARA has no slot for (in a trapped
 * call the mask is already full; in a service it is the App's).
 */
static long run_blocked(void (*fn)(void *), void *arg)
{
	const uint64_t all = ~(uint64_t)0;
	uint64_t old;
	long r = ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &all, &old, sizeof(old));

	if (r != 0)
		return r;
	r = ara_private_files_run(fn, arg);
	ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &old, 0, sizeof(old));
	return r;
}

/*
 * Closes every descriptor of the task's table but a, b (-1: none) and
 * stderr, where ARA's messages go (an execve's refusal, for one).
 */
static void close_all_but(long a, long b)
{
	long keep[3] = { 2, a < b ? a : b, a < b ? b : a }, next = 0;

	if (keep[1] < keep[0]) { /* sorted: 2 among the two others */
		long t = keep[0];

		keep[0] = keep[1];
		keep[1] = t < keep[2] ? t : keep[2];
		keep[2] = t < keep[2] ? keep[2] : t;
	}
	for (int i = 0; i < 3; i++) {
		if (keep[i] < next)
			continue; /* none (-1), or kept already */
		if (keep[i] > next)
			ara_sys3(__NR_close_range, next, keep[i] - 1, 0);
		next = keep[i] + 1;
	}
	ara_sys3(__NR_close_range, next, ~0u, 0);
}

/* The task: a private copy of the table, which ends with it. */
static void run_job(void *arg)
{
	struct job *j = arg;
	long r;

	close_all_but(j->keep, j->sock);
	r = j->work(j->arg);

	if (r >= 0 && j->sock >= 0)
		r = send_fd(j->sock, r);
	j->result = r;
}

long ara_private_files_open(long (*work)(void *arg), void *arg, long keep, int cloexec)
{
	int sv[2];
	struct job j = { .work = work, .arg = arg, .keep = keep, .result = -EIO };
	long r;

#ifdef ARA_TEST_VARIANT_NO_PRIVATE_FILES
	/* The variant works in the process's table, where App threads can swap its descriptors. */
	r = work(arg);
	if (r >= 0 && !cloexec)
		ara_sys3(__NR_fcntl, r, F_SETFD, 0);
	return r;
#endif
	r = ara_sys4(__NR_socketpair, AF_UNIX, SOCK_DGRAM | O_CLOEXEC, 0, sv);

	if (r < 0)
		return r;
	j.sock = sv[1];
	r = run_blocked(run_job, &j);
	/* The task has ended: its end first, so that the descriptor cannot land on that number and be closed. */
	ara_sys1(__NR_close, sv[1]);
	if (r == 0)
		r = j.result;
	if (r == 0)
		r = receive_fd(sv[0], cloexec);
	ara_sys1(__NR_close, sv[0]);
	return r;
}

long ara_private_files_call(long (*work)(void *arg), void *arg, long keep)
{
	struct job j = { .work = work, .arg = arg, .keep = keep, .sock = -1, .result = -EIO };
	long r;

#ifdef ARA_TEST_VARIANT_NO_PRIVATE_FILES
	return work(arg);
#endif
	r = run_blocked(run_job, &j);
	return r == 0 ? j.result : r;
}
