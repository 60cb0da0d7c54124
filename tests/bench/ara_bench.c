/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_bench: what a null secure_call costs, next to what an App would pay
 * otherwise, all measured in the same run:
 *   indirect     a plain call through a function pointer (the baseline)
 *   secure_call  secure_call(ARA_FID_NULL, NULL): into ARA and back
 *   secure_value secure_call(ARA_FID_VALUE, v): into a C service with a value
 *   getpid       the cheapest system call
 *   sigprocmask  a system call that ARA's filter traps and ARA performs
 *   sigprocmask_service
 *                libc's sigprocmask, which ARA's entry object takes through
 *                ARA's system call service instead of the trap
 *   open         open and close of a file: the open checked by ARA
 *   rts_cenc, cenc_table, cenc_aesce
 *                a 4 KiB CENC sample decrypted by ARA, and in App code on
 *                mbedtls's portable AES and on its AES-instruction code
 *   pipe         a 1-byte round trip to a second process over pipes
 *   socket       the same over an AF_UNIX stream socket pair
 * The last two are what isolating the anchor in its own process would cost.
 *
 * Each operation runs R repetitions of N operations; the table gives the
 * median, minimum and maximum nanoseconds per operation (CLOCK_MONOTONIC)
 * and the ratios of the medians. Repetitions are interleaved (repetition 1
 * of every operation, then repetition 2, ...) so that a change in the
 * machine's load during the run affects every operation alike.
 *
 * Everything runs on the CPU it started on, the echo children too.
 *
 * --only OP runs just one operation and prints just its line: qemu/bench.sh
 * counts guest instructions of such runs (measure.c marks each batch).
 *
 * --allow-all-filter first installs a seccomp filter of one instruction
 * that allows every call: run natively, getpid then costs what any seccomp
 * filter costs a call the kernel's action cache lets through, the floor
 * under ARA's (qemu/lib/count.sh's getpid_allowall).
 *
 * An ARA App: run it as `ara-loader ./ara_bench [options]`. Every
 * secure_call must return ARA_OK, every echo must match; otherwise it stops
 * with a message and exit status 1 (2 for a usage error).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_ops.h"
#include "measure.h"

#define MAX_REPEATS 1000
#define WARMUP_OPS 1000 /* untimed, per operation: first-touch costs */

/* Table order; the first is the baseline of the ratios. */
static const struct bench_op *const all_ops[] = {
	&bench_op_indirect, &bench_op_secure_call, &bench_op_secure_value, &bench_op_counter_read, &bench_op_rtm_log,
	&bench_op_getpid, &bench_op_sigprocmask, &bench_op_sigprocmask_service, &bench_op_open, &bench_op_rts_cenc,
	&bench_op_cenc_table, &bench_op_cenc_aesce, &bench_op_pipe, &bench_op_socket,
};
#define N_OPS (sizeof(all_ops) / sizeof(all_ops[0]))

struct options {
	uint64_t iterations;
	unsigned int repeats;
	const struct bench_op *only; /* NULL: all */
	int allow_all_filter;
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: ara-loader %s [--iterations N] [--repeats R] [--only OP]\n"
		"  --iterations N  operations per repetition (default 100000)\n"
		"  --repeats R     repetitions of each operation, 1..%d (default 5)\n"
		"  --only OP       measure just OP and print just its line\n"
		"  --allow-all-filter\n"
		"                  install a one-instruction seccomp filter allowing every\n"
		"                  call first (run natively: the kernel's cost of any filter)\n"
		"  --help          this text\n"
		"operations:\n",
		prog, MAX_REPEATS);
	for (size_t i = 0; i < N_OPS; i++)
		fprintf(f, "  %-12s %s\n", all_ops[i]->name, all_ops[i]->what);
}

/* A decimal number in [min, max], nothing else (no sign, no suffix). */
static int parse_count(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr, "ara_bench: %s '%s': expected a whole number from %llu to %llu\n",
			opt, s, (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

static const struct bench_op *find_op(const char *name)
{
	for (size_t i = 0; i < N_OPS; i++) {
		if (!strcmp(all_ops[i]->name, name))
			return all_ops[i];
	}
	return NULL;
}

/* Returns 0 to run, 1 after --help, 2 on a usage error (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "allow-all-filter", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	*o = (struct options){ .iterations = 100000, .repeats = 5, .only = NULL, .allow_all_filter = 0 };
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count("--iterations", optarg, 1, UINT64_C(1) << 40, &v))
				return 2;
			o->iterations = v;
			break;
		case 'r':
			if (parse_count("--repeats", optarg, 1, MAX_REPEATS, &v))
				return 2;
			o->repeats = (unsigned int)v;
			break;
		case 'o':
			o->only = find_op(optarg);
			if (!o->only) {
				fprintf(stderr, "ara_bench: --only '%s': no such operation\n", optarg);
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'a':
			o->allow_all_filter = 1;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 1;
		default: /* getopt_long printed what was wrong */
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ara_bench: unexpected argument '%s'\n", argv[optind]);
		usage(stderr, argv[0]);
		return 2;
	}
	return 0;
}

