/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Walking /proc/self/maps from DOM0: the file is read whole into DOM0 heap
 * with raw system calls, then parsed (ara/maps.h) as one snapshot, so the
 * callback may change mappings without disturbing the walk.
 */
#include "ara/boot.h"
#include "ara/maps.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "maps_walk.h"
#include "mem.h"
#include "private_files.h"
#include "sys.h"

#define MAPS_MAX (8u << 20) /* refuse a maps file larger than this */

/* The whole file in a DOM0 buffer, or NULL with *why set. */
static char *read_maps(size_t *len, const char **why, long *value)
{
	size_t cap = 64 * 1024, used = 0;
	char *buf = ara_dom0_calloc(1, cap);
	long fd = ara_sys4(__NR_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);

	*value = (long)cap;
	*why = "DOM0 heap exhausted reading /proc/self/maps";
	if (ara_sys_failed(fd)) {
		ara_dom0_free(buf);
		*why = "cannot open /proc/self/maps";
		*value = fd;
		return NULL;
	}
	for (;;) {
		long got;

		if (!buf)
			break;
		if (used == cap) {
			char *bigger = cap < MAPS_MAX ? ara_dom0_calloc(2, cap) : NULL;

			if (!bigger) {
				*why = "/proc/self/maps is too large, or the DOM0 heap exhausted";
				ara_dom0_free(buf);
				buf = NULL;
				break;
			}
			memcpy(bigger, buf, used);
			ara_dom0_free(buf);
			buf = bigger;
			cap *= 2;
		}
		got = ara_sys3(__NR_read, fd, buf + used, cap - used);
		if (ara_sys_failed(got)) {
			*why = "cannot read /proc/self/maps";
			*value = got;
			ara_dom0_free(buf);
			buf = NULL;
			break;
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	ara_sys1(__NR_close, fd);
	*len = used;
	return buf;
}

struct maps_job {
	char *buf;
	size_t len;
	const char *why;
	long value;
};

/* In ARA's task (private_files.h): buf, or NULL with why and value set. */
static long maps_job_run(void *arg)
{
	struct maps_job *j = arg;

	j->buf = read_maps(&j->len, &j->why, &j->value);
	return 0;
}

/*
 * The file is read through a descriptor of a private table: in the App's,
 * another thread could put a file of its own behind the number between
 * two reads, and have ARA see the mappings it wrote (the RTM's module
 * check runs after the App has).
 */
int ara_maps_try_foreach(ara_map_fn fn, void *ctx, const char **why, long *value)
{
	struct maps_job j = { .buf = NULL };
	long r = ara_private_files_call(maps_job_run, &j, -1);
	size_t len = j.len;
	char *buf = j.buf;
	struct ara_maps_cursor c;
	struct ara_mapping m;
	enum ara_maps_status st;

	if (r != 0) {
		*why = "cannot start ARA's task to read /proc/self/maps";
		*value = r;
		return -1;
	}
	if (!buf) {
		*why = j.why;
		*value = j.value;
		return -1;
	}
	ara_maps_init(&c, buf, len);
	while ((st = ara_maps_next(&c, &m)) == ARA_MAPS_OK)
		fn(&m, ctx);
	ara_dom0_free(buf);
	if (st != ARA_MAPS_END) {
		*why = "/proc/self/maps did not parse; status";
		*value = st;
		return -1;
	}
	return 0;
}

void ara_maps_foreach(ara_map_fn fn, void *ctx)
{
	const char *why;
	long value;

	if (ara_maps_try_foreach(fn, ctx, &why, &value))
		ara_fatal(why, value);
}

bool ara_mapping_is(const struct ara_mapping *m, const char *path)
{
	size_t n = strlen(path);

	return m->path_len == n && memcmp(m->path, path, n) == 0;
}

struct find_entry {
	uint64_t base;
	unsigned int found;
};

static void find_entry(const struct ara_mapping *m, void *ctx)
{
	struct find_entry *f = ctx;

	if (m->offset == 0 && ara_mapping_is(m, "/memfd:" ARA_MEMFD_ENTRY " (deleted)")) {
		f->base = m->start;
		f->found++;
	}
}

uint64_t ara_entry_base(void)
{
	struct find_entry f = { 0, 0 };

	ara_maps_foreach(find_entry, &f);
	if (f.found != 1)
		ara_fatal("the entry object is not mapped exactly once from its memfd; mappings",
			  (long)f.found);
	return f.base;
}

struct find_file {
	uint64_t addr;
	struct ara_file_id id;
	unsigned int found;
};

static void find_file(const struct ara_mapping *m, void *ctx)
{
	struct find_file *f = ctx;

	if (f->addr >= m->start && f->addr < m->end && m->inode) {
		f->id = (struct ara_file_id){ m->dev_major, m->dev_minor, m->inode };
		f->found++;
	}
}

struct ara_file_id ara_mapped_file(uint64_t addr)
{
	struct find_file f = { .addr = addr };

	ara_maps_foreach(find_file, &f);
	if (f.found != 1)
		ara_fatal("no file is mapped at this address", (long)addr);
	return f.id;
}
