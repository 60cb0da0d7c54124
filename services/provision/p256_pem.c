/* SPDX-License-Identifier: Apache-2.0 */
/* P-256 keys in PEM files (p256_pem.h): every key file ARA reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mbedtls/pk.h>
#include <mbedtls/platform_util.h>

#include "ara_cli.h"
#include "p256_pem.h"

/* mbedtls's blinding while it parses a private key. */
static int random_cb(void *unused, unsigned char *out, size_t n)
{
	(void)unused;
	return ara_random(out, n);
}

/* The point of an EC key mbedtls parsed, if it is on P-256. */
static int point_of(const mbedtls_pk_context *pk, uint8_t out[ARA_P256_PK], char *why, size_t cap)
{
	size_t olen = 0;

	if (mbedtls_pk_get_type(pk) != MBEDTLS_PK_ECKEY)
		return ara_why(why, cap, "not an EC key");
	if (mbedtls_ecp_keypair_get_group_id(mbedtls_pk_ec(*pk)) != MBEDTLS_ECP_DP_SECP256R1)
		return ara_why(why, cap, "not a P-256 key");
	if (mbedtls_ecp_write_public_key(mbedtls_pk_ec(*pk), MBEDTLS_ECP_PF_UNCOMPRESSED, &olen,
					 out, ARA_P256_PK) ||
	    olen != ARA_P256_PK)
		return ara_why(why, cap, "cannot write the point uncompressed");
	return 0;
}

/*
 * buf[0..len) is PEM text: mbedtls would take a DER file followed by our NUL
 * as DER, and would stop at a NUL byte and ignore what follows it.
 */
static int pem_text(const char *buf, size_t len, char *why, size_t cap)
{
	if (!strstr(buf, "-----BEGIN ")) /* up to the first NUL: DER has one early */
		return ara_why(why, cap, "not PEM (no -----BEGIN line; a DER key: "
			       "openssl pkey -inform DER -in KEY -out KEY.pem)");
	if (memchr(buf, '\0', len))
		return ara_why(why, cap, "holds a NUL byte: not a PEM file");
	return 0;
}

int ara_p256_public_from_pem(const char *pem, size_t pem_len, uint8_t pk[ARA_P256_PK], char *why,
			     size_t why_cap)
{
	char buf[ARA_P256_PEM_MAX + 1], inner[128];
	mbedtls_pk_context ctx;
	int r;

	if (pem_len == 0 || pem_len > ARA_P256_PEM_MAX)
		return ara_why(why, why_cap, "pem: empty or longer than %u bytes", ARA_P256_PEM_MAX);
	/* mbedtls parses PEM only from a NUL-terminated buffer. */
	memcpy(buf, pem, pem_len);
	buf[pem_len] = '\0';
	if (pem_text(buf, pem_len, inner, sizeof(inner)))
		return ara_why(why, why_cap, "pem: %s", inner);
	mbedtls_pk_init(&ctx);
	r = mbedtls_pk_parse_public_key(&ctx, (const unsigned char *)buf, pem_len + 1);
	if (r)
		r = ara_why(why, why_cap, "pem: not a public key (mbedtls -0x%04x)", (unsigned)-r);
	else if (point_of(&ctx, pk, why, why_cap))
		r = -1;
	mbedtls_pk_free(&ctx);
	return r;
}

/*
 * The file at path, whole, NUL-terminated, into buf (ARA_P256_PEM_MAX + 1
 * bytes); private: refused if group or others have any access to it. 0,
 * ARA_P256_PEM_E_IO or ARA_P256_PEM_E_KEY.
 */
