/* SPDX-License-Identifier: Apache-2.0 */
#include "seccomp_fixture.h"

#include <stdio.h>
#include <string.h>

#include "ara/seccomp_prefix.h"

size_t seccomp_fixture_read(const char *path, struct sock_filter *out, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	int extra;

	if (!f)
		return 0;
	n = fread(out, sizeof(out[0]), cap, f);
	extra = fgetc(f); /* a file longer than cap, or a partial instruction, is an error */
	if (fclose(f) != 0 || extra != EOF)
		return 0;
	return n;
}

size_t seccomp_fixture_assemble(const struct sock_filter *head, size_t head_len, uint64_t page,
				uint64_t page_end, const struct ara_region_set *set,
				const struct sock_filter *policy, size_t policy_len, struct sock_filter *out,
				size_t cap)
{
	size_t len = head_len + ARA_SECCOMP_PREFIX_LEN, ranges;

	if (len > cap)
		return 0;
	if (head_len)
		memcpy(out, head, head_len * sizeof(out[0]));
	if (ara_seccomp_prefix(page, page_end, out + head_len))
		return 0;
	ranges = ara_seccomp_ranges(set, out + len, cap - len);
	if (ranges == 0 || ranges != ara_seccomp_ranges_len(set->n))
		return 0;
	len += ranges;
	if (policy_len > cap - len)
		return 0;
	memcpy(out + len, policy, policy_len * sizeof(out[0]));
	return len + policy_len;
}
