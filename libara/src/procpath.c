/* SPDX-License-Identifier: Apache-2.0 */
#include "procpath.h"

#include <stdbool.h>

struct component {
	size_t start, end;
};

#define DEPTH 4 /* the most components a rule looks at: bus/pci/<bus>/<device> */

/*
 * The last components of name[0, len), the last one first, into back[0..);
 * runs of '/' separate, trailing ones are ignored. Returns how many (up to
 * DEPTH).
 */
static size_t last_components(const char *name, size_t len, struct component back[DEPTH])
{
	size_t end = len, n = 0;

	while (n < DEPTH) {
		size_t start;

		while (end > 0 && name[end - 1] == '/')
			end--;
		if (end == 0 && n > 0)
			break;
		start = end;
		while (start > 0 && name[start - 1] != '/')
			start--;
		back[n++] = (struct component){ start, end };
		end = start;
	}
	return n;
}

static bool is(const char *name, struct component c, const char *word)
{
	size_t i = 0;

	for (; c.start + i < c.end && word[i]; i++)
		if (name[c.start + i] != word[i])
			return false;
	return c.start + i == c.end && word[i] == '\0';
}

/*
 * Is the component one of words: "one\0two\0" (the literal's own NUL ends
 * the list)? One string, so that DOM0's copy needs no relocation.
 */
static bool is_one_of(const char *name, struct component c, const char *words)
{
	for (; *words; words++) {
		if (is(name, c, words))
			return true;
		while (*words)
			words++;
	}
	return false;
}

static bool all_digits(const char *name, struct component c)
{
	if (c.start == c.end)
		return false;
	for (size_t i = c.start; i < c.end; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

/* d_path's mark of an object no longer linked (a dead task's procfs files). */
static bool deleted(const char *name, size_t len)
{
	static const char mark[] = " (deleted)";
	const size_t n = sizeof(mark) - 1;

	if (len < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[len - n + i] != mark[i])
			return false;
	return true;
}

/* "<pid>/NAME" or "<pid>/task/<tid>/NAME": a per-task file, exactly. */
static bool per_task(const char *name, const struct component *back, size_t n)
{
	if (n < 2 || !all_digits(name, back[1]))
		return false;
	if (n >= 3 && is(name, back[2], "task"))
		return n >= 4 && all_digits(name, back[3]);
	return true;
}

enum ara_proc_name ara_proc_name_class(const char *name, size_t len)
{
	static const char kernel_stack[] = "stack\0wchan\0latency\0";
	static const char page_state[] = "pagemap\0kpagecount\0kpageflags\0kpagecgroup\0";
	static const char physical[] = "kcore\0vmcore\0";
	static const char task_writable[] = "comm\0oom_score_adj\0oom_adj\0coredump_filter\0";
	struct component back[DEPTH];
	size_t n;

	if (deleted(name, len))
		return ARA_PROC_UNNAMED;
	n = last_components(name, len, back);
	if (is(name, back[0], "mem") || is(name, back[0], "map_files") ||
	    (n >= 2 && is(name, back[1], "map_files")))
		return ARA_PROC_MEMORY;
	if (is(name, back[0], "syscall"))
		return ARA_PROC_REGISTERS;
	if (is_one_of(name, back[0], kernel_stack))
		return ARA_PROC_KERNEL_STACK;
	if (is_one_of(name, back[0], page_state))
		return ARA_PROC_PAGE_STATE;
	/* bus/pci/<bus>/<device>: config space, and with CAP_SYS_RAWIO an mmap of its BARs */
	if (is_one_of(name, back[0], physical) || (n >= 3 && is(name, back[2], "pci")))
		return ARA_PROC_PHYSICAL;
	if (is(name, back[0], "sysrq-trigger"))
		return ARA_PROC_SYSRQ;
	if (is(name, back[0], "kmsg"))
		return ARA_PROC_KERNEL_LOG;
	if (is_one_of(name, back[0], task_writable) && per_task(name, back, n))
		return ARA_PROC_TASK_WRITABLE;
	return ARA_PROC_OTHER;
}

/* "resource<N>" or "resource<N>_wc": a PCI device's BAR N (drivers/pci/pci-sysfs.c). */
static bool pci_bar(const char *name, struct component c)
{
	static const char prefix[] = "resource";
	size_t i = c.start, digits;

	for (size_t k = 0; prefix[k]; k++, i++)
		if (i == c.end || name[i] != prefix[k])
			return false;
	for (digits = 0; i < c.end && name[i] >= '0' && name[i] <= '9'; i++)
		digits++;
	if (digits == 0)
		return false;
	return i == c.end || is(name, (struct component){ i, c.end }, "_wc");
}

enum ara_sys_name ara_sys_name_class(const char *name, size_t len)
{
	struct component back[DEPTH];
	size_t n;

	if (deleted(name, len))
		return ARA_SYS_UNNAMED;
	n = last_components(name, len, back);
	if (pci_bar(name, back[0]) || is(name, back[0], "legacy_mem") || is(name, back[0], "legacy_io"))
		return ARA_SYS_PHYSICAL;
	if (n >= 2 && is(name, back[0], "bitmap") && is(name, back[1], "page_idle"))
		return ARA_SYS_PAGE_STATE;
	return ARA_SYS_OTHER;
}
