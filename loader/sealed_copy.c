/* SPDX-License-Identifier: Apache-2.0 */
#include "ara_cli.h"
#include "sealed_copy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Linux >= 6.3 (uapi/linux/memfd.h; every kernel with POE has it): the memfd
 * loses its x bits for good (F_SEAL_EXEC), so nobody can execve() it. The
 * dynamic linker only mmap()s it, which the flag does not restrict.
 */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008u
#endif

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* Seals fd and reads the seals back: all of SEALS, or an error. */
static int seal(int fd)
{
	int seals;

	if (fcntl(fd, F_ADD_SEALS, SEALS) != 0)
		return -1;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return -1;
	if ((seals & SEALS) != SEALS) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

static int create(const char *name, const char **failed)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING |
					    MFD_NOEXEC_SEAL);

	if (fd < 0)
		*failed = "memfd_create";
	return fd;
}

/* Closes fd after a failed step, keeping errno; returns -1. */
static int fail(int fd, const char *step, const char **failed)
{
	int saved = errno;

	*failed = step;
	close(fd);
	errno = saved;
	return -1;
}

static int finish(int fd, const char **failed)
{
	return seal(fd) == 0 ? fd : fail(fd, "seal", failed);
}

int ara_sealed_copy(int src_fd, const char *name, const char **failed)
{
	uint8_t buf[65536];
	int fd = create(name, failed);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(src_fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(fd, "read", failed);
		if (n == 0)
			break;
		if (ara_write_all(fd, buf, (size_t)n) != 0)
			return fail(fd, "write", failed);
	}
	return finish(fd, failed);
}

int ara_sealed_buffer(const void *buf, size_t len, const char *name,
		      const char **failed)
{
	int fd = create(name, failed);

	if (fd < 0)
		return -1;
	if (ara_write_all(fd, buf, len) != 0)
		return fail(fd, "write", failed);
	return finish(fd, failed);
}
