/* SPDX-License-Identifier: Apache-2.0 */
/* The hand-over: boot block, descriptors, and the exec of the dynamic linker. */
#ifndef ARA_LOADER_LAUNCH_H
#define ARA_LOADER_LAUNCH_H

#include <stdnoreturn.h>

#include "ara/boot.h"

struct ara_launch {
	const char *interp;	 /* the App's PT_INTERP: the dynamic linker */
	const char *app_path;	 /* as given on the command line: its argv[0] */
	char *const *app_args;	 /* the App's arguments, NULL-terminated */
	const struct ara_boot *boot; /* names the three object memfds */
};

/*
 * Writes the boot block into a sealed memfd, makes it and the three object
 * memfds (and no other descriptor) survive the exec, names the boot memfd
 * in ARA_BOOT_ENV and execs
 *
 *   interp --preload "/proc/self/fd/<entry> /proc/self/fd/<libara>"
 *          --argv0 <app_path> /proc/self/fd/<app> <app_args...>
 *
 * On failure it prints why and exits with ARA_EXIT_INTERNAL or, if the
 * exec failed, ARA_EXIT_EXEC.
 */
noreturn void ara_launch(const struct ara_launch *l);

#endif
