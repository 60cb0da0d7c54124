/* SPDX-License-Identifier: Apache-2.0 */
/*
 * p256_keygen KEY PUB: a fresh P-256 key pair for the tests, as PEM files
 * in the forms OpenSSL writes (an operator uses `openssl genpkey`; the POE
 * guest has no openssl): KEY the private key (SEC1, mode 0600), PUB its
 * public key (SubjectPublicKeyInfo). Not an ARA program: a test helper.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <mbedtls/pk.h>
#include <mbedtls/platform_util.h>

static int random_cb(void *unused, unsigned char *out, size_t n)
{
	(void)unused;
	return getrandom(out, n, 0) == (ssize_t)n ? 0 : -1;
}

static int write_file(const char *path, const unsigned char *pem, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen((const char *)pem);

	if (fd < 0 || write(fd, pem, len) != (ssize_t)len || close(fd)) {
		fprintf(stderr, "p256_keygen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char key[1024], pub[512];
	mbedtls_pk_context pk;
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: p256_keygen KEY PUB\n");
		return 2;
	}
	mbedtls_pk_init(&pk);
	r = mbedtls_pk_setup(&pk, mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY)) ||
	    mbedtls_ecp_gen_key(MBEDTLS_ECP_DP_SECP256R1, mbedtls_pk_ec(pk), random_cb, NULL) ||
	    mbedtls_pk_write_key_pem(&pk, key, sizeof(key)) ||
	    mbedtls_pk_write_pubkey_pem(&pk, pub, sizeof(pub));
	mbedtls_pk_free(&pk);
	if (r) {
		fprintf(stderr, "p256_keygen: mbedtls failed\n");
		return 1;
	}
	r = write_file(argv[1], key, 0600) || write_file(argv[2], pub, 0644);
	mbedtls_platform_zeroize(key, sizeof(key));
	return r ? 1 : 0;
}
