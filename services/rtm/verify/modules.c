/* SPDX-License-Identifier: Apache-2.0 */
/* The module cache (modules.h). */
#include "modules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = lb == 0 || b[0] != '/';
	char *s = malloc(la + lb + (size_t)slash + 1);

	if (s != NULL)
		snprintf(s, la + lb + (size_t)slash + 1, "%s%s%s", a, slash ? "/" : "", b);
	return s;
}

static char *where(const struct ara_rtm_modcache *mc, const char *path)
{
	for (size_t i = 0; i < mc->noverrides; i++)
		if (strcmp(mc->overrides[i].path, path) == 0)
			return strdup(mc->overrides[i].file);
	if (mc->root != NULL)
		return join(mc->root, path);
	return strdup(path);
}

static void load(const struct ara_rtm_modcache *mc, struct ara_rtm_module_file *m)
{
	const char *why;

	m->file = where(mc, m->path);
	if (m->file == NULL) {
		m->failed = 1;
		snprintf(m->why, sizeof(m->why), "module %s: out of memory", m->path);
		return;
	}
	if (ara_rtm_read_file(m->file, &m->mem, &m->size)) {
		m->failed = 1;
		snprintf(m->why, sizeof(m->why), "module %s: cannot read %s: %s", m->path, m->file,
			 strerror(errno));
		return;
	}
	if (ara_rtm_targets_build(&m->targets, m->mem, m->size, &why)) {
		m->failed = 1;
		snprintf(m->why, sizeof(m->why), "module %s (%s): %s", m->path, m->file, why);
	}
}

struct ara_rtm_module_file *ara_rtm_modcache_get(struct ara_rtm_modcache *mc, const uint8_t *path,
						 uint32_t path_len, const char **why)
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
		return NULL;
	}
	mc->files = files;
	m = calloc(1, sizeof(*m));
	if (m == NULL || (m->path = strndup((const char *)path, path_len)) == NULL) {
		free(m);
		*why = "out of memory";
		return NULL;
	}
	mc->files[mc->nfiles++] = m;
	load(mc, m);
found:
	*why = m->why;
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
