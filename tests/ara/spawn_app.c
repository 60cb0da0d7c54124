/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Programs started from an ARA App: posix_spawn (glibc: clone with
 * CLONE_VM | CLONE_VFORK, then execve in the child), fork and execv, and
 * execve chains. argv[1] is spawn_child; each started program must run
 * under ARA (it checks itself: spawn_child.c), and exit statuses, signals,
 * errors, descriptors and the signal mask must come through as execve's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "check.h"

extern char **environ;

static char self_hex[65];

static int spawn_status(const char *path, char *const argv[], posix_spawn_file_actions_t *fa,
			int *err)
{
	pid_t pid;
	int status;

	*err = posix_spawn(&pid, path, fa, NULL, argv, environ);
	if (*err != 0)
		return -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static int run(const char *child, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { (char *)child, (char *)a1, (char *)a2, (char *)a3, NULL };
	int err, status = spawn_status(child, argv, NULL, &err);

	if (status < 0)
		printf("spawn-app: posix_spawn %s %s: %s\n", child, a1 ? a1 : "", strerror(err));
	return status;
}

static void check_exit(const char *what, int status, int code)
{
	check(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == code,
	      "%s: wait status 0x%x, expected exit %d", what, status, code);
}

static void fork_exec(const char *child)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		execl(child, child, "exit", "7", (char *)NULL);
		_exit(100 + errno);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 7,
	      "fork and execl: exit 7 expected");
}

static void pipe_output(const char *child)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)child, "write", "262144", NULL };
	int fds[2], err, status;
	pid_t pid;
	long total = 0;
	char buf[8192];
	ssize_t n;

	if (pipe(fds) != 0)
		return check(0, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	err = posix_spawn(&pid, child, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	check(err == 0, "posix_spawn with a pipe: %s", strerror(err));
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		total += n;
	close(fds[0]);
	check(total == 262144, "read %ld bytes through the pipe, expected 262144", total);
	check(err == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "the writer's exit status");
}

static void errors(const char *child)
{
	char *argv[] = { "x", NULL };
	int err;
	pid_t pid = fork();

	check(spawn_status("/nonexistent/program", argv, NULL, &err) < 0 && err == ENOENT,
	      "posix_spawn of a missing program: %s, expected ENOENT", strerror(err));
	check(spawn_status("/etc/passwd", argv, NULL, &err) < 0 && err == EACCES,
	      "posix_spawn of a non-executable file: %s, expected EACCES", strerror(err));
	check(spawn_status("/bin/busybox", argv, NULL, &err) < 0 && err == ENOEXEC,
	      "posix_spawn of a static program: %s, expected ENOEXEC", strerror(err));
	if (pid == 0) { /* the caller would choose code that runs before ARA */
		char *args[] = { (char *)child, "exit", "0", NULL };
		char *preload[] = { "LD_PRELOAD=/nonexistent.so", NULL };
		char *audit[] = { "LD_AUDIT=/nonexistent.so", NULL };
		char *library[] = { "LD_LIBRARY_PATH=/tmp", NULL };
		int refused = 0;

		execve(child, args, preload);
		refused += errno == EPERM;
		execve(child, args, audit);
		refused += errno == EPERM;
		execve(child, args, library);
		refused += errno == EPERM;
		_exit(refused == 3 ? 0 : 1);
	}
	int status;

	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "execve with LD_PRELOAD, LD_AUDIT or LD_LIBRARY_PATH refused with EPERM");
}

static void mask(const char *child)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		execl(child, child, "mask", (char *)NULL);
		_exit(100);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "the signal mask survives execve (SIGUSR1 blocked)");
}

/*
 * More programs started at once than ARA has thread slots: a vfork child's
 * slot is free again once the program it started runs.
 */
#define MANY 24
static void many(const char *child)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)child, "wait", NULL };
	pid_t pids[MANY];
	int fds[2], started = 0, exited = 0, err = 0;

	if (pipe(fds) != 0)
		return check(0, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	for (; started < MANY; started++) {
		err = posix_spawn(&pids[started], child, &fa, NULL, argv, environ);
		if (err != 0)
			break;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	close(fds[1]);
	for (int i = 0; i < started; i++) {
		int status;

		exited += waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) &&
			  WEXITSTATUS(status) == 0;
	}
	check(started == MANY && exited == MANY, "%d programs running at once: %d started (%s), %d exited",
	      MANY, started, err ? strerror(err) : "ok", exited);
}

/* A copy of the file at from, executable, at to. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;
	int ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok && chmod(to, 0755) == 0;
}

/*
 * Programs ARA refuses because the App could choose code in them that
 * runs before ARA's initialisation: a RUNPATH (libraries from where it
 * says), a dynamic linker other than this process's (here a copy of it
 * the App wrote, which would otherwise run the program as well as the
 * original). spawn_child_runpath and spawn_child_interp are spawn_child
 * linked so; they lie next to it.
 */
static void chosen_code(const char *child)
{
	char path[4096];
	char *argv[] = { "x", "exit", "0", NULL };
	int err;

	snprintf(path, sizeof(path), "%s_runpath", child);
	check(spawn_status(path, argv, NULL, &err) < 0 && err == ENOEXEC,
	      "a program with a RUNPATH: %s, expected ENOEXEC", strerror(err));
	check(copy_file("/lib/ld-linux-aarch64.so.1", "/tmp/ara-spawn-ld.so"),
	      "copying the dynamic linker to /tmp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s_interp", child);
	check(spawn_status(path, argv, NULL, &err) < 0 && err == ENOEXEC,
	      "a program naming a copy of the dynamic linker: %s, expected ENOEXEC",
	      strerror(err));
	unlink("/tmp/ara-spawn-ld.so");
}

