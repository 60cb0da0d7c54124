/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A classic-BPF interpreter for seccomp filters, test-only: runs a filter
 * on a struct seccomp_data as the kernel would and returns its verdict.
 * Covers the instructions libseccomp emits and the prefix uses; anything
 * else fails the test.
 */
#ifndef ARA_TEST_BPF_INTERP_H
#define ARA_TEST_BPF_INTERP_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>

/* Returns the filter's 32-bit verdict, or 0xdead0000 | pc on a bad program. */
uint32_t bpf_run(const struct sock_filter *prog, size_t len, const struct seccomp_data *d);

#endif
