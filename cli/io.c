/* SPDX-License-Identifier: Apache-2.0 */
/* Whole reads and writes on file descriptors, and random bytes, retried on EINTR. */
#include "ara_cli.h"

#include <errno.h>
#include <sys/random.h>
#include <unistd.h>

int ara_random(uint8_t *out, size_t n)
{
	while (n) {
		ssize_t got = getrandom(out, n, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		out += got;
		n -= (size_t)got;
	}
	return 0;
}

int ara_read_upto(int fd, void *buf, size_t cap, size_t *len)
{
	uint8_t *p = buf;

	*len = 0;
	while (*len < cap) {
		ssize_t n = read(fd, p + *len, cap - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	return 0;
}

int ara_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO; /* no progress, no error: do not spin */
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
