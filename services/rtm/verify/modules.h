/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binaries a run's module tables name, each found, read and parsed
 * once (on first use) however many documents and entries name it. A
 * module path from a report is looked up as the file given for it
 * (--module PATH=FILE), else as ROOT + path (--root), else as the path
 * itself.
 *
 * The App's module (ARA_RTM_APP_MODULE_PATH) gets the App's checks however
 * its file is found: its digest must be the measured App's and it must be
 * linked with full RELRO (docs/rtm.md, "Verification").
 */
#ifndef ARA_RTM_MODULES_H
#define ARA_RTM_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "ara/boot.h"
#include "rtm_format.h"
#include "targets.h"

/* How the App's sealed copy appears in /proc/self/maps (loader/sealed_copy.c). */
#define ARA_RTM_APP_MODULE_PATH "/memfd:" ARA_MEMFD_APP " (deleted)"

/* How a module could not be had. */
enum ara_rtm_module_fail {
	ARA_RTM_MODULE_ERROR,	   /* not parsed (not an ELF file, ...), or out of memory */
	ARA_RTM_MODULE_UNREADABLE, /* its file cannot be read */
	ARA_RTM_MODULE_REJECTED,   /* the App's file fails the App's checks */
};

struct ara_rtm_module_file {
	char *path; /* as the report names it */
	char *file; /* where it was read from */
	uint8_t *mem;
	size_t size;
	struct ara_rtm_targets targets;
	int failed;	 /* nonzero: why says what went wrong, fail how */
	enum ara_rtm_module_fail fail;
	char why[512];
};

struct ara_rtm_module_override {
	const char *path, *file;
};

struct ara_rtm_modcache {
	const char *root; /* or NULL */
	const struct ara_rtm_module_override *overrides;
	size_t noverrides;
	/*
	 * The measured App's digest, which the App's file must have; with
	 * app_known 0, the first App file read sets it (and app_known).
	 */
	uint8_t app_sha256[ARA_RTM_HASH_BYTES];
	int app_known;
	/*
	 * 0, or the bytes all module files together may take (a service
	 * bounds what one report makes it read); bytes: read so far.
	 */
	size_t max_bytes, bytes;
	struct ara_rtm_module_file **files;
	size_t nfiles;
};

/*
 * The parsed module for path (path_len bytes, no NUL): NULL if it could not
 * be found, read or parsed (or memory ran out), or it is the App's and fails
 * the App's checks, with *why and *fail set (why stays valid while the
 * cache does). A failure is remembered too.
 */
struct ara_rtm_module_file *ara_rtm_modcache_get(struct ara_rtm_modcache *mc, const uint8_t *path,
						 uint32_t path_len, const char **why,
						 enum ara_rtm_module_fail *fail);

void ara_rtm_modcache_free(struct ara_rtm_modcache *mc);

#endif
