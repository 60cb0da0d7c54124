/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify's bounds on its inputs and the modules it parses, each checked
 * before the file is read (read_whole.h; docs/rtm.md, "Verification").
 */
#ifndef ARA_RTM_BOUNDS_H
#define ARA_RTM_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "ara/rtm.h"
#include "read_whole.h"

/* The most segments one verification reads: 4 GiB of them. */
#define ARA_RTM_VERIFY_SEGMENTS_MAX 4096u

#define ARA_RTM_SEGMENTS_FILE_MAX ((size_t)ARA_RTM_VERIFY_SEGMENTS_MAX * ARA_RTM_SEGMENT_BYTES)
/* One checkpoint per segment. */
#define ARA_RTM_CHECKPOINTS_FILE_MAX ((size_t)ARA_RTM_VERIFY_SEGMENTS_MAX * ARA_RTM_CHECKPOINT_MAX)
#define ARA_RTM_REPORT_FILE_MAX ((size_t)ARA_RTM_REPORT_MAX)
/* A module's binary (an App, a library, ara-loader). */
#define ARA_RTM_MODULE_FILE_MAX ((size_t)1 << 30)

#endif
