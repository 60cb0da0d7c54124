/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App of qemu/run-app.sh's test (tests/sdk/examples.sh): reads numbers
 * from IN, one a line, echoes each through ARA (ARA_FID_ECHO) and writes
 * "<number> <echo>" lines, in hex, to OUT (whose directory it creates),
 * then exits with STATUS, so that the test can check that the status and
 * the file come back from the guest, and that IN, unchanged, does not.
 *
 *   file_app IN OUT STATUS
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ara/ara.h>

int main(int argc, char **argv)
{
	char dir[4096];
	uint64_t n;
	FILE *in, *out;

	if (argc != 4) {
		fprintf(stderr, "usage: file_app IN OUT STATUS\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[2]);
	if (mkdir(dirname(dir), 0755) && errno != EEXIST) {
		fprintf(stderr, "file_app: mkdir for %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	in = fopen(argv[1], "r");
	out = fopen(argv[2], "w");
	if (!in || !out) {
		fprintf(stderr, "file_app: %s: %s\n", in ? argv[2] : argv[1], strerror(errno));
		return 1;
	}
	while (fscanf(in, "%" SCNu64, &n) == 1) {
		struct ara_echo_arg echo = { .in = n };
		int st = secure_call(ARA_FID_ECHO, &echo);

		if (st != ARA_OK) {
			fprintf(stderr, "file_app: echo: %s\n", ara_strerror(st));
			return 1;
		}
		fprintf(out, "%016" PRIx64 " %016" PRIx64 "\n", n, echo.out);
	}
	if (fclose(out)) {
		fprintf(stderr, "file_app: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	printf("file_app: wrote %s\n", argv[2]);
	return atoi(argv[3]);
}
