/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hello: the smallest ARA App. It calls two of ARA's core services with
 * secure_call(): the null service, which does nothing and returns ARA_OK,
 * and the echo service, which copies its argument into ARA's memory, sets
 * out from in there, and copies the result back.
 *
 *   hello [NUMBER]    echo NUMBER (default 42) through ARA
 *
 * Run it under ara-loader (ara-loader ./hello 1234). Exit status 0 if both
 * calls worked, 1 if not (also when not started by ara-loader: secure_call
 * then returns ARA_E_NOT_READY), 2 on a bad argument.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <ara/ara.h>

int main(int argc, char **argv)
{
	struct ara_echo_arg echo = { .in = 42 };
	char *end;
	int st;

	if (argc > 2) {
		fprintf(stderr, "usage: hello [NUMBER]\n");
		return 2;
	}
	if (argc == 2) {
		echo.in = strtoull(argv[1], &end, 0);
		if (*argv[1] == '\0' || *end != '\0') {
			fprintf(stderr, "hello: %s: not a number\n", argv[1]);
			return 2;
		}
	}

	st = secure_call(ARA_FID_NULL, NULL);
	printf("hello: null service: %s\n", ara_strerror(st));
	if (st != ARA_OK)
		return 1;

	st = secure_call(ARA_FID_ECHO, &echo);
	printf("hello: echo service: %s\n", ara_strerror(st));
	if (st != ARA_OK)
		return 1;
	printf("hello: echo %#" PRIx64 " -> %#" PRIx64 "\n", echo.in, echo.out);
	/* The service's answer, as ara/ara.h defines it. */
	if (echo.out != ara_echo_expect(echo.in)) {
		printf("hello: the echo is wrong: expected %#" PRIx64 "\n",
		       (uint64_t)ara_echo_expect(echo.in));
		return 1;
	}
	return 0;
}
