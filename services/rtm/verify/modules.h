/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binaries a run's module tables name, each found, read and parsed
 * once (on first use) however many documents and entries name it. A
 * module path from a report is looked up as the file given for it
 * (--module PATH=FILE), else as ROOT + path (--root), else as the path
 * itself.
 */
#ifndef ARA_RTM_MODULES_H
#define ARA_RTM_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "targets.h"

struct ara_rtm_module_file {
	char *path; /* as the report names it */
	char *file; /* where it was read from */
	uint8_t *mem;
	size_t size;
	struct ara_rtm_targets targets;
	int failed;	 /* nonzero: why says what went wrong */
	char why[512];
};

struct ara_rtm_module_override {
	const char *path, *file;
};

struct ara_rtm_modcache {
	const char *root; /* or NULL */
	const struct ara_rtm_module_override *overrides;
	size_t noverrides;
	struct ara_rtm_module_file **files;
	size_t nfiles;
};

/*
 * The parsed module for path (path_len bytes, no NUL): NULL if it could not
 * be found, read or parsed (or memory ran out), with *why set (it stays
 * valid while the cache does). A failure is remembered too.
 */
struct ara_rtm_module_file *ara_rtm_modcache_get(struct ara_rtm_modcache *mc, const uint8_t *path,
						 uint32_t path_len, const char **why);

void ara_rtm_modcache_free(struct ara_rtm_modcache *mc);

#endif
