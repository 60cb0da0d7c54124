/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command line every ARA program shares (docs/man/ for each program):
 *
 *   - messages on stderr as "<program>: <message>", a file's as
 *     "<program>: <file>: <what>: <strerror>"; a refusal's reason into
 *     its caller's buffer (ara_why);
 *   - getopt_long() with opterr = 0 and an optstring that starts with ':'
 *     (after any '+') and holds "hV"; ARA_CLI_OPTIONS in the long options;
 *     the switch's default case is ara_cli_option(), which answers -h/--help
 *     (the usage on stdout, exit 0), -V/--version ("<program> (ara)
 *     <version>" on stdout, exit 0) and any other option, unknown or
 *     without its argument (a usage error: message, "try '<program>
 *     --help'", exit 2);
 *   - numbers parsed whole, digits only, range checked (ara_parse_u64);
 *   - JSON strings for --json output and log lines (ara_json_string,
 *     ara_json_escape);
 *   - whole reads and writes on descriptors (ara_read_upto, ara_write_all),
 *     whole random bytes (ara_random);
 *   - output files that appear whole or not at all (ara_out_open).
 *
 * Exit statuses shared by every program; each program documents any other
 * in its man page (EXIT STATUS).
 */
#ifndef ARA_CLI_H
#define ARA_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdnoreturn.h>

enum ara_cli_exit {
	ARA_CLI_OK = 0,	     /* done; or --help, --version */
	ARA_CLI_REFUSED = 1, /* the input was read and rejected */
	ARA_CLI_USAGE = 2,   /* bad command line, or malformed input */
	ARA_CLI_IO = 3,	     /* a file named on the command line cannot be read or written */
};

/* The entries of --help and --version, for the end of a long option table. */
#define ARA_CLI_OPTIONS                            \
	{ "help", no_argument, NULL, 'h' },        \
	{ "version", no_argument, NULL, 'V' }

/* The program name that prefixes every message (and sets opterr = 0):
 * first thing in main(). */
void ara_cli_init(const char *prog);

/* The name given to ara_cli_init(). */
const char *ara_cli_prog(void);

/* The version every program prints, PROJECT_VERSION of the build. */
extern const char ara_cli_version[];

/* "<program>: <message>\n" on stderr. */
void ara_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "<program>: <path>: <what>: <strerror(errno)>\n" on stderr; errno kept. */
void ara_file_error(const char *path, const char *what);

/* ara_msg(), then exit(status). */
noreturn void ara_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The message into why (cap bytes; cut to fit, NUL-terminated; nothing if
 * why is NULL or cap 0), for a function that explains a refusal to its
 * caller: "return ara_why(why, cap, ...);". Returns -1.
 */
int ara_why(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ara_file_error(), then exit(status). */
noreturn void ara_die_file(int status, const char *path, const char *what);

/* A usage error: the message, then "try '<program> --help'"; exits 2. */
noreturn void ara_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * The default case of the getopt_long() switch. c == 'h': usage on stdout,
 * exit 0; c == 'V': the version line on stdout, exit 0; otherwise (':' or
 * '?') the usage error naming the option, exit 2. A failed write to stdout
 * exits 1 with a message.
 */
noreturn void ara_cli_option(int c, char **argv, const char *usage);

/*
 * s as an unsigned number in min..max: decimal digits, or "0x" and hex
 * digits; the whole string, nothing before or after (no sign, no blank, no
 * leading zeros taken as octal). Returns 0, or -1 with errno EINVAL (not a
 * number) or ERANGE (outside min..max); *out is set only on success.
 */
int ara_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
	__attribute__((warn_unused_result));

/* ara_parse_u64() of an option's argument; on failure a usage error
 * naming the option ("--chunk-size") and the range; exits 2. */
uint64_t ara_cli_number(const char *option, const char *s, uint64_t min,
			uint64_t max);

/*
 * Reads from fd until end of file or cap bytes, retrying on EINTR; *len is
 * the count read. To learn that a file is larger than max, read max + 1.
 * Returns 0, or -1 with errno set (*len bytes were read before).
 */
int ara_read_upto(int fd, void *buf, size_t cap, size_t *len)
	__attribute__((warn_unused_result));

/* n bytes from the kernel's random source (getrandom), whole. Returns 0, or -1. */
int ara_random(uint8_t *out, size_t n) __attribute__((warn_unused_result));

/* Writes all len bytes, retrying on EINTR. Returns 0, or -1 with errno. */
int ara_write_all(int fd, const void *buf, size_t len)
	__attribute__((warn_unused_result));

/*
 * An output file written as a temporary file beside it (PATH.XXXXXX, same
 * directory, so the rename is atomic) and renamed over PATH by
 * ara_out_commit(). Until then the temporary is removed by
 * ara_out_discard(), at exit (ara_die() included) and on SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE: a failed run leaves no partial output. One at a time.
 */
struct ara_out {
	const char *path; /* the final name */
	char tmp[PATH_MAX];
	int fd;		  /* write here */
};

/* Creates the temporary with mode (less the umask). 0, or -1 with errno. */
int ara_out_open(struct ara_out *o, const char *path, mode_t mode)
	__attribute__((warn_unused_result));

/* Closes and renames it over the final name. 0, or -1 with errno (the
 * temporary then removed). */
int ara_out_commit(struct ara_out *o) __attribute__((warn_unused_result));

/* Closes and removes the temporary; errno kept. */
void ara_out_discard(struct ara_out *o);

/*
 * 1 if path names the file open at fd (the same inode: the same name, a
 * link, a symbolic link to it), 0 if not or if path does not exist, -1 with
 * errno. Before writing to path what is read from fd.
 */
int ara_same_file(int fd, const char *path);

/*
 * s as a JSON string, quotes included. '"' and '\\' escaped; the control
 * characters (C0, DEL, C1) as \u00XX; well-formed UTF-8 as it is; every
 * other byte (a stray continuation byte, an overlong form, a surrogate,
 * past U+10FFFF, a cut sequence) as \ufffd. JSON is UTF-8 text (RFC 8259,
 * 8.1) and has no escape for a byte: U+FFFD, Unicode's replacement for
 * ill-formed input, is what a strict reader would make of the byte itself,
 * where \u00XX would turn byte E9 into an "é" no different from a real
 * one. The bytes are lost (a file name that is not UTF-8 shows its other
 * characters); the line stays valid for every reader.
 */
void ara_json_string(FILE *f, const char *s);

/*
 * The same string into out, as snprintf() writes: at most cap - 1 bytes
 * and a NUL (nothing if cap is 0); returns the whole length (at most 6 bytes
 * a byte of s, and 2 for the quotes).
 */
size_t ara_json_escape(char *out, size_t cap, const char *s);

#endif
