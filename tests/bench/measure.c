/* SPDX-License-Identifier: Apache-2.0 */
#include <stdlib.h>
#include <time.h>

#include "measure.h"

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Marks each timed batch for qemu/bench.sh: an unallocated hint, which
 * executes as a NOP, at its start and at its end. QEMU's instruction-counting
 * plugin, told to match it, reports at each mark how many instructions this
 * vCPU ran since the previous mark: at the end mark, the instructions of the
 * batch, the kernel's included. (A count from reset to power-off varies by
 * hundreds of millions between boots; see docs/performance.md.) The same
 * hint at both ends: the plugin measures only between hits of one pattern.
 * Nothing else may use it: capstone prints hints it does not know (xpaclri
 * included) as "hint #0x7", so the pattern must be the whole "hint #0x7e".
 */
static inline void mark_batch(void)
{
	__asm__ volatile("hint #0x7e" : : : "memory");
}

int measure_batch(const struct bench_op *op, uint64_t n, double *ns_per_op)
{
	int64_t t0, t1;
	int rc;

	mark_batch();
	t0 = now_ns();
	rc = op->run(n);
	t1 = now_ns();
	mark_batch();
	if (rc)
		return -1;
	*ns_per_op = (double)(t1 - t0) / (double)n;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct summary summarize(double *samples, unsigned int count)
{
	struct summary s;

	qsort(samples, count, sizeof(*samples), cmp_double);
	s.min = samples[0];
	s.max = samples[count - 1];
	s.median = count % 2 ? samples[count / 2]
			     : (samples[count / 2 - 1] + samples[count / 2]) / 2;
	return s;
}
