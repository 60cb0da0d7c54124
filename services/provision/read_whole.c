/* SPDX-License-Identifier: Apache-2.0 */
/* Whole files under a bound (read_whole.h). */
#include "read_whole.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/* Frees b after wiping its n bytes: the file may hold secrets. */
static void drop(uint8_t *b, size_t n)
{
	if (b != NULL)
		explicit_bzero(b, n);
	free(b);
}

/* A regular file of st_size bytes: one buffer of that size, then EOF must follow. */
static int read_regular(int fd, size_t size, uint8_t **buf, size_t *len)
{
	uint8_t *b = size < SIZE_MAX ? malloc(size + 1) : NULL, extra;
	size_t n = 0, more = 0;

	if (b == NULL)
		return -1;
	if (fill(fd, b, size, &n) || fill(fd, &extra, 1, &more)) {
		drop(b, n);
		return -1;
	}
	if (n != size || more != 0) { /* it changed while it was read */
		drop(b, n);
		errno = EIO;
		return -1;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/*
 * Anything else (pipes have no size): grown up to max + 1 bytes (so that
 * more than max is seen), each smaller buffer wiped once copied.
 */
static int read_stream(int fd, size_t max, uint8_t **buf, size_t *len)
{
	uint8_t *b = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		size_t want = cap == 0 ? 1u << 16 : cap * 2;
		uint8_t *p;

		want = want > max + 1 ? max + 1 : want;
		p = malloc(want + 1);
		if (p == NULL) {
			drop(b, n);
			return -1;
		}
		if (n > 0)
			memcpy(p, b, n);
		drop(b, n);
		b = p;
		cap = want;
		if (fill(fd, b, cap, &n)) {
			drop(b, n);
			return -1;
		}
		if (n > max) {
			drop(b, n);
			errno = EFBIG;
			return -1;
		}
		if (n < cap)
			break;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/* fd's regular file as ara_read_regular reads it; fd closed, errno kept. */
static int regular_fd(int fd, size_t max, uint8_t **buf, size_t *len)
{
	struct stat st;
	int r, saved;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		r = -1;
	} else if (!S_ISREG(st.st_mode)) {
		r = -2;
	} else if ((uint64_t)st.st_size > max) {
		errno = EFBIG;
		r = -1;
	} else {
		r = read_regular(fd, (size_t)st.st_size, buf, len);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

int ara_read_regular(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	return regular_fd(open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), max, buf, len);
}

int ara_read_regular_in(const char *root, const char *path, size_t max, uint8_t **buf,
			size_t *len)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, saved;

	if (dir < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, dir, path, &how, sizeof(how));
	saved = errno;
	close(dir);
	errno = saved;
	return regular_fd(fd, max, buf, len);
}

int ara_read_whole_stat(const char *path, size_t max, uint8_t **buf, size_t *len,
			struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r, saved;

	if (fd < 0)
		return -1;
	if (fstat(fd, st)) {
		r = -1;
	} else if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > max) {
		errno = EFBIG;
		r = -1;
	} else if (S_ISREG(st->st_mode)) {
		r = read_regular(fd, (size_t)st->st_size, buf, len);
	} else {
		r = read_stream(fd, max, buf, len);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

int ara_read_whole(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	struct stat st;

	return ara_read_whole_stat(path, max, buf, len, &st);
}
