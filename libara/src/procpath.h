/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the kernel's own name of an open procfs or sysfs object says about it
 * (IV4, docs/files.md): the name is the readlink of /proc/thread-self/fd/N
 * for the descriptor ARA opened, which no symbolic link can fake and no bind
 * mount can change (the filter denies mounts). It is matched by its last
 * components, so wherever the file system is mounted (or whatever the root).
 *
 * A file these functions do not name has no rule of its own: open.c
 * (file_class.c) lets App code read it and refuses writes. Only the names
 * App code may also write need their whole shape ("<pid>/comm" or
 * "<pid>/task/<tid>/comm"): an allowance must be exact, a refusal need not.
 * Pure code: DOM0 runs it, the host unit tests and fuzzes it.
 */
#ifndef ARA_PROCPATH_H
#define ARA_PROCPATH_H

#include <stddef.h>

enum ara_proc_name {
	ARA_PROC_OTHER,          /* no rule of its own */
	ARA_PROC_MEMORY,         /* <pid>/mem, <pid>/map_files[/...]: the memory ignoring keys */
	ARA_PROC_REGISTERS,      /* <pid>/syscall: a blocked thread's registers */
	ARA_PROC_KERNEL_STACK,   /* <pid>/stack, wchan, latency: where a thread sleeps in the kernel */
	ARA_PROC_PAGE_STATE,     /* <pid>/pagemap, kpagecount, kpageflags, kpagecgroup */
	ARA_PROC_PHYSICAL,       /* kcore, vmcore, bus/pci/<bus>/<device>: physical memory */
	ARA_PROC_SYSRQ,          /* sysrq-trigger */
	ARA_PROC_KERNEL_LOG,     /* kmsg */
	ARA_PROC_TASK_WRITABLE,  /* <pid>/comm, oom_score_adj, oom_adj, coredump_filter */
	ARA_PROC_UNNAMED,        /* " (deleted)": the object is gone, its name no longer says */
};

enum ara_sys_name {
	ARA_SYS_OTHER,           /* no rule of its own */
	ARA_SYS_PHYSICAL,        /* resource<N>[_wc], legacy_mem, legacy_io: device memory */
	ARA_SYS_PAGE_STATE,      /* page_idle/bitmap: every physical page's idle bit */
	ARA_SYS_UNNAMED,         /* " (deleted)" */
};

/* name: len bytes, not NUL-terminated (readlink's result), of a procfs object. */
enum ara_proc_name ara_proc_name_class(const char *name, size_t len);

/* The same for a sysfs object. */
enum ara_sys_name ara_sys_name_class(const char *name, size_t len);

#endif
