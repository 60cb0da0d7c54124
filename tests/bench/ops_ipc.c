/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The process-isolation alternatives to secure_call: a round trip to a second
 * process, one byte there and the same byte back, over two pipes or over a
 * Unix stream socket pair. The second process is a forked child that echoes
 * until it reads end-of-file; it runs for the whole benchmark.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_ops.h"

struct echo_peer {
	const char *name;
	pid_t pid;
	int to_peer;   /* the parent writes here */
	int from_peer; /* and reads the echo here */
};

static int write_byte(int fd, unsigned char c)
{
	ssize_t r;

	while ((r = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return r == 1 ? 0 : -1;
}

/* 1 with the byte in *c, 0 at end-of-file, -1 on error. */
static int read_byte(int fd, unsigned char *c)
{
	ssize_t r;

	while ((r = read(fd, c, 1)) < 0 && errno == EINTR)
		;
	return r < 0 ? -1 : (int)r;
}

/* The child: echo every byte from in to out; end-of-file ends it. */
static __attribute__((noreturn)) void echo_loop(int in, int out)
{
	unsigned char c;
	int r;

	while ((r = read_byte(in, &c)) == 1) {
		if (write_byte(out, c))
			_exit(1);
	}
	_exit(r == 0 ? 0 : 1);
}

/*
 * Closes every descriptor above stderr except a and b: the child must hold
 * no other peer's ends, or closing them in the parent would never reach that
 * peer as end-of-file.
 */
static void close_all_but(int a, int b)
{
	int keep[2] = { a < b ? a : b, a < b ? b : a };
	unsigned int from = 3;

	for (int i = 0; i < 2; i++) {
		if ((unsigned int)keep[i] > from)
			close_range(from, (unsigned int)keep[i] - 1, 0);
		if ((unsigned int)keep[i] >= from)
			from = (unsigned int)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/*
 * Forks the echo child, which keeps child_in and child_out (and nothing
 * else); the parent keeps p->to_peer and p->from_peer and closes the child's.
 */
static int start_peer(struct echo_peer *p, int child_in, int child_out)
{
	/* A dead child must show up as an error here, not kill us quietly. */
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL); /* nothing buffered may be written twice */
	p->pid = fork();
	if (p->pid < 0) {
		fprintf(stderr, "ara_bench: %s: fork: %s\n", p->name, strerror(errno));
		return -1;
	}
	if (p->pid == 0) {
		close_all_but(child_in, child_out);
		echo_loop(child_in, child_out);
	}
	close(child_in);
	if (child_out != child_in)
		close(child_out);
	return 0;
}

static int round_trips(struct echo_peer *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		unsigned char sent = (unsigned char)i, got;

		if (write_byte(p->to_peer, sent)) {
			fprintf(stderr, "ara_bench: %s: write: %s\n", p->name, strerror(errno));
			return -1;
		}
		if (read_byte(p->from_peer, &got) != 1) {
			fprintf(stderr, "ara_bench: %s: no echo from the child\n", p->name);
			return -1;
		}
		if (got != sent) {
			fprintf(stderr, "ara_bench: %s: sent %u, the child echoed %u\n", p->name,
				sent, got);
			return -1;
		}
	}
	return 0;
}

/* Ends the child with end-of-file; it must exit 0, having echoed everything. */
static int stop_peer(struct echo_peer *p)
{
	int status;

	close(p->to_peer);
	if (p->from_peer != p->to_peer)
		close(p->from_peer);
	if (waitpid(p->pid, &status, 0) != p->pid) {
		fprintf(stderr, "ara_bench: %s: waitpid: %s\n", p->name, strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "ara_bench: %s: the echo child failed (wait status %#x)\n",
			p->name, status);
		return -1;
	}
	return 0;
}

static struct echo_peer pipe_peer = { .name = "pipe" };

static int pipe_setup(void)
{
	int down[2], up[2]; /* parent -> child, child -> parent */

	if (pipe(down) || pipe(up)) {
		fprintf(stderr, "ara_bench: pipe: %s\n", strerror(errno));
		return -1;
	}
	pipe_peer.to_peer = down[1];
	pipe_peer.from_peer = up[0];
	return start_peer(&pipe_peer, down[0], up[1]);
}

static int pipe_run(uint64_t n)
{
	return round_trips(&pipe_peer, n);
}

static int pipe_teardown(void)
{
	return stop_peer(&pipe_peer);
}

const struct bench_op bench_op_pipe = {
	.name = "pipe",
	.what = "1-byte round trip to a child process over two pipes",
	.setup = pipe_setup,
	.run = pipe_run,
	.teardown = pipe_teardown,
};

static struct echo_peer socket_peer = { .name = "socket" };

static int socket_setup(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		fprintf(stderr, "ara_bench: socketpair: %s\n", strerror(errno));
		return -1;
	}
	socket_peer.to_peer = socket_peer.from_peer = sv[0];
	return start_peer(&socket_peer, sv[1], sv[1]);
}

static int socket_run(uint64_t n)
{
	return round_trips(&socket_peer, n);
}

static int socket_teardown(void)
{
	return stop_peer(&socket_peer);
}

const struct bench_op bench_op_socket = {
	.name = "socket",
	.what = "1-byte round trip to a child process over an AF_UNIX stream socketpair",
	.setup = socket_setup,
	.run = socket_run,
	.teardown = socket_teardown,
};
