/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "measure.h"

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int measure_batch(const struct bench_op *op, uint64_t n, double *ns_per_op)
{
	int64_t t0, t1;
	int rc;

	measure_mark();
	t0 = now_ns();
	rc = op->run(n);
	t1 = now_ns();
	measure_mark();
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

int measure_pin_here(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}
