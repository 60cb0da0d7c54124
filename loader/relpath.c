/* SPDX-License-Identifier: Apache-2.0 */
#include "relpath.h"

#include <stdio.h>
#include <string.h>

/* Length of the path component at s (up to the next '/' or the end). */
static size_t component_len(const char *s)
{
	return strcspn(s, "/");
}

/* s past its component and the '/' after it, if any. */
static const char *next_component(const char *s)
{
	s += component_len(s);
	return *s == '/' ? s + 1 : s;
}

int ara_relpath(const char *from, const char *to, char *out, size_t cap)
{
	size_t used = 0;
	int n;

	if (from[0] != '/' || to[0] != '/' || cap == 0)
		return -1;
	from++;
	to++;
	/* Skip the components both paths share. */
	while (*from != '\0' && component_len(from) == component_len(to) &&
	       memcmp(from, to, component_len(from)) == 0) {
		from = next_component(from);
		to = next_component(to);
	}
	if (*to == '\0')
		return -1; /* to is from or one of its parents: not a file */
	/* One ".." per component of from left over. */
	for (; *from != '\0'; from = next_component(from)) {
		n = snprintf(out + used, cap - used, "../");
		if (n < 0 || (size_t)n >= cap - used)
			return -1;
		used += (size_t)n;
	}
	n = snprintf(out + used, cap - used, "%s", to);
	return n < 0 || (size_t)n >= cap - used ? -1 : 0;
}

int ara_manifest_relative(const char *manifest, const char *path, char *out,
			  size_t cap)
{
	const char *slash = strrchr(manifest, '/');
	int n;

	if (path[0] == '/')
		n = snprintf(out, cap, "%s", path);
	else if (slash == NULL)
		n = snprintf(out, cap, "./%s", path);
	else
		n = snprintf(out, cap, "%.*s/%s", (int)(slash - manifest),
			     manifest, path);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}
