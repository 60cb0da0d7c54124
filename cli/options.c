/* SPDX-License-Identifier: Apache-2.0 */
/* --help, --version and getopt_long()'s errors, the same in every program. */
#include "ara_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h> /* optind, optopt */

const char ara_cli_version[] = ARA_PROJECT_VERSION;

/* What --help and --version print goes to stdout; a failed write (a full
 * disk, a closed pipe) is an error, not a silent success. */
static noreturn void flush_and_exit(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		ara_die_file(EXIT_FAILURE, "stdout", "cannot write");
	exit(ARA_CLI_OK);
}

void ara_cli_option(int c, char **argv, const char *usage)
{
	if (c == 'h') {
		fputs(usage, stdout);
		flush_and_exit();
	}
	if (c == 'V') {
		printf("%s (ara) %s\n", ara_cli_prog(), ara_cli_version);
		flush_and_exit();
	}
	if (c == ':')
		ara_usage_error("option '%s' needs an argument", argv[optind - 1]);
	if (optopt != 0)
		ara_usage_error("unknown option '-%c'", optopt);
	ara_usage_error("unknown option '%s'", argv[optind - 1]);
}
