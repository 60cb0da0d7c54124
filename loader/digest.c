/* SPDX-License-Identifier: Apache-2.0 */
/* Written for the mbedtls 3.6 API, whose SHA-256 calls return int. */
#include "digest.h"

#include <errno.h>
#include <unistd.h>

#include <mbedtls/sha256.h>

#define IS224 0 /* mbedtls' flag for SHA-224: off */

/* mbedtls reports no more than "failed"; callers print strerror(errno). */
static int failed_eio(void)
{
	errno = EIO;
	return -1;
}

int ara_sha256(const void *buf, size_t len, uint8_t out[ARA_SHA256_BYTES])
{
	return mbedtls_sha256(buf, len, out, IS224) == 0 ? 0 : failed_eio();
}

static int hash_range(mbedtls_sha256_context *ctx, int fd, uint64_t off,
		      uint64_t len, uint8_t out[ARA_SHA256_BYTES])
{
	uint8_t buf[16384];

	if (mbedtls_sha256_starts(ctx, IS224) != 0)
		return failed_eio();
	while (len > 0) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t got = pread(fd, buf, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return failed_eio(); /* the file ended early */
		if (mbedtls_sha256_update(ctx, buf, (size_t)got) != 0)
			return failed_eio();
		off += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return mbedtls_sha256_finish(ctx, out) == 0 ? 0 : failed_eio();
}

int ara_sha256_fd(int fd, uint64_t off, uint64_t len,
		  uint8_t out[ARA_SHA256_BYTES])
{
	mbedtls_sha256_context ctx;
	int ret;

	mbedtls_sha256_init(&ctx);
	ret = hash_range(&ctx, fd, off, len, out);
	mbedtls_sha256_free(&ctx); /* zeroes the context */
	return ret;
}
