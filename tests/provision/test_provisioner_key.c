/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Provisioner authentication: the signature over a DELIVER (binding.c)
 * verifies only with the provisioner's key, for this session's transcript
 * and these DELIVER bytes, every one of them; and the key files
 * (p256_pem.c) are read as OpenSSL writes them, a private key only if
 * nobody else may read it. The keys are fresh pairs from p256_keygen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mbedtls/pem.h>
#include <mbedtls/pk.h>

#include "ara_cli.h"
#include "binding.h"
#include "p256_pem.h"

struct pair {
	char key[PATH_MAX], pub[PATH_MAX];
	uint8_t sk[ARA_P256_SK], pk[ARA_P256_PK];
};

static char dir[] = "/tmp/test_provisioner_key.XXXXXX";
static struct pair a, b;
static uint8_t info[ARA_HPKE_INFO_BYTES], msg[ARA_WIRE_HEADER + 200];
static size_t msg_len;

static void make_pair(struct pair *p, const char *name)
{
	char cmd[3 * PATH_MAX], why[512];

	snprintf(p->key, sizeof(p->key), "%s/%s.pem", dir, name);
	snprintf(p->pub, sizeof(p->pub), "%s/%s.pub.pem", dir, name);
	snprintf(cmd, sizeof(cmd), "'%s' '%s' '%s'", P256_KEYGEN, p->key, p->pub);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ara_p256_read_secret(p->key, p->sk, p->pk, why, sizeof(why)), 0);
}

/* A session's info (as both sides compute it) and a signed DELIVER in msg. */
static void make_deliver(const struct pair *p)
{
	static const uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE] = { 'A', 'R', 'A', 'P', 1, 1 };
	static const uint8_t attest[300] = { 'A', 'R', 'A', 'P', 1, 2, [299] = 9 };
	uint8_t enc[ARA_WIRE_POINT] = { 4, 7 }, ct[48] = { 5 };

	assert_int_equal(ara_provision_hpke_info(challenge, sizeof(challenge), attest,
						 sizeof(attest), info), 0);
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 1, msg, sizeof(msg), &msg_len),
			 ARA_WIRE_OK);
	assert_int_equal(ara_provision_sign_deliver(p->sk, info, msg, msg_len), 0);
}

static int verify(const uint8_t pk[ARA_P256_PK])
{
	struct ara_wire_deliver d;

	if (ara_wire_decode_deliver(msg, msg_len, &d) != ARA_WIRE_OK)
		return -2;
	return ara_provision_verify_deliver(pk, info, msg, &d);
}

/* mbedtls's blinding while it parses a private key. */
static int rng(void *unused, unsigned char *out, size_t n)
{
	(void)unused;
	return ara_random(out, n);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	make_pair(&a, "a");
	make_pair(&b, "b");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void verifies_with_the_signers_key_only(void **state)
{
	uint8_t pk[ARA_P256_PK];
	char why[512];

	(void)state;
	make_deliver(&a);
	assert_int_equal(verify(a.pk), 0);
	assert_int_equal(verify(b.pk), -1);
	/* The public key file holds the private key's point. */
	assert_int_equal(ara_p256_read_public(a.pub, pk, why, sizeof(why)), 0);
	assert_memory_equal(pk, a.pk, sizeof(pk));
}

/* Any byte of the DELIVER changed, the signature's included: refused. */
static void every_byte_is_covered(void **state)
{
	(void)state;
	make_deliver(&a);
	for (size_t i = 0; i < msg_len; i++) {
		msg[i] ^= 0x01;
		/* A changed header may no longer decode: refused all the same. */
		assert_int_not_equal(verify(a.pk), 0);
		msg[i] ^= 0x01;
	}
	assert_int_equal(verify(a.pk), 0);
}

/* Another session (another transcript): the same DELIVER is refused. */
static void bound_to_the_session(void **state)
{
	(void)state;
	make_deliver(&a);
	info[sizeof(info) - 1] ^= 0x80;
	assert_int_equal(verify(a.pk), -1);
	info[sizeof(info) - 1] ^= 0x80;
	/* The label is not what is bound: only the transcript's hash. */
	assert_int_equal(verify(a.pk), 0);
}

/* An unsigned DELIVER has nothing to verify: refused. */
static void unsigned_is_refused(void **state)
{
	uint8_t enc[ARA_WIRE_POINT] = { 4 }, ct[48] = { 5 };
	struct ara_wire_deliver d;

	(void)state;
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 0, msg, sizeof(msg), &msg_len),
			 ARA_WIRE_OK);
	assert_int_equal(ara_wire_decode_deliver(msg, msg_len, &d), ARA_WIRE_OK);
	assert_int_equal(ara_provision_verify_deliver(a.pk, info, msg, &d), -1);
}

