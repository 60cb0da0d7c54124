/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the names of procfs and sysfs objects
 * (libara/src/procpath.c), which ARA reads back from the kernel for files
 * App code opens (open.c). Properties, for any bytes:
 *   - each function reads only the len bytes it is given (ASan: an exact
 *     heap copy);
 *   - each agrees with a plain reference: split into components at '/'
 *     (empty ones dropped), then the rules of procpath.h, written again
 *     with libc.
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz_check.h"
#include "procpath.h"

#define MAX_COMPONENTS 8

struct split {
	const char *start[MAX_COMPONENTS]; /* the last components, the last first */
	size_t len[MAX_COMPONENTS];
	size_t n;
};

static struct split split_back(const char *p, size_t size)
{
	struct split s = { .n = 0 };
	size_t end = size;

	while (s.n < MAX_COMPONENTS) {
		size_t start;

		while (end > 0 && p[end - 1] == '/')
			end--;
		start = end;
		while (start > 0 && p[start - 1] != '/')
			start--;
		if (start == end && s.n > 0)
			break;
		s.start[s.n] = p + start;
		s.len[s.n++] = end - start;
		end = start;
		if (end == 0)
			break;
	}
	return s;
}

static bool comp(const struct split *s, size_t i, const char *word)
{
	return i < s->n && s->len[i] == strlen(word) && memcmp(s->start[i], word, s->len[i]) == 0;
}

static bool digits(const struct split *s, size_t i)
{
	if (i >= s->n || s->len[i] == 0)
		return false;
	for (size_t k = 0; k < s->len[i]; k++)
		if (s->start[i][k] < '0' || s->start[i][k] > '9')
			return false;
	return true;
}

static bool ends_deleted(const char *p, size_t size)
{
	return size >= 10 && memcmp(p + size - 10, " (deleted)", 10) == 0;
}

static enum ara_proc_name proc_reference(const char *p, size_t size)
{
	struct split s = split_back(p, size);

	if (ends_deleted(p, size))
		return ARA_PROC_UNNAMED;
	if (comp(&s, 0, "mem") || comp(&s, 0, "map_files") || comp(&s, 1, "map_files"))
		return ARA_PROC_MEMORY;
	if (comp(&s, 0, "syscall"))
		return ARA_PROC_REGISTERS;
	if (comp(&s, 0, "stack") || comp(&s, 0, "wchan") || comp(&s, 0, "latency"))
		return ARA_PROC_KERNEL_STACK;
	if (comp(&s, 0, "pagemap") || comp(&s, 0, "kpagecount") || comp(&s, 0, "kpageflags") ||
	    comp(&s, 0, "kpagecgroup"))
		return ARA_PROC_PAGE_STATE;
	if (comp(&s, 0, "kcore") || comp(&s, 0, "vmcore") || comp(&s, 2, "pci"))
		return ARA_PROC_PHYSICAL;
	if (comp(&s, 0, "sysrq-trigger"))
		return ARA_PROC_SYSRQ;
	if (comp(&s, 0, "kmsg"))
		return ARA_PROC_KERNEL_LOG;
	if ((comp(&s, 0, "comm") || comp(&s, 0, "oom_score_adj") || comp(&s, 0, "oom_adj") ||
	     comp(&s, 0, "coredump_filter")) &&
	    digits(&s, 1) && (!comp(&s, 2, "task") || digits(&s, 3)))
		return ARA_PROC_TASK_WRITABLE;
	return ARA_PROC_OTHER;
}

static enum ara_sys_name sys_reference(const char *p, size_t size)
{
	struct split s = split_back(p, size);

	if (ends_deleted(p, size))
		return ARA_SYS_UNNAMED;
	if (comp(&s, 0, "legacy_mem") || comp(&s, 0, "legacy_io"))
		return ARA_SYS_PHYSICAL;
	if (s.len[0] > 8 && memcmp(s.start[0], "resource", 8) == 0) {
		size_t k = 8;

		while (k < s.len[0] && s.start[0][k] >= '0' && s.start[0][k] <= '9')
			k++;
		if (k > 8 && (k == s.len[0] || (s.len[0] - k == 3 && memcmp(s.start[0] + k, "_wc", 3) == 0)))
			return ARA_SYS_PHYSICAL;
	}
	if (comp(&s, 0, "bitmap") && comp(&s, 1, "page_idle"))
		return ARA_SYS_PAGE_STATE;
	return ARA_SYS_OTHER;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	FUZZ_CHECK(p);
	memcpy(p, data, size);
	FUZZ_CHECK(ara_proc_name_class(p, size) == proc_reference(p, size));
	FUZZ_CHECK(ara_sys_name_class(p, size) == sys_reference(p, size));
	free(p);
	return 0;
}
