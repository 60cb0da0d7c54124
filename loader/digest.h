/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-256, the one hash of the manifest; the only file that calls mbedtls. */
#ifndef ARA_LOADER_DIGEST_H
#define ARA_LOADER_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "ara/boot.h"

/* Returns 0, or -1 with errno set. */
int ara_sha256(const void *buf, size_t len, uint8_t out[ARA_SHA256_BYTES]);

/*
 * Hashes the len bytes at off of fd, read with pread(). Returns 0, or -1
 * with errno set (EIO if the file ends before off + len).
 */
int ara_sha256_fd(int fd, uint64_t off, uint64_t len,
		  uint8_t out[ARA_SHA256_BYTES]);

#endif
