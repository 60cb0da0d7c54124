/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The P-256 primitives on raw keys (p256.h), on OpenSSL's libcrypto 3: for
 * the provisioning service and its load generator, where P-256 is most of
 * a session's cost (docs/performance.md). ECDH and sk * G with
 * EC_POINT_mul, as OpenSSL's own ECDH does; the curve's group is made once.
 *
 * ECDSA with the EC_KEY functions, which OpenSSL 3 deprecates in favour of
 * EVP_PKEY: an EVP_PKEY made from a raw key builds the curve's group anew
 * each time (EVP_PKEY_fromdata, about 25 us), which costs about as much as
 * a signature; on the project's 2-core VM a verification took 159 us
 * through EVP and 107 us here, a signature 92 and 40 us. OpenSSL 3.x keeps
 * EC_KEY; the nonce comes from OpenSSL's DRBG, mixed with the key
 * (BN_generate_dsa_nonce).
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>

#include <pthread.h>
#include <string.h>

#include "p256.h"

static EC_GROUP *curve;
static pthread_once_t curve_once = PTHREAD_ONCE_INIT;

static void make_curve(void)
{
	curve = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
}

/* The group, or NULL if OpenSSL could not make it. */
static const EC_GROUP *group(void)
{
	pthread_once(&curve_once, make_curve);
	return curve;
}

/* p = pk if it is an uncompressed point of the curve (oct2point checks that). */
static int read_point(const EC_GROUP *g, EC_POINT *p, const uint8_t pk[ARA_P256_PK])
{
	if (pk[0] != 0x04 || !EC_POINT_oct2point(g, p, pk, ARA_P256_PK, NULL) ||
	    EC_POINT_is_at_infinity(g, p))
		return ARA_P256_E_INPUT;
	return 0;
}

int ara_p256_check_public(const uint8_t pk[ARA_P256_PK])
{
	const EC_GROUP *g = group();
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	int r = p ? read_point(g, p, pk) : ARA_P256_E_CRYPTO;

	EC_POINT_free(p);
	return r ? -1 : 0;
}

/* The scalar sk (constant-time flagged), or NULL with *r set. */
static BIGNUM *read_scalar(const EC_GROUP *g, const uint8_t sk[ARA_P256_SK], int *r)
{
	BIGNUM *d = BN_secure_new();

	*r = ARA_P256_E_CRYPTO;
	if (!d || !BN_bin2bn(sk, ARA_P256_SK, d)) {
		BN_clear_free(d);
		return NULL;
	}
	BN_set_flags(d, BN_FLG_CONSTTIME);
	if (BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(g)) >= 0) {
		*r = ARA_P256_E_INPUT;
		BN_clear_free(d);
		return NULL;
	}
	*r = 0;
	return d;
}

int ara_p256_check_secret(const uint8_t sk[ARA_P256_SK])
{
	const EC_GROUP *g = group();
	int r = ARA_P256_E_CRYPTO;

	if (g)
		BN_clear_free(read_scalar(g, sk, &r));
	return r;
}

/* out = sk * p (p NULL: the generator), uncompressed. */
static int multiply(const uint8_t sk[ARA_P256_SK], const uint8_t peer[ARA_P256_PK],
		    uint8_t out[ARA_P256_PK])
{
	const EC_GROUP *g = group();
	EC_POINT *p = NULL, *z = NULL;
	BN_CTX *bn = NULL;
	BIGNUM *d = NULL;
	int r = ARA_P256_E_CRYPTO;

	if (!g)
		return r;
	d = read_scalar(g, sk, &r);
	if (d && peer) {
		p = EC_POINT_new(g);
		r = p ? read_point(g, p, peer) : ARA_P256_E_CRYPTO;
	}
	if (r == 0) {
		z = EC_POINT_new(g);
		bn = BN_CTX_secure_new();
		/* z = d * G, or d * p */
		if (!z || !bn || !EC_POINT_mul(g, z, p ? NULL : d, p, p ? d : NULL, bn) ||
		    EC_POINT_point2oct(g, z, POINT_CONVERSION_UNCOMPRESSED, out, ARA_P256_PK, bn) !=
			    ARA_P256_PK)
			r = ARA_P256_E_CRYPTO;
	}
	BN_CTX_free(bn);
	EC_POINT_clear_free(z);
	EC_POINT_free(p);
	BN_clear_free(d);
	return r;
}

int ara_p256_public(const uint8_t sk[ARA_P256_SK], uint8_t pk[ARA_P256_PK])
{
	return multiply(sk, NULL, pk);
}

int ara_p256_ecdh(const uint8_t sk[ARA_P256_SK], const uint8_t peer[ARA_P256_PK], uint8_t x[32])
{
	uint8_t point[ARA_P256_PK];
	int r = multiply(sk, peer, point);

	if (r == 0)
		memcpy(x, point + 1, 32);
	OPENSSL_cleanse(point, sizeof(point));
	return r;
}

/* An EC key of the curve, with d or p set. */
static EC_KEY *ec_key(const EC_GROUP *g, const BIGNUM *d, const EC_POINT *p)
{
	EC_KEY *k = EC_KEY_new();

	if (!k || !EC_KEY_set_group(k, g) || (d && !EC_KEY_set_private_key(k, d)) ||
	    (p && !EC_KEY_set_public_key(k, p))) {
		EC_KEY_free(k);
		return NULL;
	}
	return k;
}

int ara_p256_sign(const uint8_t sk[ARA_P256_SK], const uint8_t hash[32], uint8_t sig[ARA_P256_SIG])
{
	const EC_GROUP *g = group();
	BIGNUM *d = NULL;
	EC_KEY *k = NULL;
	ECDSA_SIG *s = NULL;
	int r = -1;

	if (g && (d = read_scalar(g, sk, &r)) && (k = ec_key(g, d, NULL)) &&
	    (s = ECDSA_do_sign(hash, 32, k)) &&
	    BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) == 32 &&
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) == 32)
		r = 0;
	else
		r = -1;
	ECDSA_SIG_free(s);
	EC_KEY_free(k); /* clears the scalar */
	BN_clear_free(d);
	if (r)
		memset(sig, 0, ARA_P256_SIG);
	return r;
}

int ara_p256_verify(const uint8_t pk[ARA_P256_PK], const uint8_t hash[32],
		    const uint8_t sig[ARA_P256_SIG])
{
	const EC_GROUP *g = group();
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *br = BN_bin2bn(sig, 32, NULL), *bs = BN_bin2bn(sig + 32, 32, NULL);
	EC_KEY *k = NULL;
	int r = -1;

	if (!s || !br || !bs || !ECDSA_SIG_set0(s, br, bs)) {
		BN_free(br);
		BN_free(bs);
	} else if (p && read_point(g, p, pk) == 0 && (k = ec_key(g, NULL, p)) &&
		   ECDSA_do_verify(hash, 32, s, k) == 1) {
		r = 0;
	}
	EC_KEY_free(k);
	ECDSA_SIG_free(s); /* and br, bs once set */
	EC_POINT_free(p);
	return r;
}

const char *ara_p256_backend(void)
{
	return "openssl";
}
