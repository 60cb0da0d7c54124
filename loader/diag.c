/* SPDX-License-Identifier: Apache-2.0 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h> /* optind, optopt */

#include "exit_status.h"

static const char *prog_name = "ara";

void ara_diag_init(const char *prog)
{
	prog_name = prog;
}

__attribute__((format(printf, 1, 0)))
static void vprint(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ara_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	exit(status);
}

void ara_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	fprintf(stderr, "try '%s --help'\n", prog_name);
	exit(ARA_EXIT_USAGE);
}

void ara_option_error(int c, char **argv)
{
	if (c == ':')
		ara_usage_error("option '%s' needs an argument", argv[optind - 1]);
	if (optopt != 0)
		ara_usage_error("unknown option '-%c'", optopt);
	ara_usage_error("unknown option '%s'", argv[optind - 1]);
}
