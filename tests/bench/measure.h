/* SPDX-License-Identifier: Apache-2.0 */
/* Timing batches of operations and summarising repetitions. */
#ifndef ARA_BENCH_MEASURE_H
#define ARA_BENCH_MEASURE_H

#include <stdint.h>

#include "bench_ops.h"

struct summary {
	double median, min, max; /* ns per operation */
};

/*
 * Runs n operations of op between two CLOCK_MONOTONIC readings and stores
 * the nanoseconds per operation in *ns_per_op. Marks the batch for QEMU's
 * instruction counter (measure.c). Returns 0, or -1 if an operation failed
 * (op->run said why).
 */
int measure_batch(const struct bench_op *op, uint64_t n, double *ns_per_op);

/* Median, minimum and maximum of count (>= 1) samples; sorts samples. */
struct summary summarize(double *samples, unsigned int count);

#endif
