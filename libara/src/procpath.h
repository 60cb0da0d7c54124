/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which procfs files App code may not open (IV4): the ones through which
 * the kernel reads or writes a process's memory ignoring its keys.
 *   <pid>/mem, <pid>/task/<tid>/mem   read and write any mapping (FOLL_FORCE,
 *                                     FOLL_REMOTE: no pkey check)
 *   <pid>/map_files/<range>           opens the file behind any mapping
 * Matched on the path the kernel reports for an open descriptor (readlink of
 * /proc/self/fd/N), by its last components, so wherever procfs is mounted.
 * Pure code: DOM0 runs it, the host unit tests it.
 */
#ifndef ARA_PROCPATH_H
#define ARA_PROCPATH_H

#include <stdbool.h>
#include <stddef.h>

/* path: len bytes, not NUL-terminated (readlink's result), of a procfs file. */
bool ara_proc_path_denied(const char *path, size_t len);

#endif
