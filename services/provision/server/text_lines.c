/* SPDX-License-Identifier: Apache-2.0 */
/* The provisioner's line-oriented files, read and split (text_lines.h). */
#include "text_lines.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mbedtls/platform_util.h>

#include "read_whole.h"

int ara_text_lines_fail(const struct ara_text_lines *l, char *why, size_t cap, const char *fmt,
			...)
{
	va_list ap;
	int n = snprintf(why, cap, "%s:%u: ", l->file, l->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < cap)
		vsnprintf(why + n, cap - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Every byte a line may hold: tab, newline, and no other control byte. */
static int check_bytes(struct ara_text_lines *l, char *why, size_t cap)
{
	l->line = 1;
	for (size_t i = 0; i < l->len; i++) {
		unsigned char c = (unsigned char)l->text[i];

		if (c == '\n')
			l->line++;
		else if (c == '\0')
			return ara_text_lines_fail(l, why, cap,
						   "a NUL byte: the file is refused whole");
		else if (c == '\r')
			return ara_text_lines_fail(l, why, cap,
						   "a carriage return: lines end with a newline "
						   "alone");
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			return ara_text_lines_fail(l, why, cap, "a control byte (0x%02x)", c);
	}
	l->line = 0;
	return 0;
}

int ara_text_lines_over(struct ara_text_lines *l, const char *file, char *text, size_t len,
			char *why, size_t cap)
{
	*l = (struct ara_text_lines){ .file = file, .text = text, .len = len };
	return check_bytes(l, why, cap);
}

int ara_text_lines_read(struct ara_text_lines *l, const char *path, size_t max, unsigned flags,
			char *why, size_t cap)
{
	struct stat st;
	uint8_t *buf;
	size_t len;

	*l = (struct ara_text_lines){ .file = path };
	if (ara_read_whole_stat(path, max, &buf, &len, &st)) {
		if (errno == EFBIG)
			return ara_text_lines_fail(l, why, cap, "%s is over %zu bytes", path, max);
		ara_text_lines_fail(l, why, cap, "cannot open %s: %s", path, strerror(errno));
		return ARA_TEXT_UNREADABLE;
	}
	if ((flags & ARA_TEXT_PRIVATE) && (st.st_mode & (S_IRWXG | S_IRWXO))) {
		mbedtls_platform_zeroize(buf, len);
		free(buf);
		return ara_text_lines_fail(l, why, cap,
					   "%s may be read or written by others (mode %04o): it "
					   "holds secrets (chmod 600 it)",
					   path, (unsigned)(st.st_mode & 07777));
	}
	if (ara_text_lines_over(l, path, (char *)buf, len, why, cap)) {
		mbedtls_platform_zeroize(buf, len);
		free(buf);
		l->text = NULL;
		return -1;
	}
	l->owned = 1;
	return 0;
}

int ara_text_lines_next(struct ara_text_lines *l, char **field, int max_fields, char *why,
			size_t cap)
{
	static const char blank[] = " \t";

	while (l->at < l->len) {
		char *line = l->text + l->at, *end = memchr(line, '\n', l->len - l->at), *p;
		size_t n = end ? (size_t)(end - line) : l->len - l->at;
		int count = 0;

		l->line++;
		l->at += n + (end != NULL);
		if (n > ARA_TEXT_LINE_MAX)
			return ara_text_lines_fail(l, why, cap, "line longer than %u bytes",
						   ARA_TEXT_LINE_MAX);
		line[n] = '\0';
		for (p = line + strspn(line, blank); *p && count <= max_fields;
		     p += strspn(p, blank)) {
			field[count++] = p;
			p += strcspn(p, blank);
			if (*p && count <= max_fields)
				*p++ = '\0';
		}
		if (count > 0 && field[0][0] != '#')
			return count;
	}
	return 0;
}

void ara_text_lines_close(struct ara_text_lines *l)
{
	if (l->owned && l->text != NULL) {
		mbedtls_platform_zeroize(l->text, l->len);
		free(l->text);
	}
	l->text = NULL;
	l->owned = 0;
}
