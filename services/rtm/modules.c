/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The code modules RTM documents name (rtm_format.h): the process's
 * executable file mappings and [vdso] when ARA initialised, before any App
 * code ran. After that, code the App makes executable is an anonymous
 * copy (libara/src/dom0/code_map.c), so the snapshot names every file the
 * App's code can come from; a document written later is checked against
 * the live mappings, and says if they changed (the App moved, unmapped or
 * re-protected code: after a hijack, to make a logged destination look
 * like another).
 *
 * The snapshot is the module's boot state (ara_module_boot: a forked child
 * keeps it, and has the same mappings).
 */
#include "ara/service.h"
#include "rtm_state.h"

/* Executable mappings of a file, and the vdso: where App code may be. */
static int is_code(const struct ara_mapping *m)
{
	return (m->perms & ARA_MAP_X) && (m->inode != 0 || ara_mapping_is(m, "[vdso]"));
}

/*
 * The path a module is named by. ARA replaced each executable mapping of a
 * file by a sealed copy at the file's offsets, in a memfd named after the
 * file (libara/src/dom0/code_copy.c): "/memfd:/usr/lib/libc.so.6 (deleted)"
 * holds /usr/lib/libc.so.6's code, and the verifier reads that file. (A
 * copy of ara-loader's memfd keeps its name, "/memfd:ara-app (deleted)".)
 * Only ARA, ld.so and the kernel have made code mappings by the time of the
 * snapshot, and App code never makes a file's: code_map.c's copies are anonymous.
 */
static void module_path(const struct ara_mapping *m, const char **path, size_t *len)
{
	static const char pre[] = "/memfd:/", suf[] = " (deleted)";
	const size_t npre = sizeof(pre) - 1, nsuf = sizeof(suf) - 1;

	*path = m->path;
	*len = m->path_len;
	if (*len > npre + nsuf && memcmp(*path, pre, npre) == 0 &&
	    memcmp(*path + *len - nsuf, suf, nsuf) == 0) {
		*path += npre - 1; /* from the file path's leading '/' */
		*len -= npre - 1 + nsuf;
	}
}

static void take(const struct ara_mapping *m, void *ctx)
{
	struct ara_rtm_snapshot *s = ctx;
	struct ara_rtm_module *mod;
	const char *path;
	size_t path_len;

	if (!is_code(m))
		return;
	module_path(m, &path, &path_len);
	if (s->count == ARA_RTM_MODULES_MAX || path_len == 0 ||
	    path_len > ARA_RTM_MODULE_PATH_MAX) {
		s->too_many = 1;
		return;
	}
	mod = &s->m[s->count++];
	mod->start = m->start;
	mod->end = m->end;
	mod->offset = m->offset;
	mod->inode = m->inode;
	mod->dev_major = m->dev_major;
	mod->dev_minor = m->dev_minor;
	mod->path_len = (uint32_t)path_len;
	memset(mod->path, 0, sizeof(mod->path));
	memcpy(mod->path, path, path_len);
}

static struct ara_rtm_snapshot *boot(void)
{
	struct ara_rtm_snapshot *b = ara_module_boot(&ara_rtm_module);

	if (!b)
		ara_fatal("rtm: no boot state for the code modules", 0);
	/* Writable by the RTM's domain and kept by a forked child: its count is checked, as any input. */
	if (b->count > ARA_RTM_MODULES_MAX)
		ara_fatal("rtm: the code modules' snapshot is corrupt; count", b->count);
	return b;
}

void ara_rtm_modules_init(void)
{
	ara_maps_foreach(take, boot());
}

const struct ara_rtm_module *ara_rtm_modules(uint32_t *count)
{
	const struct ara_rtm_snapshot *b = boot();

	*count = b->count;
	return b->too_many ? NULL : b->m;
}

struct compare {
	const struct ara_rtm_snapshot *boot;
	uint32_t seen; /* live code mappings that match the snapshot */
	int differs;
};

static void compare(const struct ara_mapping *m, void *ctx)
{
	struct compare *c = ctx;

	if (!is_code(m))
		return;
	for (uint32_t i = 0; i < c->boot->count; i++) {
		const struct ara_rtm_module *b = &c->boot->m[i];

		if (b->start == m->start && b->end == m->end && b->offset == m->offset &&
		    b->inode == m->inode && b->dev_major == m->dev_major &&
		    b->dev_minor == m->dev_minor) {
			c->seen++;
			return;
		}
	}
	c->differs = 1;
}

int ara_rtm_modules_changed(int *changed)
{
	struct compare c = { .boot = boot() };
	const char *why;
	long value;

	if (ara_maps_try_foreach(compare, &c, &why, &value))
		return -1;
	/* Every live one is in the snapshot, and none of the snapshot is gone. */
	*changed = c.differs || c.seen != c.boot->count;
	return 0;
}
