/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An output file that appears whole or not at all: written as a temporary
 * file beside it, renamed over it when complete. Until then the temporary
 * is removed on exit (ara_die included) and on SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE, so no failure leaves a partial file behind.
 */
#include "ara_cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

/* The one pending temporary file, if pending_set. */
static char pending[PATH_MAX];
static volatile sig_atomic_t pending_set;

static void remove_pending(void)
{
	if (pending_set) {
		unlink(pending);
		pending_set = 0;
	}
}

/* unlink() is async-signal-safe; then die of the signal as we would have. */
static void on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_cleanup(void)
{
	static int installed;

	if (installed)
		return;
	installed = 1;
	atexit(remove_pending);
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

int ara_out_open(struct ara_out *o, const char *path, mode_t mode)
{
	mode_t mask = umask(0);
	sigset_t block, old;
	int n;

	umask(mask);
	o->path = path;
	o->fd = -1;
	if (pending_set) {
		errno = EBUSY; /* one at a time */
		return -1;
	}
	n = snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	install_cleanup();
	/* No signal between creating the file and recording it. */
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++)
		sigaddset(&block, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	o->fd = mkstemp(o->tmp);
	if (o->fd >= 0) {
		memcpy(pending, o->tmp, sizeof(pending));
		pending_set = 1;
	}
	n = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = n;
	if (o->fd < 0)
		return -1;
	if (fchmod(o->fd, mode & ~mask) != 0) {
		ara_out_discard(o);
		return -1;
	}
	return 0;
}

int ara_out_commit(struct ara_out *o)
{
	int fd = o->fd;

	o->fd = -1;
	if (close(fd) != 0 || rename(o->tmp, o->path) != 0) {
		int saved = errno;

		remove_pending();
		errno = saved;
		return -1;
	}
	pending_set = 0;
	return 0;
}

void ara_out_discard(struct ara_out *o)
{
	int saved = errno;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	remove_pending();
	errno = saved;
}

int ara_same_file(int fd, const char *path)
{
	struct stat a, b;

	if (fstat(fd, &a) != 0)
		return -1;
	if (stat(path, &b) != 0)
		return errno == ENOENT ? 0 : -1;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
