/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The operations ara_bench measures. Each one is set up once, run many times
 * in batches of n operations, and torn down at the end. run() checks what
 * every operation returned: a benchmark of failing operations would measure
 * the error path.
 */
#ifndef ARA_BENCH_OPS_H
#define ARA_BENCH_OPS_H

#include <stdint.h>

struct bench_op {
	const char *name; /* for --only and the table */
	const char *what; /* one-line description for --help */
	/* Each returns 0, or -1 after printing why to stderr. */
	int (*setup)(void);
	int (*run)(uint64_t n);
	int (*teardown)(void);
};

extern const struct bench_op bench_op_indirect;
extern const struct bench_op bench_op_secure_call;
extern const struct bench_op bench_op_secure_value;
extern const struct bench_op bench_op_counter_read;
extern const struct bench_op bench_op_rtm_log;
extern const struct bench_op bench_op_getpid;
extern const struct bench_op bench_op_sigprocmask;
extern const struct bench_op bench_op_sigprocmask_service;
extern const struct bench_op bench_op_open;
extern const struct bench_op bench_op_rts_cenc;
extern const struct bench_op bench_op_cenc_table;
extern const struct bench_op bench_op_cenc_aesce;
extern const struct bench_op bench_op_pipe;
extern const struct bench_op bench_op_socket;

#endif
