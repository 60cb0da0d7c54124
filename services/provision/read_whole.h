/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole files into memory under a bound checked before they are read: the
 * trusted side's inputs (ara-verify's, the provisioner's policy and secrets
 * files), each with the bound its documentation gives.
 */
#ifndef ARA_PROVISION_READ_WHOLE_H
#define ARA_PROVISION_READ_WHOLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/*
 * 0 and a malloc'd *buf of *len bytes plus a NUL after them (never NULL),
 * or -1 with errno set (EFBIG: the file is over max bytes; EIO: it changed
 * while it was read). A regular file's size is checked before anything is
 * read, and it is read into one buffer of that size: an input costs its
 * size once, and at most max. Anything else (a pipe) is read up to max
 * bytes.
 */
int ara_read_whole(const char *path, size_t max, uint8_t **buf, size_t *len);

/*
 * The same for a regular file only, opened without waiting (a FIFO named
 * instead never blocks): -2 if path is not a regular file.
 */
int ara_read_regular(const char *path, size_t max, uint8_t **buf, size_t *len);

/*
 * ara_read_regular for path resolved inside the directory root, as if root
 * were "/" (openat2's RESOLVE_IN_ROOT): an absolute symbolic link, or ".."
 * at the top, stays under root, so a path a report names never reaches
 * another file of the reader's.
 */
int ara_read_regular_in(const char *root, const char *path, size_t max, uint8_t **buf,
			size_t *len);

/* The same as ara_read_whole, with the opened file's status in *st (its mode, its owner). */
int ara_read_whole_stat(const char *path, size_t max, uint8_t **buf, size_t *len,
			struct stat *st);

#endif
