/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Timing batches of operations and summarising repetitions; the counting
 * plugin's mark; one CPU for everything measured.
 */
#ifndef ARA_BENCH_MEASURE_H
#define ARA_BENCH_MEASURE_H

#include <stdint.h>

#include "bench_ops.h"

/*
 * Marks a measured stretch (a batch, a run) for qemu/bench.sh: an
 * unallocated hint, which executes as a NOP, at its start and at its end.
 * QEMU's instruction-counting plugin, told to match it, reports at each mark
 * how many instructions this vCPU ran since the previous mark: at the end
 * mark, the instructions of the stretch, the kernel's included. (A count
 * from reset to power-off varies by hundreds of millions between boots; see
 * docs/performance.md.) The same hint at both ends: the plugin measures only
 * between hits of one pattern. Nothing else may use it: capstone prints
 * hints it does not know (xpaclri included) as "hint #0x7", so the pattern
 * must be the whole "hint #0x7e" (qemu/lib/count.sh's MARK).
 */
static inline void measure_mark(void)
{
	__asm__ volatile("hint #0x7e" : : : "memory");
}

/*
 * Pins the calling thread to the CPU it is running on; processes it forks
 * afterwards inherit that. Returns the CPU, or -1 with errno set.
 */
int measure_pin_here(void);

struct summary {
	double median, min, max; /* ns per operation */
};

/*
 * Runs n operations of op between two CLOCK_MONOTONIC readings and stores
 * the nanoseconds per operation in *ns_per_op. Marks the batch for QEMU's
 * instruction counter (measure_mark). Returns 0, or -1 if an operation failed
 * (op->run said why).
 */
int measure_batch(const struct bench_op *op, uint64_t n, double *ns_per_op);

/* Median, minimum and maximum of count (>= 1) samples; sorts samples. */
struct summary summarize(double *samples, unsigned int count);

#endif
