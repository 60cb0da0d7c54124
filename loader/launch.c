/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* asprintf */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ara_cli.h"
#include "exit_status.h"
#include "sealed_copy.h"

#define FD_PATH_MAX sizeof("/proc/self/fd/-2147483648")
/* interp --preload LIST --argv0 APP /proc/self/fd/<app>, then the App's. */
#define LDSO_ARGS 6u

/* The memfds are close-on-exec from birth; these four must survive. */
static void keep_across_exec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) != 0)
		ara_die(ARA_EXIT_INTERNAL,
			"cannot keep descriptor %d open across exec: %s", fd,
			strerror(errno));
}

static int write_boot_block(const struct ara_boot *boot)
{
	const char *failed = "";
	int fd = ara_sealed_buffer(boot, sizeof(*boot), ARA_MEMFD_BOOT, &failed);

	if (fd < 0)
		ara_die(ARA_EXIT_INTERNAL, "cannot write the boot block: %s: %s",
			failed, strerror(errno));
	return fd;
}

/*
 * glibc registers an rseq area for every thread; through it the App could
 * make the kernel divert a thread preempted inside DOM0 to an App-chosen
 * abort address. The tunable keeps glibc from registering (libara checks
 * that it did not, and its filter denies rseq to App code). Appended, so a
 * caller's own tunables stay and cannot come after it.
 */
static void disable_rseq(void)
{
	static const char off[] = "glibc.pthread.rseq=0";
	const char *old = getenv("GLIBC_TUNABLES");
	char *value;
	int n;

	if (old == NULL || *old == '\0')
		n = asprintf(&value, "%s", off);
	else
		n = asprintf(&value, "%s:%s", old, off);
	if (n < 0 || setenv("GLIBC_TUNABLES", value, 1) != 0)
		ara_die(ARA_EXIT_INTERNAL, "cannot set GLIBC_TUNABLES: %s", strerror(errno));
	free(value);
}

void ara_launch(const struct ara_launch *l)
{
	const struct ara_boot *boot = l->boot;
	char preload[2 * FD_PATH_MAX], app[FD_PATH_MAX], boot_env[16];
	size_t nargs = 0, i = 0;
	int boot_fd = write_boot_block(boot);
	char **argv;

	keep_across_exec(boot->app_fd);
	keep_across_exec(boot->libara_fd);
	keep_across_exec(boot->entry_fd);
	keep_across_exec(boot_fd);
	/* Cannot be truncated: the buffers fit any int. */
	snprintf(preload, sizeof(preload), "/proc/self/fd/%d /proc/self/fd/%d",
		 boot->entry_fd, boot->libara_fd);
	snprintf(app, sizeof(app), "/proc/self/fd/%d", boot->app_fd);
	snprintf(boot_env, sizeof(boot_env), "%d", boot_fd);
	if (setenv(ARA_BOOT_ENV, boot_env, 1) != 0)
		ara_die(ARA_EXIT_INTERNAL, "cannot set %s: %s", ARA_BOOT_ENV,
			strerror(errno));

	disable_rseq();

	while (l->app_args[nargs] != NULL)
		nargs++;
	argv = calloc(LDSO_ARGS + nargs + 1, sizeof(*argv)); /* + NULL */
	if (argv == NULL)
		ara_die(ARA_EXIT_INTERNAL, "out of memory");
	/* execv() takes char *const[] but does not write through it. */
	argv[i++] = (char *)l->interp;
	argv[i++] = (char *)"--preload";
	argv[i++] = preload;
	argv[i++] = (char *)"--argv0";
	argv[i++] = (char *)l->app_path;
	argv[i++] = app;
	memcpy(&argv[i], l->app_args, (nargs + 1) * sizeof(*argv));

	execv(l->interp, argv);
	ara_die(ARA_EXIT_EXEC, "cannot execute the dynamic linker %s: %s",
		l->interp, strerror(errno));
}
