/* SPDX-License-Identifier: Apache-2.0 */
/* Reading whole files under a bound (file_io.h). */
#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Up to cap bytes into b at *n; 0 at EOF or when full, -1 with errno on an error. */
static int fill(int fd, uint8_t *b, size_t cap, size_t *n)
{
	while (*n < cap) {
		ssize_t got = read(fd, b + *n, cap - *n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		*n += (size_t)got;
	}
	return 0;
}

/* A regular file of st_size bytes: one buffer of that size, then EOF must follow. */
static int read_regular(int fd, size_t size, uint8_t **buf, size_t *len)
{
	uint8_t *b = malloc(size ? size : 1), extra;
	size_t n = 0, more = 0;

	if (b == NULL)
		return -1;
	if (fill(fd, b, size, &n) || fill(fd, &extra, 1, &more)) {
		free(b);
		return -1;
	}
	if (n != size || more != 0) { /* it changed while it was read */
		free(b);
		errno = EIO;
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* Anything else (pipes have no size): grown up to max, then one byte more must be EOF. */
static int read_stream(int fd, size_t max, uint8_t **buf, size_t *len)
{
	uint8_t *b = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		size_t want = cap == 0 ? 1u << 16 : cap * 2;
		uint8_t *p;

		want = want > max + 1 ? max + 1 : want;
		p = realloc(b, want);
		if (p == NULL) {
			free(b);
			return -1;
		}
		b = p;
		cap = want;
		if (fill(fd, b, cap, &n)) {
			free(b);
			return -1;
		}
		if (n > max) {
			free(b);
			errno = EFBIG;
			return -1;
		}
		if (n < cap)
			break;
	}
	*buf = b;
	*len = n;
	return 0;
}

int ara_rtm_read_file(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r, saved;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		r = -1;
	} else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		errno = EFBIG;
		r = -1;
	} else if (S_ISREG(st.st_mode)) {
		r = read_regular(fd, (size_t)st.st_size, buf, len);
	} else {
		r = read_stream(fd, max, buf, len);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}
