/* SPDX-License-Identifier: Apache-2.0 */
/* Messages of ara-loader and ara-manifest: "<program>: <message>" on stderr. */
#ifndef ARA_LOADER_DIAG_H
#define ARA_LOADER_DIAG_H

#include <stdnoreturn.h>

/* The program name that prefixes every message; set once, first thing. */
void ara_diag_init(const char *prog);

/* Prints the message and a newline, then exits with status. */
noreturn void ara_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage error: the message, then "try '<program> --help'"; exits 2. */
noreturn void ara_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * getopt_long() returned ':' (missing argument) or '?' (unknown option):
 * the usage error for it; exits 2.
 */
noreturn void ara_option_error(int c, char **argv);

#endif
