/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's seccomp filter for the unit tests, assembled as DOM0 assembles it
 * (libara/src/dom0/seccomp.c): the generated head, the prefix for ARA's
 * system-call page, the range block for a set of ranges, the generated
 * policy. Test-only.
 */
#ifndef ARA_TEST_SECCOMP_FIXTURE_H
#define ARA_TEST_SECCOMP_FIXTURE_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "ara/seccomp_ranges.h"

/* Reads a generated BPF file into out; returns its instructions, 0 on any error. */
size_t seccomp_fixture_read(const char *path, struct sock_filter *out, size_t cap);

/*
 * head (head_len may be 0: the layout without it), then the prefix for
 * [page, page_end), the range block for set, then policy. Returns the
 * length, 0 if something does not fit cap.
 */
size_t seccomp_fixture_assemble(const struct sock_filter *head, size_t head_len, uint64_t page,
				uint64_t page_end, const struct ara_region_set *set,
				const struct sock_filter *policy, size_t policy_len, struct sock_filter *out,
				size_t cap);

#endif
