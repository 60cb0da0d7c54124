/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sealed memfds: the copies of libara.so, the entry object and the App that
 * ara-loader verifies and the dynamic linker maps, and the boot block.
 *
 * Once sealed (F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE, and
 * F_SEAL_EXEC from MFD_NOEXEC_SEAL) no descriptor, in this process or any
 * other, can change the bytes: what is hashed after sealing is what gets
 * mapped.
 */
#ifndef ARA_LOADER_SEALED_COPY_H
#define ARA_LOADER_SEALED_COPY_H

#include <stddef.h>

/*
 * Copies everything src_fd reads until end of file into a new memfd called
 * name (close-on-exec), and seals it. Returns the memfd, or -1 with errno
 * set and *failed naming the step: "read" (of src_fd), or "memfd_create",
 * "write" or "seal".
 */
int ara_sealed_copy(int src_fd, const char *name, const char **failed);

/* The same for the len bytes at buf. */
int ara_sealed_buffer(const void *buf, size_t len, const char *name,
		      const char **failed);

#endif
