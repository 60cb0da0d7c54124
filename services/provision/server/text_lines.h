/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reading layer of the provisioner's line-oriented files (the policy
 * and secrets files; docs/provisioning.md, "The policy file"): a file is
 * read whole under a bound checked before the read, refused whole on a
 * byte no line may hold (NUL, or any control byte but tab and newline),
 * then given line by line as its fields. A line is blank, a comment (its
 * first non-blank byte is '#'), or fields separated by spaces and tabs;
 * lines end at a newline. Each grammar says which fields it takes.
 */
#ifndef ARA_PROVISION_TEXT_LINES_H
#define ARA_PROVISION_TEXT_LINES_H

#include <stddef.h>

/* The longest line, newline excluded. */
#define ARA_TEXT_LINE_MAX 4096u

struct ara_text_lines {
	const char *file; /* for messages, "FILE:LINE: ..." */
	char *text;	  /* the bytes, NUL-terminated; changed as lines are given */
	size_t len, at;
	unsigned line; /* the number of the line last given, from 1 */
	int owned;     /* text was read here: wiped and freed by ara_text_lines_close */
};

/* ara_text_lines_read's flags. */
#define ARA_TEXT_PRIVATE 1u /* refused if its group or others may read or write it */

/* ara_text_lines_read's result when path cannot be opened or read. */
#define ARA_TEXT_UNREADABLE (-2)

/*
 * Reads path (at most max bytes) and checks every byte. 0, or
 * ARA_TEXT_UNREADABLE or -1 (refused) with why ("PATH:LINE: ..." or
 * "PATH:0: ...") and nothing left to close.
 */
int ara_text_lines_read(struct ara_text_lines *l, const char *path, size_t max, unsigned flags,
			char *why, size_t cap);

/* The same over text (len bytes and a NUL after them, changed in place), named file. */
int ara_text_lines_over(struct ara_text_lines *l, const char *file, char *text, size_t len,
			char *why, size_t cap);

/*
 * The next line that is neither blank nor a comment: its number of fields
 * (at most max_fields + 1, so that one too many is seen), with field[i]
 * pointing into the text (NUL-terminated); 0 at the end; -1 with why when
 * the line is over ARA_TEXT_LINE_MAX bytes.
 */
int ara_text_lines_next(struct ara_text_lines *l, char **field, int max_fields, char *why,
			size_t cap);

/* "FILE:LINE: " and the message into why; returns -1. */
int ara_text_lines_fail(const struct ara_text_lines *l, char *why, size_t cap, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));

/* Wipes and frees what ara_text_lines_read read. */
void ara_text_lines_close(struct ara_text_lines *l);

#endif