static int read_pem(const char *path, int private, char *buf, size_t *len, char *why, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	ssize_t got = 0;
	int r = 0;

	if (fd < 0) {
		ara_why(why, cap, "%s: cannot open: %s", path, strerror(errno));
		return ARA_P256_PEM_E_IO;
	}
	if (fstat(fd, &st)) {
		ara_why(why, cap, "%s: cannot stat: %s", path, strerror(errno));
		r = ARA_P256_PEM_E_IO;
	} else if (!S_ISREG(st.st_mode)) {
		ara_why(why, cap, "%s: not a regular file", path);
		r = ARA_P256_PEM_E_KEY;
	} else if (private && (st.st_mode & 077)) {
		ara_why(why, cap, "%s: a private key its group or others may access (mode %04o): "
			"chmod 600 it", path, (unsigned)(st.st_mode & 07777));
		r = ARA_P256_PEM_E_KEY;
	} else if (private && st.st_uid != geteuid() && st.st_uid != 0) {
		/* Another user could have put it there, or change it. */
		ara_why(why, cap, "%s: a private key owned by another user (uid %u)", path,
			(unsigned)st.st_uid);
		r = ARA_P256_PEM_E_KEY;
	} else if (st.st_size <= 0 || st.st_size > (off_t)ARA_P256_PEM_MAX) {
		ara_why(why, cap, "%s: empty or longer than %u bytes", path, ARA_P256_PEM_MAX);
		r = ARA_P256_PEM_E_KEY;
	}
	if (r == 0) {
		do
			got = pread(fd, buf, (size_t)st.st_size, 0);
		while (got < 0 && errno == EINTR);
		if (got != st.st_size) {
			ara_why(why, cap, "%s: cannot read: %s", path,
				got < 0 ? strerror(errno) : "it changed size");
			r = ARA_P256_PEM_E_IO;
		} else {
			buf[*len = (size_t)got] = '\0';
		}
	}
	close(fd);
	return r;
}

int ara_p256_read_public(const char *path, uint8_t pk[ARA_P256_PK], char *why, size_t why_cap)
{
	char buf[ARA_P256_PEM_MAX + 1], inner[256];
	size_t len = 0;

	int r = read_pem(path, 0, buf, &len, why, why_cap);

	if (r)
		return r;
	if (ara_p256_public_from_pem(buf, len, pk, inner, sizeof(inner))) {
		ara_why(why, why_cap, "%s: %s", path, inner);
		return ARA_P256_PEM_E_KEY;
	}
	return 0;
}

int ara_p256_read_secret(const char *path, uint8_t sk[ARA_P256_SK], uint8_t pk[ARA_P256_PK],
			 char *why, size_t why_cap)
{
	char buf[ARA_P256_PEM_MAX + 1], inner[256];
	mbedtls_pk_context ctx;
	size_t len = 0, olen = 0;
	int r;

	r = read_pem(path, 1, buf, &len, why, why_cap);
	if (r) {
		mbedtls_platform_zeroize(buf, sizeof(buf)); /* a part of the key may be in it */
		return r;
	}
	mbedtls_pk_init(&ctx);
	if (pem_text(buf, len, inner, sizeof(inner)))
		r = ara_why(why, why_cap, "%s: %s", path, inner);
	else if ((r = mbedtls_pk_parse_key(&ctx, (const unsigned char *)buf, len + 1, NULL, 0,
					    random_cb, NULL)))
		ara_why(why, why_cap, "%s: %s (mbedtls -0x%04x)", path,
			r == MBEDTLS_ERR_PK_UNKNOWN_NAMED_CURVE ? "not a P-256 key" :
								  "not an unencrypted private key",
			(unsigned)-r);
	else if (point_of(&ctx, pk, inner, sizeof(inner)))
		r = ara_why(why, why_cap, "%s: %s", path, inner);
	/* mbedtls takes a SEC1 key's public point as written, unchecked against the scalar. */
	else if (mbedtls_pk_check_pair(&ctx, &ctx, random_cb, NULL))
		r = ara_why(why, why_cap, "%s: its public point is not its private scalar's", path);
	else if (mbedtls_ecp_write_key_ext(mbedtls_pk_ec(ctx), &olen, sk, ARA_P256_SK) ||
		 olen != ARA_P256_SK)
		r = ara_why(why, why_cap, "%s: cannot write the private scalar", path);
	mbedtls_pk_free(&ctx);
	if (r) {
		r = ARA_P256_PEM_E_KEY;
		mbedtls_platform_zeroize(sk, ARA_P256_SK);
	}
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return r;
}
