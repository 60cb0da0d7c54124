/* SPDX-License-Identifier: Apache-2.0 */
/* Messages: on stderr, each prefixed by the program's name; or into a caller's buffer. */
#include "ara_cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog_name = "ara";

void ara_cli_init(const char *prog)
{
	prog_name = prog;
	opterr = 0; /* getopt's messages would not be in our format */
}

const char *ara_cli_prog(void)
{
	return prog_name;
}

__attribute__((format(printf, 1, 0)))
static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ara_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void ara_file_error(const char *path, const char *what)
{
	int saved = errno;

	fprintf(stderr, "%s: %s: %s: %s\n", prog_name, path, what,
		strerror(saved));
	errno = saved;
}

int ara_why(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (why && cap) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void ara_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(status);
}

void ara_die_file(int status, const char *path, const char *what)
{
	ara_file_error(path, what);
	exit(status);
}

void ara_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "try '%s --help'\n", prog_name);
	exit(ARA_CLI_USAGE);
}
