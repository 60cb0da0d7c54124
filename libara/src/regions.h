/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small set of address ranges, each owned by a domain: DOM0 keeps the
 * ranges of DOM0 and DOM1 here and refuses App pointers that reach into them.
 * Pure code, shared by DOM0 and the host unit tests.
 */
#ifndef ARA_REGIONS_H
#define ARA_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARA_REGIONS_MAX 32
/*
 * User addresses fit in 48 bits on the guest kernel (VA_BITS=48). Anything
 * above is a kernel address or carries a top-byte tag, which the kernel
 * strips (TBI) and a range check on the raw value would not.
 */
#define ARA_USER_ADDR_LIMIT (UINT64_C(1) << 48)

struct ara_region {
	uint64_t start, end; /* [start, end) */
	unsigned int domain;
};

struct ara_region_set {
	struct ara_region r[ARA_REGIONS_MAX];
	size_t n;
	uint64_t lo, hi; /* while n > 0: the ranges' hull [lo, hi), a quick answer for most App addresses */
};

/* Adds [start, end). Returns 0, or -1 if empty, inverted or the set is full. */
int ara_regions_add(struct ara_region_set *s, uint64_t start, uint64_t end, unsigned int domain);

/* True if [start, start + len) overlaps a range of the set. len 0: false. */
bool ara_regions_overlap(const struct ara_region_set *s, uint64_t start, uint64_t len);

/*
 * True if [addr, addr + len) may be handed to the kernel as App memory: no
 * wrap-around, below ARA_USER_ADDR_LIMIT, and disjoint from every range of
 * the set. len 0 is acceptable for any addr below the limit.
 */
bool ara_range_is_app(const struct ara_region_set *s, uint64_t addr, uint64_t len)
	__attribute__((warn_unused_result));

#endif
