/* SPDX-License-Identifier: Apache-2.0 */
/* The module cache (modules.h). */
#include "modules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/sha256.h>

#include "bounds.h"

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = lb == 0 || b[0] != '/';
	char *s = malloc(la + lb + (size_t)slash + 1);

	if (s != NULL)
		snprintf(s, la + lb + (size_t)slash + 1, "%s%s%s", a, slash ? "/" : "", b);
	return s;
}

/* The override for path, or NULL. */
static const char *override_of(const struct ara_rtm_modcache *mc, const char *path)
{
	for (size_t i = 0; i < mc->noverrides; i++)
		if (strcmp(mc->overrides[i].path, path) == 0)
			return mc->overrides[i].file;
	return NULL;
}

/*
 * m's file read whole, under max bytes: an override's file as given;
 * under the root, resolved inside it (a symbolic link in the root's tree
 * cannot lead out of it); else path itself. As ara_read_regular returns.
 */
static int read_module(const struct ara_rtm_modcache *mc, struct ara_rtm_module_file *m, size_t max)
{
	const char *file = override_of(mc, m->path);

	if (file != NULL || mc->root == NULL)
		return ara_read_regular(m->file, max, &m->mem, &m->size);
	return ara_read_regular_in(mc->root, m->path, max, &m->mem, &m->size);
}

static char *where(const struct ara_rtm_modcache *mc, const char *path)
{
	const char *file = override_of(mc, path);

	if (file != NULL)
		return strdup(file);
	if (mc->root != NULL)
		return join(mc->root, path);
	return strdup(path);
}

/*
 * The App's checks on its file, however it was found: the measured App's
 * digest, and full RELRO (the runtime reaches secure_call through the
 * App's GOT: were it writable, a data-only write could silence the log
 * without a single illegal transfer; docs/rtm.md, "Attacks"). 0, or -1
 * with m->why and m->fail set.
 */
static int check_app(struct ara_rtm_modcache *mc, struct ara_rtm_module_file *m)
{
	uint8_t got[ARA_RTM_HASH_BYTES];
	struct ara_rtm_elf elf;
	enum ara_rtm_elf_err err;

	if (mbedtls_sha256(m->mem, m->size, got, 0)) {
		snprintf(m->why, sizeof(m->why), "the App's file %s: SHA-256 failed", m->file);
		return -1;
	}
	err = ara_rtm_elf_open(&elf, m->mem, m->size);
	if (err != ARA_RTM_ELF_OK) {
		snprintf(m->why, sizeof(m->why), "the App's file %s: %s", m->file,
			 ara_rtm_elf_strerror(err));
		return -1;
	}
	m->fail = ARA_RTM_MODULE_REJECTED;
	if (mc->app_known && memcmp(mc->app_sha256, got, sizeof(got)) != 0) {
		snprintf(m->why, sizeof(m->why),
			 "the App's file %s is not the App the evidence measured", m->file);
		return -1;
	}
	if (!ara_rtm_elf_full_relro(&elf)) {
		snprintf(m->why, sizeof(m->why),
			 "the App's file %s is not linked with full RELRO (-z relro -z now): its "
			 "GOT, through which the RTM runtime calls secure_call, stays writable",
			 m->file);
		return -1;
	}
	m->fail = ARA_RTM_MODULE_ERROR;
	memcpy(mc->app_sha256, got, sizeof(got));
	mc->app_known = 1;
	return 0;
}

/* Whether path has a ".." component. */
static int dot_dot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return 1;
	return 0;
}

static void load(struct ara_rtm_modcache *mc, struct ara_rtm_module_file *m)
{
	const char *why;
	size_t max;
	int r;
	int app = strcmp(m->path, ARA_RTM_APP_MODULE_PATH) == 0;

	/* A report names its modules by absolute, resolved paths: none leaves the root. */
	if (dot_dot(m->path)) {
		m->failed = 1;
		m->fail = ARA_RTM_MODULE_ERROR;
		snprintf(m->why, sizeof(m->why), "module %s: a '..' in its path", m->path);
		return;
	}
	m->file = where(mc, m->path);
	if (m->file == NULL) {
		m->failed = 1;
		snprintf(m->why, sizeof(m->why), "module %s: out of memory", m->path);
		return;
	}
	max = ARA_RTM_MODULE_FILE_MAX;
	if (mc->max_bytes && mc->max_bytes - mc->bytes < max)
		max = mc->max_bytes - mc->bytes;
	r = read_module(mc, m, max);
	if (r == -1 && errno == EFBIG && max < ARA_RTM_MODULE_FILE_MAX) {
		m->failed = 1;
		m->fail = ARA_RTM_MODULE_ERROR;
		snprintf(m->why, sizeof(m->why),
			 "module %s: the report's module files are over the %zu bytes this verifier "
			 "reads for one report",
			 m->path, mc->max_bytes);
		return;
	}
	if (r == -2) {
		m->failed = 1;
		m->fail = ARA_RTM_MODULE_ERROR;
		snprintf(m->why, sizeof(m->why), "module %s: %s is not a regular file", m->path,
			 m->file);
		return;
	}
	if (r) {
		m->failed = 1;
		m->fail = errno == EFBIG ? ARA_RTM_MODULE_ERROR : ARA_RTM_MODULE_UNREADABLE;
		if (app)
			snprintf(m->why, sizeof(m->why), "the App's file %s: cannot read: %s",
				 m->file, strerror(errno));
		else
			snprintf(m->why, sizeof(m->why), "module %s: cannot read %s: %s", m->path,
				 m->file, strerror(errno));
		return;
	}
	mc->bytes += m->size;
	if (app && check_app(mc, m)) {
		m->failed = 1;
		return;
	}
	if (ara_rtm_targets_build(&m->targets, m->mem, m->size, &why)) {
		m->failed = 1;
		snprintf(m->why, sizeof(m->why), "module %s (%s): %s", m->path, m->file, why);
	}
}

struct ara_rtm_module_file *ara_rtm_modcache_get(struct ara_rtm_modcache *mc, const uint8_t *path,
						 uint32_t path_len, const char **why,
						 enum ara_rtm_module_fail *fail)
{
	struct ara_rtm_module_file *m, **files;

	for (size_t i = 0; i < mc->nfiles; i++) {
		m = mc->files[i];
		if (strlen(m->path) == path_len && memcmp(m->path, path, path_len) == 0)
			goto found;
	}
	files = realloc(mc->files, (mc->nfiles + 1) * sizeof(*files));
	if (files == NULL) {
		*why = "out of memory";
		*fail = ARA_RTM_MODULE_ERROR;
		return NULL;
	}
	mc->files = files;
	m = calloc(1, sizeof(*m));
	if (m == NULL || (m->path = strndup((const char *)path, path_len)) == NULL) {
		free(m);
		*why = "out of memory";
		*fail = ARA_RTM_MODULE_ERROR;
		return NULL;
	}
	mc->files[mc->nfiles++] = m;
	load(mc, m);
found:
	*why = m->why;
	*fail = m->fail;
	return m->failed ? NULL : m;
}

void ara_rtm_modcache_free(struct ara_rtm_modcache *mc)
{
	for (size_t i = 0; i < mc->nfiles; i++) {
		struct ara_rtm_module_file *m = mc->files[i];

		if (!m->failed)
			ara_rtm_targets_free(&m->targets);
		free(m->mem);
		free(m->file);
		free(m->path);
		free(m);
	}
	free(mc->files);
	mc->files = NULL;
	mc->nfiles = 0;
}