/* A ratio with about three significant digits, never in e-notation. */
static void print_ratio(double r)
{
	if (r >= 100)
		printf(" %12.0f", r);
	else if (r >= 10)
		printf(" %12.1f", r);
	else if (r >= 0.1)
		printf(" %12.2f", r);
	else
		printf(" %12.4f", r);
}

static void print_row(const struct bench_op *op, const struct summary *s)
{
	printf("%-12s %12.1f %12.1f %12.1f", op->name, s->median, s->min, s->max);
}

static void print_table(const struct options *o, int cpu, const struct bench_op *const *ops,
			size_t n, const struct summary *s)
{
	/* Columns of the ratios: these operations, by index in all_ops. */
	enum { INDIRECT = 0, SECURE_CALL = 1, GETPID = 2 };

	printf("ara_bench: %llu operations x %u repetitions each, on CPU %d; "
	       "ns per operation (CLOCK_MONOTONIC); ratios of the medians\n",
	       (unsigned long long)o->iterations, o->repeats, cpu);
	printf("%-12s %12s %12s %12s %12s %12s %12s\n", "operation", "median ns", "min ns",
	       "max ns", "/ indirect", "/ secure_call", "/ getpid");
	for (size_t i = 0; i < n; i++) {
		print_row(ops[i], &s[i]);
		print_ratio(s[i].median / s[INDIRECT].median);
		print_ratio(s[i].median / s[SECURE_CALL].median);
		print_ratio(s[i].median / s[GETPID].median);
		printf("\n");
	}
}

/*
 * Everything runs on one CPU, the echo children too (they inherit the
 * affinity): a round trip then costs two context switches on that CPU, the
 * figures do not depend on where the scheduler puts the child, and the
 * instruction counter sees all the work on the one vCPU it counts
 * (measure.c). Returns the CPU, or -1 after saying why.
 */
static int pin_to_current_cpu(void)
{
	int cpu = measure_pin_here();

	if (cpu < 0)
		fprintf(stderr, "ara_bench: cannot pin to one CPU: %s\n", strerror(errno));
	return cpu;
}

/*
 * A seccomp filter of one instruction, RET ALLOW: the kernel caches its
 * action for every number, so a call pays only for having a filter at all.
 * Returns 0, or -1 after saying why (under ARA the filter refuses seccomp).
 */
static int install_allow_all_filter(void)
{
	static struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		fprintf(stderr, "ara_bench: --allow-all-filter: seccomp: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Tears down ops[0..n): returns -1 if any teardown failed. */
static int teardown(const struct bench_op *const *ops, size_t n)
{
	int rc = 0;

	while (n-- > 0) {
		if (ops[n]->teardown())
			rc = -1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static double samples[N_OPS][MAX_REPEATS];
	struct summary s[N_OPS];
	const struct bench_op *const *ops = all_ops;
	struct options o;
	size_t n = N_OPS, ready = 0;
	int rc, cpu;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (o.only) {
		ops = &o.only;
		n = 1;
	}
	cpu = pin_to_current_cpu();
	if (cpu < 0 || (o.allow_all_filter && install_allow_all_filter()))
		goto failed;

	while (ready < n) {
		if (ops[ready]->setup())
			goto fail;
		ready++;
		/* Unmarked: the instruction counts are of timed batches only. */
		if (ops[ready - 1]->run(o.iterations < WARMUP_OPS ? o.iterations : WARMUP_OPS))
			goto fail;
	}
	for (unsigned int r = 0; r < o.repeats; r++) {
		for (size_t i = 0; i < n; i++) {
			if (measure_batch(ops[i], o.iterations, &samples[i][r]))
				goto fail;
		}
	}
	if (teardown(ops, n))
		goto failed;
	for (size_t i = 0; i < n; i++)
		s[i] = summarize(samples[i], o.repeats);

	if (o.only) {
		print_row(ops[0], &s[0]);
		printf("\n");
	} else {
		print_table(&o, cpu, ops, n, s);
	}
	return 0;

fail:
	teardown(ops, ready);
failed:
	fprintf(stderr, "ara_bench: FAIL: benchmark aborted, no figures\n");
	return 1;
}
