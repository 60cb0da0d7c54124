/* SPDX-License-Identifier: Apache-2.0 */
/* JSON strings for the programs' --json output (RFC 8259, section 7). */
#include "ara_cli.h"

#include <stdio.h>

void ara_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}
