/* SPDX-License-Identifier: Apache-2.0 */
/* Relative paths: those ara-manifest writes into a manifest, and how
 * ara-loader and ara-manifest --check read them back. */
#ifndef ARA_LOADER_RELPATH_H
#define ARA_LOADER_RELPATH_H

#include <stddef.h>

/*
 * Writes to out (cap bytes) the path of file `to` relative to directory
 * `from`; both must be canonical absolute paths (realpath(3): no ".", ".."
 * or repeated '/', no trailing '/' except for "/" itself). Returns 0, or -1
 * if an argument is not absolute, `to` is `from` or one of its parents, or
 * the result does not fit.
 */
int ara_relpath(const char *from, const char *to, char *out, size_t cap);

/*
 * Writes to out (cap bytes) a path read from the manifest at `manifest`:
 * an absolute one as it is, a relative one relative to the manifest's
 * directory. Returns 0, or -1 if the result does not fit.
 */
int ara_manifest_relative(const char *manifest, const char *path, char *out,
			  size_t cap);

#endif
