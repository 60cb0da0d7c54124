/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program started from a thread outlives that thread. ARA gives a vfork
 * child the parent-death signal SIGKILL until its execve
 * (libara/src/dom0/vfork.h), and the kernel sends it when the thread that
 * made the child exits; so ARA's execve must give the new program the
 * signal the App asked for instead (none, unless it asked):
 *   spawn       a thread posix_spawns spawn_child (argv[1]) and exits; the
 *               program must then exit normally (0);
 *   pdeathsig   a thread's vfork child asks for SIGTERM, executes
 *               spawn_child, and the thread exits; the program must die by
 *               SIGTERM, as it would without ARA.
 * The program waits for the end of its standard input, which the main
 * thread closes once the thread is gone (tgkill answers ESRCH: past its
 * exit_notify, where the kernel sends the signal).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct start {
	const char *program;
	int in; /* the program's standard input */
	int close_in; /* the write end, closed in the program */
	int pdeathsig; /* 0: posix_spawn; else vfork, prctl, execve */
	pid_t pid; /* the program */
	pid_t tid; /* the thread that started it */
	int err;
};

static void *start_program(void *arg)
{
	struct start *s = arg;
	char *argv[] = { (char *)s->program, "wait", NULL };

	s->tid = (pid_t)syscall(SYS_gettid);
	if (!s->pdeathsig) {
		posix_spawn_file_actions_t fa;

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, s->in, 0);
		posix_spawn_file_actions_addclose(&fa, s->close_in);
		s->err = posix_spawn(&s->pid, s->program, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
		return NULL;
	}
	s->pid = vfork();
	if (s->pid == 0) {
		if (syscall(SYS_prctl, PR_SET_PDEATHSIG, s->pdeathsig, 0, 0, 0) != 0 ||
		    dup2(s->in, 0) != 0 || close(s->close_in) != 0)
			_exit(126);
		execve(s->program, argv, environ);
		_exit(127);
	}
	s->err = s->pid < 0 ? errno : 0;
	return NULL;
}

/* The program's wait status once its starting thread is gone; -1 on a failure. */
static int outlive(const char *program, int pdeathsig)
{
	struct start s = { .program = program, .pdeathsig = pdeathsig };
	int pipe_fds[2], status;
	pthread_t thread;

	if (pipe(pipe_fds) != 0) {
		printf("FAIL: pipe: %s\n", strerror(errno));
		return -1;
	}
	s.in = pipe_fds[0];
	s.close_in = pipe_fds[1];
	if (pthread_create(&thread, NULL, start_program, &s) != 0 || pthread_join(thread, NULL) != 0 ||
	    s.err != 0) {
		printf("FAIL: starting %s from a thread: %s\n", program, strerror(s.err));
		return -1;
	}
	while (syscall(SYS_tgkill, getpid(), s.tid, 0) == 0)
		sched_yield();
	close(pipe_fds[0]);
	close(pipe_fds[1]); /* the program's end of input */
	if (waitpid(s.pid, &status, 0) != s.pid) {
		printf("FAIL: waitpid: %s\n", strerror(errno));
		return -1;
	}
	return status;
}

int main(int argc, char **argv)
{
	int spawned, vforked;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SPAWN_CHILD\n", argv[0]);
		return 2;
	}
	spawned = outlive(argv[1], 0);
	if (spawned == -1)
		return 1;
	if (!WIFEXITED(spawned) || WEXITSTATUS(spawned) != 0) {
		printf("FAIL: a program posix_spawned from a thread did not outlive it (wait status "
		       "0x%x)\n",
		       spawned);
		return 1;
	}
	printf("ok: a program posix_spawned from a thread outlived it and exited 0\n");
	vforked = outlive(argv[1], SIGTERM);
	if (vforked == -1)
		return 1;
	if (!WIFSIGNALED(vforked) || WTERMSIG(vforked) != SIGTERM) {
		printf("FAIL: a program whose vfork child asked for SIGTERM at its parent's death did "
		       "not get it (wait status 0x%x)\n",
		       vforked);
		return 1;
	}
	printf("ok: the parent-death signal a vfork child asked for (SIGTERM) reached its program\n");
	return 0;
}
