/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The P-256 primitives on raw keys (p256.h), on OpenSSL's libcrypto 3: for
 * the provisioning service and its load generator, where P-256 is most of
 * a session's cost (docs/performance.md). ECDSA through EVP, which signs
 * with a random nonce from OpenSSL's DRBG; ECDH and sk * G with EC_POINT_mul,
 * as OpenSSL's own ECDH does. The curve's group is made once.
 */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

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
		if (!z || !bn ||
		    !(peer ? EC_POINT_mul(g, z, NULL, p, d, bn) : EC_POINT_mul(g, z, d, NULL, NULL, bn)) ||
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

/* An EC key of P-256 from its public point or its scalar, or NULL. */
static EVP_PKEY *key(const uint8_t pk[ARA_P256_PK], const uint8_t sk[ARA_P256_SK])
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *k = NULL;
	BIGNUM *d = sk ? BN_secure_new() : NULL;

	if (!b || !OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, SN_X9_62_prime256v1, 0))
		goto out;
	if (pk && !OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pk, ARA_P256_PK))
		goto out;
	if (sk && (!d || !BN_bin2bn(sk, ARA_P256_SK, d) ||
		   !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, d)))
		goto out;
	params = OSSL_PARAM_BLD_to_param(b);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &k, sk ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
		k = NULL;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params); /* clears the copy of the scalar */
	OSSL_PARAM_BLD_free(b);
	BN_clear_free(d);
	return k;
}

int ara_p256_sign(const uint8_t sk[ARA_P256_SK], const uint8_t hash[32], uint8_t sig[ARA_P256_SIG])
{
	uint8_t der[80];
	const uint8_t *in = der;
	size_t der_len = sizeof(der);
	EVP_PKEY *k = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	ECDSA_SIG *s = NULL;
	int r = -1;

	if (ara_p256_check_secret(sk) || !(k = key(NULL, sk)))
		goto out;
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
	if (!ctx || EVP_PKEY_sign_init(ctx) <= 0 ||
	    EVP_PKEY_sign(ctx, der, &der_len, hash, 32) <= 0 ||
	    !(s = d2i_ECDSA_SIG(NULL, &in, (long)der_len)) ||
	    BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) != 32 ||
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) != 32)
		goto out;
	r = 0;
out:
	ECDSA_SIG_free(s);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(k);
	if (r)
		memset(sig, 0, ARA_P256_SIG);
	return r;
}

int ara_p256_verify(const uint8_t pk[ARA_P256_PK], const uint8_t hash[32],
		    const uint8_t sig[ARA_P256_SIG])
{
	uint8_t der[80], *p = der;
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *br = BN_bin2bn(sig, 32, NULL), *bs = BN_bin2bn(sig + 32, 32, NULL);
	EVP_PKEY *k = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	int der_len, r = -1;

	if (!s || !br || !bs || !ECDSA_SIG_set0(s, br, bs)) {
		BN_free(br);
		BN_free(bs);
		goto out;
	}
	/* s owns br and bs now */
	der_len = i2d_ECDSA_SIG(s, NULL);
	if (der_len <= 0 || der_len > (int)sizeof(der) || i2d_ECDSA_SIG(s, &p) != der_len ||
	    ara_p256_check_public(pk) || !(k = key(pk, NULL)))
		goto out;
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
	if (ctx && EVP_PKEY_verify_init(ctx) > 0 &&
	    EVP_PKEY_verify(ctx, der, (size_t)der_len, hash, 32) == 1)
		r = 0;
out:
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(k);
	ECDSA_SIG_free(s);
	return r;
}

const char *ara_p256_backend(void)
{
	return "openssl";
}