/* A script in /tmp: "#!" line, then body; returns its path. */
static const char *script(const char *name, const char *first_line, const char *body)
{
	static char path[8][128];
	static int next;
	char *p = path[next++ % 8];
	FILE *f;

	snprintf(p, sizeof(path[0]), "/tmp/ara-spawn-%d-%s", (int)getpid(), name);
	f = fopen(p, "w");
	if (!f || fprintf(f, "%s\n%s", first_line, body) < 0 || fclose(f) != 0 ||
	    chmod(p, 0755) != 0)
		check(0, "writing %s: %s", p, strerror(errno));
	return p;
}

/* Scripts: their interpreter (Debian's dash, a PIE) runs under ARA. */
static void scripts(const char *child)
{
	char body[4096];
	const char *s;
	int err;

	snprintf(body, sizeof(body), "exec %s exit 11\n", child);
	s = script("exit", "#!/usr/bin/dash", body);
	check_exit("a script: its interpreter starts the child", run(s, NULL, NULL, NULL), 11);
	s = script("arg", "#!  /usr/bin/dash   -e  ", "false\nexit 12\n");
	check_exit("a script's #! argument (-e) reaches the interpreter", run(s, NULL, NULL, NULL), 1);
	s = script("name", "#!/usr/bin/dash", "[ \"$0\" = \"$ARA_SCRIPT\" ] && [ \"$1\" = one ] && exit 13\n");
	setenv("ARA_SCRIPT", s, 1);
	check_exit("a script gets its own name and arguments", run(s, "one", NULL, NULL), 13);
	unsetenv("ARA_SCRIPT");
	snprintf(body, sizeof(body), "#!%s", script("inner", "#!/usr/bin/dash", "exit 14\n"));
	s = script("outer", body, "");
	check_exit("a script whose interpreter is a script", run(s, NULL, NULL, NULL), 14);
	{
		char self[160];
		char *argv[] = { "loop", NULL };

		snprintf(self, sizeof(self), "#!/tmp/ara-spawn-%d-loop", (int)getpid());
		s = script("loop", self, "");
		check(spawn_status(s, argv, NULL, &err) < 0 && err == ELOOP,
		      "a script that is its own interpreter: %s, expected ELOOP", strerror(err));
		s = script("static", "#!/bin/busybox sh", "exit 0\n");
		check(spawn_status(s, argv, NULL, &err) < 0 && err == ENOEXEC,
		      "a script for a static interpreter: %s, expected ENOEXEC", strerror(err));
	}
}

/* system() and popen() through /bin/sh (with_dash_sh.sh makes it dash). */
static void shell(const char *child)
{
	char cmd[4096];
	long total = 0;
	size_t n;
	char buf[8192];
	FILE *f;
	int status;

	check(system(NULL) != 0, "system(NULL): no shell");
	status = system("exit 3");
	check(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "system(\"exit 3\"): wait status 0x%x", status);
	snprintf(cmd, sizeof(cmd), "%s exit 9", child);
	status = system(cmd);
	check(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 9,
	      "system(\"child exit 9\"): wait status 0x%x", status);
	snprintf(cmd, sizeof(cmd), "%s grandchild %s", child, self_hex);
	status = system(cmd);
	check(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a program the shell started names the shell, not this App, as its parent: "
	      "wait status 0x%x", status);
	snprintf(cmd, sizeof(cmd), "exec %s write 100000", child);
	f = popen(cmd, "r");
	check(f != NULL, "popen: %s", strerror(errno));
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		total += (long)n;
	status = pclose(f);
	check(total == 100000 && status == 0, "popen: read %ld bytes, pclose 0x%x", total, status);
}

int main(int argc, char **argv)
{
	struct ara_info_arg info;
	const char *child;
	int status;

	if (argc != 2 && !(argc == 3 && !strcmp(argv[2], "--shell")))
		return 2;
	child = argv[1];
	if (secure_call(ARA_FID_INFO, &info) != ARA_OK)
		return check(0, "secure_call(INFO)"), check_report("spawn");
	for (int i = 0; i < 32; i++)
		sprintf(self_hex + 2 * i, "%02x", info.app_sha256[i]);
	if (argc == 3) {
		shell(child);
		return check_report("spawn-shell");
	}

	check_exit("posix_spawn: the child runs under ARA", run(child, "info", self_hex, NULL), 42);
	check_exit("posix_spawn: exit status", run(child, "exit", "23", NULL), 23);
	status = run(child, "signal", NULL, NULL);
	check(status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	      "posix_spawn: death by SIGTERM, wait status 0x%x", status);
	check_exit("execve chain of 3", run(child, "nest", "3", self_hex), 40);
	check_exit("a started program's name is its file's, as the kernel gives it",
		   run(child, "comm", "spawn_child", NULL), 0);
	{
		char comm[32] = "";
		FILE *f = fopen("/proc/self/comm", "r");

		check(f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "spawn_app\n"),
		      "this App's name is \"%s\", expected spawn_app", comm);
		if (f)
			fclose(f);
	}
	check_exit("the started program cannot ptrace or read its parent",
		   run(child, "attack", NULL, NULL), 0);
	fork_exec(child);
	pipe_output(child);
	errors(child);
	mask(child);
	many(child);
	scripts(child);
	chosen_code(child);
	return check_report("spawn");
}
