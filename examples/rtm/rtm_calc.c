/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rtm_calc: an App instrumented for the RTM (docs/rtm.md). A reverse
 * Polish calculator whose operators are called through a table of function
 * pointers: every such indirect call, and every return, is logged to ARA
 * before it happens. At exit the RTM runtime writes the run's evidence
 * (a report signed by ARA, and its ATTEST), which ara-verify checks: each
 * logged call must go to a function entry, each return to a return site.
 *
 *   rtm_calc TOKEN...     e.g. rtm_calc 3 4 + 5 '*'  prints 35
 *
 * Numbers are 64-bit integers; the operators are + - * / %. Run it under
 * ara-loader with ARA_EVIDENCE, ARA_RTM_NONCE, ARA_RTM_REPORT,
 * ARA_RTM_ATTEST and ARA_RTM_SEGMENTS set (ara/rtm_runtime.h). Exit
 * status 0 with the result printed, 2 on a malformed expression.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*op_fn)(int64_t a, int64_t b, int64_t *r);

static int add(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
static int sub(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
static int mul(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

static int quo(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return 1;
	*r = a / b;
	return 0;
}

static int rem(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return 1;
	*r = a % b;
	return 0;
}

static const struct {
	const char *name;
	op_fn fn;
} ops[] = { { "+", add }, { "-", sub }, { "*", mul }, { "/", quo }, { "%", rem } };

static op_fn find_op(const char *name)
{
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].name, name) == 0)
			return ops[i].fn;
	return NULL;
}

int main(int argc, char **argv)
{
	int64_t stack[64];
	int depth = 0;

	for (int i = 1; i < argc; i++) {
		op_fn fn = find_op(argv[i]);
		char *end;

		if (fn) {
			if (depth < 2) {
				fprintf(stderr, "rtm_calc: '%s' needs two operands\n", argv[i]);
				return 2;
			}
			/* The indirect call the instrumentation logs. */
			if (fn(stack[depth - 2], stack[depth - 1], &stack[depth - 2])) {
				fprintf(stderr, "rtm_calc: '%s' overflows or divides by zero\n", argv[i]);
				return 2;
			}
			depth--;
			continue;
		}
		if (depth == (int)(sizeof(stack) / sizeof(stack[0]))) {
			fprintf(stderr, "rtm_calc: too many operands\n");
			return 2;
		}
		stack[depth++] = strtoll(argv[i], &end, 10);
		if (*argv[i] == '\0' || *end != '\0') {
			fprintf(stderr, "rtm_calc: '%s' is neither a number nor an operator\n", argv[i]);
			return 2;
		}
	}
	if (depth != 1) {
		fprintf(stderr, "usage: rtm_calc TOKEN... (a reverse Polish expression)\n");
		return 2;
	}
	printf("rtm_calc: %lld\n", (long long)stack[0]);
	return 0;
}
