/* SPDX-License-Identifier: Apache-2.0 */
/* Reading whole files (file_io.h). */
#include "file_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int ara_rtm_read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL)
		return -1;
	/* Read until EOF rather than trust a size: pipes and /proc files have none. */
	for (;;) {
		size_t got;

		if (n == cap) {
			uint8_t *p;

			cap = cap ? cap * 2 : 1u << 16;
			p = cap > n ? realloc(b, cap) : NULL;
			if (p == NULL) {
				free(b);
				fclose(f);
				errno = ENOMEM;
				return -1;
			}
			b = p;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(b);
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}
