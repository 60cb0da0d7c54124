/* SPDX-License-Identifier: Apache-2.0 */
/* The tpm backend's device side: ara-tpm-quote in a child (tpm_evidence.h). */
#include <linux/fcntl.h>
#include <linux/sched.h>
#include <linux/signal.h>

#include "ara/service.h"
#include "tpm_evidence.h"
#include "wire.h"

/* Socket constants, from libc's headers (the kernel's uapi has none of them). */
#define AF_UNIX 1
#define SOCK_STREAM 1
#define SOCK_CLOEXEC O_CLOEXEC
#define MSG_NOSIGNAL 0x4000
#define SHUT_WR 1
#define SOL_SOCKET 1
#define SO_RCVTIMEO 20 /* arm64: SO_RCVTIMEO_OLD, a struct timeval */
#define EINTR 4
#define EAGAIN 11

/* Seconds ara-tpm-quote may take between two reads: a quote takes well under one. */
#define QUOTE_TIMEOUT 60

/*
 * The child: the socket as its stdin and stdout, no other descriptor of
 * ours, an empty environment, then the program. It shares DOM0 until the
 * execve (CLONE_VM, below) and writes nothing of it; if the execve fails
 * it exits at once.
 */
__attribute__((noreturn)) static void run_child(long sock, const char *path)
{
	/* Stored one by one: an initialised array of pointers would be copied from libara's .data. */
	char *argv[3], *envp[1];
	/* Above 2 first: the socket may itself be 0 or 1 if those were closed. */
	long fd = ara_sys3(__NR_fcntl, sock, F_DUPFD, 3);

	argv[0] = (char *)"ara-tpm-quote";
	argv[1] = (char *)"quote";
	argv[2] = NULL;
	envp[0] = NULL;
	if (fd >= 3 && ara_sys3(__NR_dup3, fd, 0, 0) == 0 && ara_sys3(__NR_dup3, fd, 1, 0) == 1 &&
	    ara_sys3(__NR_close_range, 3, ~0u, 0) == 0)
		ara_sys3(__NR_execve, path, argv, envp);
	ara_sys_exit_group(127);
}

static void send_all(long sock, const uint8_t *p, size_t n)
{
	while (n) {
		long w = ara_sys6(__NR_sendto, sock, (long)p, (long)n, MSG_NOSIGNAL, 0, 0);

		if (w == -EINTR)
			continue;
		if (w <= 0)
			ara_fatal("sending the binding to ara-tpm-quote failed", w);
		p += w;
		n -= (size_t)w;
	}
}

/*
 * Everything the child writes, up to ARA_WIRE_EVIDENCE_MAX bytes, each read
 * within QUOTE_TIMEOUT seconds (a hung TPM must not hang the start).
 */
static size_t read_all(long sock, long pid, uint8_t *buf)
{
	const struct { long sec, usec; } timeout = { QUOTE_TIMEOUT, 0 };
	size_t len = 0;

	if (ara_sys5(__NR_setsockopt, sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)))
		ara_fatal("setting a timeout on ara-tpm-quote's socket failed", 0);
	for (;;) {
		long r = ara_sys3(__NR_read, sock, buf + len, ARA_WIRE_EVIDENCE_MAX + 1 - len);

		if (r == -EINTR)
			continue;
		if (r == -EAGAIN) {
			ara_sys2(__NR_kill, pid, SIGKILL);
			ara_fatal("ara-tpm-quote made no evidence in time (seconds)", QUOTE_TIMEOUT);
		}
		if (r < 0)
			ara_fatal("reading ara-tpm-quote's evidence failed", r);
		if (r == 0)
			return len;
		len += (size_t)r;
		if (len > ARA_WIRE_EVIDENCE_MAX)
			ara_fatal("ara-tpm-quote wrote more than the largest evidence",
				  ARA_WIRE_EVIDENCE_MAX);
	}
}

static void reap(long pid)
{
	int status = 0;
	long r;

	do
		r = ara_sys4(__NR_wait4, pid, &status, 0, 0);
	while (r == -EINTR);
	if (r != pid)
		ara_fatal("waiting for ara-tpm-quote failed", r);
	if ((status & 0x7f) != 0 || (status >> 8 & 0xff) != 0)
		ara_fatal("ara-tpm-quote failed (wait status below; its message is above)", status);
}

void ara_tpm_evidence(char **envp, const uint8_t binding[32], uint8_t **evidence, size_t *len)
{
	const char *path = ara_env_get(envp, "ARA_TPM_QUOTE");
	int sv[2];
	long pid, r;
	uint8_t *buf, *exact;

	if (!path || path[0] != '/')
		ara_fatal("ARA_EVIDENCE=tpm needs ARA_TPM_QUOTE, the absolute path of ara-tpm-quote", 0);
	buf = ara_dom0_calloc(1, ARA_WIRE_EVIDENCE_MAX + 1);
	if (!buf)
		ara_fatal("no DOM0 memory for the tpm evidence", 0);
	r = ara_sys4(__NR_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
	if (r != 0)
		ara_fatal("socketpair for ara-tpm-quote failed", r);
	/*
	 * vfork's way: the child runs on this memory, the parent waiting,
	 * until its execve. A copy would not do: this domain's stack is
	 * MADV_WIPEONFORK, zero in a child, and the child reads its socket
	 * and path from it. At initialisation no handler of ARA's is
	 * installed, so no signal runs ARA's code in the child meanwhile.
	 */
	pid = ara_sys5(__NR_clone, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		run_child(sv[1], path);
	ara_sys1(__NR_close, sv[1]);
	if (ara_sys_failed(pid))
		ara_fatal("starting ara-tpm-quote failed", pid);
	send_all(sv[0], binding, 32);
	if (ara_sys2(__NR_shutdown, sv[0], SHUT_WR) != 0)
		ara_fatal("shutdown of the socket to ara-tpm-quote failed", 0);
	*len = read_all(sv[0], pid, buf);
	ara_sys1(__NR_close, sv[0]);
	reap(pid);
	if (*len == 0)
		ara_fatal("ara-tpm-quote wrote no evidence", 0);
	/* Kept at its size: the domain's heap is shared by its modules. */
	exact = ara_dom0_calloc(1, *len);
	if (!exact)
		ara_fatal("no DOM0 memory for the tpm evidence", (long)*len);
	memcpy(exact, buf, *len);
	ara_dom0_free(buf);
	*evidence = exact;
}
