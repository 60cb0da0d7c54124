/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the procfs path check (libara/src/procpath.c), which ARA
 * runs on paths the kernel reports for files App code opened. Properties,
 * for any bytes:
 *   - it reads only the len bytes it is given (ASan: an exact heap copy);
 *   - it agrees with a plain reference: strip trailing slashes; refused iff
 *     the last component is "mem" or "map_files", or its parent is
 *     "map_files".
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz_check.h"
#include "procpath.h"

static bool component_is(const char *p, size_t start, size_t end, const char *name)
{
	return end - start == strlen(name) && memcmp(p + start, name, end - start) == 0;
}

static bool reference(const char *p, size_t len)
{
	size_t end = len, start, pend, pstart;

	while (end > 0 && p[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && p[start - 1] != '/')
		start--;
	if (component_is(p, start, end, "mem") || component_is(p, start, end, "map_files"))
		return true;
	if (start == 0)
		return false;
	pend = start - 1;
	pstart = pend;
	while (pstart > 0 && p[pstart - 1] != '/')
		pstart--;
	return component_is(p, pstart, pend, "map_files");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	FUZZ_CHECK(p);
	memcpy(p, data, size);
	FUZZ_CHECK(ara_proc_path_denied(p, size) == reference(p, size));
	free(p);
	return 0;
}
