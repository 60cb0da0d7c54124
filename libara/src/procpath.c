/* SPDX-License-Identifier: Apache-2.0 */
#include "procpath.h"

/* Where the last component of path[0, end) starts. */
static size_t last_component(const char *path, size_t end)
{
	size_t start = end;

	while (start > 0 && path[start - 1] != '/')
		start--;
	return start;
}

static bool is(const char *path, size_t start, size_t end, const char *name)
{
	size_t i = 0;

	for (; start + i < end && name[i]; i++)
		if (path[start + i] != name[i])
			return false;
	return start + i == end && name[i] == '\0';
}

bool ara_proc_path_denied(const char *path, size_t len)
{
	size_t end = len, start;

	while (end > 0 && path[end - 1] == '/')
		end--;
	start = last_component(path, end);
	if (is(path, start, end, "mem"))
		return true;
	/* <pid>/map_files/<range>, or the map_files directory itself. */
	if (is(path, start, end, "map_files"))
		return true;
	if (start > 0) {
		size_t parent_end = start - 1, parent = last_component(path, parent_end);

		if (is(path, parent, parent_end, "map_files"))
			return true;
	}
	return false;
}
