/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON strings (RFC 8259, section 7) for the programs' --json output and
 * the service's log lines: one rule, two forms (a FILE, a buffer).
 */
#include "ara_cli.h"

#include <stdio.h>
#include <string.h>

/*
 * The length of the well-formed UTF-8 sequence at p (RFC 3629's table: no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0.
 */
static size_t utf8_length(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0; /* a continuation byte, C0/C1 (overlong), F5..FF */
	if (*p == 0xe0)
		lo = 0xa0; /* below: overlong */
	else if (*p == 0xed)
		hi = 0x9f; /* above: a surrogate */
	else if (*p == 0xf0)
		lo = 0x90; /* below: overlong */
	else if (*p == 0xf4)
		hi = 0x8f; /* above: past U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0; /* the NUL that ends s stops here too */
	return n;
}

/* The JSON form of what starts at *p, into out (NUL-terminated); *p moves past it. */
static void escape_next(const unsigned char **p, char out[8])
{
	const unsigned char *c = *p;
	size_t n = utf8_length(c);

	if (n == 0) {
		memcpy(out, "\\ufffd", 7);
		n = 1;
	} else if (*c == '"' || *c == '\\') {
		snprintf(out, 8, "\\%c", *c);
	} else if (*c < 0x20 || *c == 0x7f) {
		snprintf(out, 8, "\\u%04x", *c);
	} else if (*c == 0xc2 && c[1] < 0xa0) {
		snprintf(out, 8, "\\u%04x", c[1]); /* U+0080..U+009F, the C1 controls */
	} else {
		memcpy(out, c, n);
		out[n] = '\0';
	}
	*p = c + n;
}

void ara_json_string(FILE *f, const char *s)
{
	char piece[8];

	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		escape_next(&p, piece);
		fputs(piece, f);
	}
	fputc('"', f);
}

/* piece after out's first *len bytes, as snprintf() would: cut at cap, NUL-terminated. */
static void append(char *out, size_t cap, size_t *len, const char *piece)
{
	size_t n = strlen(piece);

	if (*len < cap) {
		size_t fits = n < cap - *len - 1 ? n : cap - *len - 1;

		memcpy(out + *len, piece, fits);
		out[*len + fits] = '\0';
	}
	*len += n;
}

size_t ara_json_escape(char *out, size_t cap, const char *s)
{
	char piece[8];
	size_t len = 0;

	append(out, cap, &len, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		escape_next(&p, piece);
		append(out, cap, &len, piece);
	}
	append(out, cap, &len, "\"");
	return len;
}
