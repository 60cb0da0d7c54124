/* SPDX-License-Identifier: Apache-2.0 */
#include "regions.h"

int ara_regions_add(struct ara_region_set *s, uint64_t start, uint64_t end, unsigned int domain)
{
	if (start >= end || s->n >= ARA_REGIONS_MAX)
		return -1;
	s->r[s->n].start = start;
	s->r[s->n].end = end;
	s->r[s->n].domain = domain;
	if (s->n == 0 || start < s->lo)
		s->lo = start;
	if (s->n == 0 || end > s->hi)
		s->hi = end;
	s->n++;
	return 0;
}

bool ara_regions_overlap(const struct ara_region_set *s, uint64_t start, uint64_t len)
{
	uint64_t end;

	if (len == 0)
		return false;
	if (__builtin_add_overflow(start, len, &end))
		return true; /* wraps: overlaps everything above start */
	if (s->n == 0 || end <= s->lo || start >= s->hi)
		return false; /* outside the hull */
	for (size_t i = 0; i < s->n; i++)
		if (start < s->r[i].end && s->r[i].start < end)
			return true;
	return false;
}

bool ara_range_is_app(const struct ara_region_set *s, uint64_t addr, uint64_t len)
{
	uint64_t end;

	if (__builtin_add_overflow(addr, len, &end) || end > ARA_USER_ADDR_LIMIT)
		return false;
	return !ara_regions_overlap(s, addr, len);
}
