/* SPDX-License-Identifier: Apache-2.0 */
#include "elf_fd.h"

#include <errno.h>
#include <unistd.h>

static enum ara_elf_err pread_all(const struct ara_elf_src *src, uint64_t off, void *buf,
				  size_t len)
{
	uint8_t *out = buf;

	while (len > 0) {
		ssize_t got = pread(src->fd, out, len, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO; /* shorter than its recorded size */
			return ARA_ELF_E_IO;
		}
		out += got;
		off += (uint64_t)got;
		len -= (size_t)got;
	}
	return ARA_ELF_OK;
}

struct ara_elf_src ara_elf_fd_src(int fd, uint64_t size)
{
	return (struct ara_elf_src){ .mem = NULL, .size = size, .read = pread_all, .fd = fd };
}
