/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole files into memory, for ara-verify's inputs and the modules it
 * parses, each under a bound checked before the file is read (docs/rtm.md,
 * "Verification": the bounds are documented there).
 */
#ifndef ARA_RTM_FILE_IO_H
#define ARA_RTM_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "ara/rtm.h"

/* The most segments one verification reads: 4 GiB of them. */
#define ARA_RTM_VERIFY_SEGMENTS_MAX 4096u

#define ARA_RTM_SEGMENTS_FILE_MAX ((size_t)ARA_RTM_VERIFY_SEGMENTS_MAX * ARA_RTM_SEGMENT_BYTES)
/* One checkpoint per segment. */
#define ARA_RTM_CHECKPOINTS_FILE_MAX ((size_t)ARA_RTM_VERIFY_SEGMENTS_MAX * ARA_RTM_CHECKPOINT_MAX)
#define ARA_RTM_REPORT_FILE_MAX ((size_t)ARA_RTM_REPORT_MAX)
/* A module's binary (an App, a library, ara-loader). */
#define ARA_RTM_MODULE_FILE_MAX ((size_t)1 << 30)

/*
 * 0 and a malloc'd *buf of *len bytes (never NULL), or -1 with errno set
 * (EFBIG: the file is over max bytes). A regular file's size is checked
 * before anything is read, and it is read into one buffer of that size:
 * an input costs its size once, and at most max. Anything else (a pipe)
 * is read up to max bytes.
 */
int ara_rtm_read_file(const char *path, size_t max, uint8_t **buf, size_t *len);

#endif
