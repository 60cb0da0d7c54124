/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EAR signing key (ear.h): a P-256 private key in the files OpenSSL
 * and most tools write (PEM or DER; SEC1 or PKCS#8, unencrypted). A
 * signing key others can read is no key: such a file is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mbedtls/ecp.h>
#include <mbedtls/pk.h>
#include <mbedtls/platform_util.h>

#include "ear.h"
#include "p256.h"

#define KEY_FILE_MAX 16384 /* a P-256 key's PEM is under 300 bytes */

/* The file whole, NUL-terminated (PEM parsing wants the NUL counted). */
static int read_key_file(const char *path, uint8_t *buf, size_t *len, char *why, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	ssize_t r;

	if (fd < 0) {
		snprintf(why, cap, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(why, cap, "%s: cannot stat: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & (S_IRWXG | S_IRWXO))) {
		snprintf(why, cap, "%s: %s", path,
			 !S_ISREG(st.st_mode) ? "not a regular file" :
						"group or others may access it (chmod 600 it)");
		close(fd);
		return -1;
	}
	*len = 0;
	for (;;) {
		r = read(fd, buf + *len, KEY_FILE_MAX + 1 - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		*len += (size_t)r;
		if (*len > KEY_FILE_MAX)
			break;
	}
	close(fd);
	if (r < 0 || *len > KEY_FILE_MAX) {
		snprintf(why, cap, "%s: %s", path,
			 r < 0 ? strerror(errno) : "over 16384 bytes: not a key file");
		return -1;
	}
	buf[(*len)++] = '\0';
	return 0;
}

int ara_ear_key_load(const char *path, struct ara_ear_key *k, char *why, size_t cap)
{
	uint8_t *buf = malloc(KEY_FILE_MAX + 1);
	mbedtls_pk_context pk;
	size_t len, olen;
	int rc = -1;

	if (!buf) {
		snprintf(why, cap, "%s: out of memory", path);
		return -1;
	}
	mbedtls_pk_init(&pk);
	if (read_key_file(path, buf, &len, why, cap))
		goto out;
	/* PEM counts its NUL; DER does not. */
	if (mbedtls_pk_parse_key(&pk, buf, len, NULL, 0, NULL, NULL) &&
	    mbedtls_pk_parse_key(&pk, buf, len - 1, NULL, 0, NULL, NULL)) {
		snprintf(why, cap, "%s: not an unencrypted P-256 private key (PEM or DER)", path);
		goto out;
	}
	if (mbedtls_pk_get_type(&pk) != MBEDTLS_PK_ECKEY ||
	    mbedtls_ecp_keypair_get_group_id(mbedtls_pk_ec(pk)) != MBEDTLS_ECP_DP_SECP256R1) {
		snprintf(why, cap, "%s: not a P-256 (prime256v1) key: ES256 needs one", path);
		goto out;
	}
	if (mbedtls_ecp_write_key_ext(mbedtls_pk_ec(pk), &olen, k->sk, sizeof(k->sk)) ||
	    olen != sizeof(k->sk) ||
	    mbedtls_ecp_write_public_key(mbedtls_pk_ec(pk), MBEDTLS_ECP_PF_UNCOMPRESSED, &olen,
					 k->pub, sizeof(k->pub)) ||
	    olen != sizeof(k->pub) || ara_p256_check_public(k->pub)) {
		snprintf(why, cap, "%s: the key's public point is missing or invalid", path);
		ara_ear_key_wipe(k);
		goto out;
	}
	rc = 0;
out:
	mbedtls_pk_free(&pk);
	mbedtls_platform_zeroize(buf, KEY_FILE_MAX + 1);
	free(buf);
	return rc;
}

void ara_ear_key_wipe(struct ara_ear_key *k)
{
	mbedtls_platform_zeroize(k, sizeof(*k));
}
