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

_Static_assert(ARA_STORE_SEALED_MAX == ARA_KEK_OVERHEAD + ARA_WIRE_SECRET_MAX,
	       "the store keeps what a seal makes");

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

/* The additional data of rule 2 for sec's row (kek.h); its length. */
static size_t row_aad(const struct ara_store_secret *sec, uint8_t aad[14 + ARA_STORE_NAME_MAX])
{
	size_t name_len = strnlen(sec->name, ARA_STORE_NAME_MAX);
	uint64_t created = (uint64_t)sec->created_ms;

	aad[0] = ARA_KEK_RULE;
	for (int i = 0; i < 4; i++)
		aad[1 + i] = (uint8_t)(sec->version >> (24 - 8 * i));
	aad[5] = sec->once != 0;
	for (int i = 0; i < 8; i++)
		aad[6 + i] = (uint8_t)(created >> (56 - 8 * i));
	memcpy(aad + 14, sec->name, name_len);
	return 14 + name_len;
}

/* AES-256-GCM of n bytes under the KEK; mode MBEDTLS_GCM_ENCRYPT or _DECRYPT. 0, or -1. */
static int gcm(const uint8_t kek[ARA_KEK_LEN], int mode, const uint8_t *nonce, const uint8_t *aad,
	       size_t aad_len, const uint8_t *in, size_t n, uint8_t *out, uint8_t tag[ARA_KEK_TAG])
{
	mbedtls_gcm_context ctx;
	int ok;

	mbedtls_gcm_init(&ctx);
	ok = mbedtls_gcm_setkey(&ctx, MBEDTLS_CIPHER_ID_AES, kek, ARA_KEK_LEN * 8) == 0 &&
	     (mode == MBEDTLS_GCM_ENCRYPT
		      ? mbedtls_gcm_crypt_and_tag(&ctx, mode, n, nonce, ARA_KEK_NONCE, aad, aad_len,
						  in, out, ARA_KEK_TAG, tag)
		      : mbedtls_gcm_auth_decrypt(&ctx, n, nonce, ARA_KEK_NONCE, aad, aad_len, tag,
						 ARA_KEK_TAG, in, out)) == 0;
	mbedtls_gcm_free(&ctx);
	if (!ok)
		mbedtls_platform_zeroize(out, n);
	return ok ? 0 : -1;
}

int ara_kek_seal(const uint8_t kek[ARA_KEK_LEN], struct ara_store_secret *sec,
		 const uint8_t *plain, size_t len)
{
	uint8_t aad[14 + ARA_STORE_NAME_MAX];
	uint8_t *out = sec->sealed;

	if (len == 0 || len > ARA_WIRE_SECRET_MAX ||
	    getrandom(out + 1, ARA_KEK_NONCE, 0) != ARA_KEK_NONCE)
		return -1;
	out[0] = ARA_KEK_RULE;
	if (gcm(kek, MBEDTLS_GCM_ENCRYPT, out + 1, aad, row_aad(sec, aad), plain, len,
		out + 1 + ARA_KEK_NONCE, out + 1 + ARA_KEK_NONCE + len))
		return -1;
	sec->sealed_len = ARA_KEK_OVERHEAD + len;
	return 0;
}

int ara_kek_open(const uint8_t kek[ARA_KEK_LEN], const struct ara_store_secret *sec,
		 uint8_t *plain, size_t *len, char *why, size_t cap)
{
	uint8_t aad[14 + ARA_STORE_NAME_MAX], tag[ARA_KEK_TAG];
	const uint8_t *in = sec->sealed;
	size_t n = sec->sealed_len - ARA_KEK_OVERHEAD;

	if (sec->sealed_len <= ARA_KEK_OVERHEAD || n > ARA_WIRE_SECRET_MAX || in[0] != ARA_KEK_RULE) {
		snprintf(why, cap,
			 "secret '%s' version %u: its sealed value is not of sealing rule %u "
			 "(the migration re-seals every row once: one added since, by hand?)",
			 sec->name, sec->version, ARA_KEK_RULE);
		return -1;
	}
	memcpy(tag, in + 1 + ARA_KEK_NONCE + n, ARA_KEK_TAG);
	if (gcm(kek, MBEDTLS_GCM_DECRYPT, in + 1, aad, row_aad(sec, aad), in + 1 + ARA_KEK_NONCE, n,
		plain, tag)) {
		snprintf(why, cap,
			 "secret '%s' version %u does not open under the KEK with its row's name, "
			 "version, once flag and time: the row was altered in the database (or "
			 "another KEK file)",
			 sec->name, sec->version);
		return -1;
	}
	*len = n;
	return 0;
}

int ara_kek_reseal(void *kek, struct ara_store_secret *sec, char *why, size_t cap)
{
	uint8_t plain[ARA_WIRE_SECRET_MAX];
	size_t n = sec->sealed_len - ARA_KEK_NONCE - ARA_KEK_TAG;
	int r;

	/* Rule 1: nonce || ciphertext || tag, the name alone as the additional data. */
	if (sec->sealed_len <= ARA_KEK_NONCE + ARA_KEK_TAG || n > ARA_WIRE_SECRET_MAX ||
	    gcm(kek, MBEDTLS_GCM_DECRYPT, sec->sealed, (const uint8_t *)sec->name,
		strnlen(sec->name, ARA_STORE_NAME_MAX), sec->sealed + ARA_KEK_NONCE, n, plain,
		sec->sealed + ARA_KEK_NONCE + n)) {
		snprintf(why, cap,
			 "secret '%s' version %u (sealing rule 1) does not open under this KEK: "
			 "another KEK file?",
			 sec->name, sec->version);
		return -1;
	}
	r = ara_kek_seal(kek, sec, plain, n);
	mbedtls_platform_zeroize(plain, sizeof(plain));
	if (r)
		snprintf(why, cap, "secret '%s' version %u: sealing it again failed", sec->name,
			 sec->version);
	return r;
}