/* Key files: a private key others may read, a missing file, a public key for a private one. */
static void key_files(void **state)
{
	uint8_t sk[ARA_P256_SK], pk[ARA_P256_PK];
	char why[512], missing[PATH_MAX + 16];

	(void)state;
	assert_int_equal(chmod(a.key, 0640), 0);
	assert_int_equal(ara_p256_read_secret(a.key, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_non_null(strstr(why, "chmod 600"));
	assert_int_equal(chmod(a.key, 0600), 0);
	snprintf(missing, sizeof(missing), "%s/none.pem", dir);
	assert_int_equal(ara_p256_read_secret(missing, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_IO);
	assert_non_null(strstr(why, "No such file"));
	assert_int_equal(ara_p256_read_public(missing, pk, why, sizeof(why)), ARA_P256_PEM_E_IO);
	assert_int_equal(ara_p256_read_secret(a.pub, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_int_equal(ara_p256_read_public(a.key, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_non_null(strstr(why, a.key));
}

/* bytes as the file at path, mode 0600. */
static void write_key(const char *path, const void *bytes, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0600), 0);
}

/* a's key as SEC1 DER (the point last), in der; its length. */
static size_t a_as_der(uint8_t *der, size_t cap)
{
	uint8_t pem[ARA_P256_PEM_MAX + 1];
	mbedtls_pk_context pk;
	FILE *f = fopen(a.key, "r");
	size_t len;
	int n;

	assert_non_null(f);
	len = fread(pem, 1, ARA_P256_PEM_MAX, f);
	assert_int_equal(fclose(f), 0);
	pem[len] = '\0';
	mbedtls_pk_init(&pk);
	assert_int_equal(mbedtls_pk_parse_key(&pk, pem, len + 1, NULL, 0, rng, NULL), 0);
	n = mbedtls_pk_write_key_der(&pk, der, cap); /* at the end of der */
	mbedtls_pk_free(&pk);
	assert_true(n > ARA_P256_PK);
	memmove(der, der + cap - (size_t)n, (size_t)n);
	assert_memory_equal(der + n - ARA_P256_PK, a.pk, ARA_P256_PK);
	return (size_t)n;
}

/*
 * Only PEM, whole: DER (what ear_key.c took before it shared this reader) and
 * a PEM with a NUL inside are refused; and a SEC1 key whose public point is
 * another key's, which mbedtls alone accepts.
 */
static void key_files_are_pem_whole_and_one_key(void **state)
{
	uint8_t der[512], pem[1024], sk[ARA_P256_SK], pk[ARA_P256_PK];
	char path[PATH_MAX + 16], why[512];
	size_t der_len = a_as_der(der, sizeof(der)), pem_len;
	mbedtls_pk_context ctx;

	(void)state;
	snprintf(path, sizeof(path), "%s/a.der", dir);
	write_key(path, der, der_len);
	assert_int_equal(ara_p256_read_secret(path, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_non_null(strstr(why, "not PEM"));

	/* a's PEM, a NUL, then more: mbedtls would stop at the NUL */
	snprintf(path, sizeof(path), "%s/a-nul.pem", dir);
	memset(pem, 'x', sizeof(pem));
	assert_int_equal(mbedtls_pem_write_buffer("-----BEGIN EC PRIVATE KEY-----\n",
						  "-----END EC PRIVATE KEY-----\n", der, der_len,
						  pem, sizeof(pem), &pem_len),
			 0); /* pem_len counts the NUL */
	write_key(path, pem, pem_len - 1);
	assert_int_equal(ara_p256_read_secret(path, sk, pk, why, sizeof(why)), 0); /* the control */
	assert_memory_equal(pk, a.pk, ARA_P256_PK);
	write_key(path, pem, pem_len + 8);
	assert_int_equal(ara_p256_read_secret(path, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_non_null(strstr(why, "NUL"));

	/* a's scalar with b's point */
	memcpy(der + der_len - ARA_P256_PK, b.pk, ARA_P256_PK);
	assert_int_equal(mbedtls_pem_write_buffer("-----BEGIN EC PRIVATE KEY-----\n",
						  "-----END EC PRIVATE KEY-----\n", der, der_len,
						  pem, sizeof(pem), &pem_len),
			 0);
	mbedtls_pk_init(&ctx);
	assert_int_equal(mbedtls_pk_parse_key(&ctx, pem, pem_len, NULL, 0, rng, NULL), 0);
	mbedtls_pk_free(&ctx);
	snprintf(path, sizeof(path), "%s/a-with-b.pem", dir);
	write_key(path, pem, pem_len - 1);
	assert_int_equal(ara_p256_read_secret(path, sk, pk, why, sizeof(why)), ARA_P256_PEM_E_KEY);
	assert_non_null(strstr(why, "not its private scalar's"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verifies_with_the_signers_key_only),
		cmocka_unit_test(every_byte_is_covered),
		cmocka_unit_test(bound_to_the_session),
		cmocka_unit_test(unsigned_is_refused),
		cmocka_unit_test(key_files),
		cmocka_unit_test(key_files_are_pem_whole_and_one_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
