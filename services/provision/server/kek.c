/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The KEK file and the sealing of secrets at rest (kek.h). The file is
 * checked on the open descriptor (fstat), so what is checked is what is
 * read: no window for a swap between a check by name and the read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mbedtls/gcm.h>
#include <mbedtls/platform_util.h>

#include "kek.h"
#include "wire.h"

static int fail(char *why, size_t cap, const char *path, const char *what, int err)
{
	if (err)
		snprintf(why, cap, "%s: %s: %s", path, what, strerror(err));
	else
		snprintf(why, cap, "%s: %s", path, what);
	return -1;
}

int ara_kek_load(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	uint8_t extra;
	struct stat st;
	ssize_t n;
	int r = -1;

	if (fd < 0)
		return fail(why, cap, path, "cannot open the KEK file", errno);
	if (fstat(fd, &st))
		fail(why, cap, path, "cannot stat the KEK file", errno);
	else if (!S_ISREG(st.st_mode))
		fail(why, cap, path, "the KEK file is not a regular file", 0);
	else if (st.st_mode & (S_IRWXG | S_IRWXO))
		snprintf(why, cap,
			 "%s: the KEK file is open to group or others (mode %04o): chmod 600 it",
			 path, (unsigned)(st.st_mode & 07777));
	else if (st.st_uid != geteuid() && st.st_uid != 0)
		snprintf(why, cap, "%s: the KEK file belongs to uid %u, not to this user or root",
			 path, (unsigned)st.st_uid);
	else if (st.st_size != ARA_KEK_LEN)
		snprintf(why, cap, "%s: the KEK file holds %lld bytes, not %u", path,
			 (long long)st.st_size, ARA_KEK_LEN);
	else if ((n = read(fd, kek, ARA_KEK_LEN)) != ARA_KEK_LEN || read(fd, &extra, 1) != 0)
		fail(why, cap, path, "cannot read the KEK's 32 bytes", n < 0 ? errno : 0);
	else
		r = 0;
	close(fd);
	if (r)
		mbedtls_platform_zeroize(kek, ARA_KEK_LEN);
	return r;
}

int ara_kek_create(const char *path, uint8_t kek[ARA_KEK_LEN], char *why, size_t cap)
{
	int fd;
	int r = -1;

	if (getrandom(kek, ARA_KEK_LEN, 0) != ARA_KEK_LEN)
		return fail(why, cap, path, "no random bytes for a new KEK", errno);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		fail(why, cap, path, "cannot create the KEK file", errno);
	else if (write(fd, kek, ARA_KEK_LEN) != ARA_KEK_LEN || fsync(fd))
		fail(why, cap, path, "cannot write the KEK file", errno);
	else
		r = 0;
	if (fd >= 0 && close(fd) && !r)
		r = fail(why, cap, path, "cannot write the KEK file", errno);
	if (r) {
		if (fd >= 0)
			unlink(path);
		mbedtls_platform_zeroize(kek, ARA_KEK_LEN);
	}
	return r;
}

int ara_kek_seal(const uint8_t kek[ARA_KEK_LEN], const char *name, const uint8_t *plain,
		 size_t len, uint8_t *out, size_t *out_len)
{
	mbedtls_gcm_context gcm;
	int ok;

	if (len == 0 || len > ARA_WIRE_SECRET_MAX ||
	    getrandom(out, ARA_KEK_NONCE, 0) != ARA_KEK_NONCE)
		return -1;
	mbedtls_gcm_init(&gcm);
	ok = mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, kek, ARA_KEK_LEN * 8) == 0 &&
	     mbedtls_gcm_crypt_and_tag(&gcm, MBEDTLS_GCM_ENCRYPT, len, out, ARA_KEK_NONCE,
				       (const uint8_t *)name, strlen(name), plain,
				       out + ARA_KEK_NONCE, ARA_KEK_TAG,
				       out + ARA_KEK_NONCE + len) == 0;
	mbedtls_gcm_free(&gcm);
	*out_len = ARA_KEK_NONCE + len + ARA_KEK_TAG;
	return ok ? 0 : -1;
}

int ara_kek_open(const uint8_t kek[ARA_KEK_LEN], const char *name, const uint8_t *sealed,
		 size_t sealed_len, uint8_t *plain, size_t *len)
{
	mbedtls_gcm_context gcm;
	size_t n = sealed_len - ARA_KEK_NONCE - ARA_KEK_TAG;
	int ok;

	if (sealed_len <= ARA_KEK_NONCE + ARA_KEK_TAG || n > ARA_WIRE_SECRET_MAX)
		return -1;
	mbedtls_gcm_init(&gcm);
	ok = mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, kek, ARA_KEK_LEN * 8) == 0 &&
	     mbedtls_gcm_auth_decrypt(&gcm, n, sealed, ARA_KEK_NONCE, (const uint8_t *)name,
				      strlen(name), sealed + ARA_KEK_NONCE + n, ARA_KEK_TAG,
				      sealed + ARA_KEK_NONCE, plain) == 0;
	mbedtls_gcm_free(&gcm);
	if (!ok) {
		mbedtls_platform_zeroize(plain, n);
		return -1;
	}
	*len = n;
	return 0;
}
