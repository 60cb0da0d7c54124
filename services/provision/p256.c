/* SPDX-License-Identifier: Apache-2.0 */
/* The P-256 primitives on raw keys (p256.h), on mbedtls. */
#include <mbedtls/ecdsa.h>
#include <mbedtls/hmac_drbg.h>
#include <mbedtls/platform_util.h>
#include <string.h>

#include "p256.h"

static int load_group(mbedtls_ecp_group *grp)
{
	return mbedtls_ecp_group_load(grp, MBEDTLS_ECP_DP_SECP256R1);
}

static int load_point(const mbedtls_ecp_group *grp, mbedtls_ecp_point *q, const uint8_t pk[ARA_P256_PK])
{
	if (mbedtls_ecp_point_read_binary(grp, q, pk, ARA_P256_PK))
		return -1;
	return mbedtls_ecp_check_pubkey(grp, q) ? -1 : 0;
}

int ara_p256_check_public(const uint8_t pk[ARA_P256_PK])
{
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	int r;

	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	r = load_group(&grp) ? -1 : load_point(&grp, &q, pk);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return r;
}

int ara_p256_sign(const uint8_t sk[ARA_P256_SK], const uint8_t hash[32], uint8_t sig[ARA_P256_SIG])
{
	mbedtls_ecp_group grp;
	mbedtls_mpi d, r, s;
	mbedtls_hmac_drbg_context blind;
	uint8_t seed[ARA_P256_SK + 32];
	int ret = -1;

	mbedtls_ecp_group_init(&grp);
	mbedtls_mpi_init(&d);
	mbedtls_mpi_init(&r);
	mbedtls_mpi_init(&s);
	mbedtls_hmac_drbg_init(&blind);
	memcpy(seed, sk, ARA_P256_SK);
	memcpy(seed + ARA_P256_SK, hash, 32);
	if (load_group(&grp) || mbedtls_mpi_read_binary(&d, sk, ARA_P256_SK) ||
	    mbedtls_ecp_check_privkey(&grp, &d) ||
	    mbedtls_hmac_drbg_seed_buf(&blind, mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), seed,
				       sizeof(seed)) ||
	    mbedtls_ecdsa_sign_det_ext(&grp, &r, &s, &d, hash, 32, MBEDTLS_MD_SHA256,
				       mbedtls_hmac_drbg_random, &blind) ||
	    mbedtls_mpi_write_binary(&r, sig, 32) || mbedtls_mpi_write_binary(&s, sig + 32, 32))
		goto out;
	ret = 0;
out:
	mbedtls_platform_zeroize(seed, sizeof(seed));
	mbedtls_hmac_drbg_free(&blind); /* mbedtls zeroizes what it frees */
	mbedtls_mpi_free(&s);
	mbedtls_mpi_free(&r);
	mbedtls_mpi_free(&d);
	mbedtls_ecp_group_free(&grp);
	if (ret)
		memset(sig, 0, ARA_P256_SIG);
	return ret;
}

int ara_p256_verify(const uint8_t pk[ARA_P256_PK], const uint8_t hash[32],
		    const uint8_t sig[ARA_P256_SIG])
{
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	mbedtls_mpi r, s;
	int ret = -1;

	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	mbedtls_mpi_init(&r);
	mbedtls_mpi_init(&s);
	if (!load_group(&grp) && !load_point(&grp, &q, pk) &&
	    !mbedtls_mpi_read_binary(&r, sig, 32) && !mbedtls_mpi_read_binary(&s, sig + 32, 32) &&
	    !mbedtls_ecdsa_verify(&grp, hash, 32, &q, &r, &s))
		ret = 0;
	mbedtls_mpi_free(&s);
	mbedtls_mpi_free(&r);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return ret;
}

/*
 * A scalar and the blinding of its multiplications: mbedtls randomises
 * them (against side channels) and wants a generator for that, here an
 * HMAC_DRBG seeded with the scalar, as mbedtls 2 did internally. The
 * blinding need not be unpredictable to the owner of the scalar, only
 * different for different scalars.
 */
struct scalar {
	mbedtls_ecp_group grp;
	mbedtls_mpi d;
	mbedtls_hmac_drbg_context blind;
};

static void scalar_free(struct scalar *c)
{
	mbedtls_hmac_drbg_free(&c->blind); /* mbedtls zeroizes what it frees */
	mbedtls_mpi_free(&c->d);
	mbedtls_ecp_group_free(&c->grp);
}

static int scalar_load(struct scalar *c, const uint8_t sk[ARA_P256_SK])
{
	mbedtls_ecp_group_init(&c->grp);
	mbedtls_mpi_init(&c->d);
	mbedtls_hmac_drbg_init(&c->blind);
	if (load_group(&c->grp) || mbedtls_mpi_read_binary(&c->d, sk, ARA_P256_SK))
		return ARA_P256_E_CRYPTO;
	if (mbedtls_ecp_check_privkey(&c->grp, &c->d))
		return ARA_P256_E_INPUT;
	if (mbedtls_hmac_drbg_seed_buf(&c->blind, mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), sk,
				       ARA_P256_SK))
		return ARA_P256_E_CRYPTO;
	return 0;
}

/* out = d * p, uncompressed. */
static int multiply(struct scalar *c, const mbedtls_ecp_point *p, uint8_t out[ARA_P256_PK])
{
	mbedtls_ecp_point z;
	size_t olen;
	int r = 0;

	mbedtls_ecp_point_init(&z);
	if (mbedtls_ecp_mul(&c->grp, &z, &c->d, p, mbedtls_hmac_drbg_random, &c->blind) ||
	    mbedtls_ecp_point_write_binary(&c->grp, &z, MBEDTLS_ECP_PF_UNCOMPRESSED, &olen, out,
					   ARA_P256_PK) ||
	    olen != ARA_P256_PK)
		r = ARA_P256_E_CRYPTO;
	mbedtls_ecp_point_free(&z);
	return r;
}

int ara_p256_check_secret(const uint8_t sk[ARA_P256_SK])
{
	struct scalar c;
	int r = scalar_load(&c, sk);

	scalar_free(&c);
	return r;
}

int ara_p256_public(const uint8_t sk[ARA_P256_SK], uint8_t pk[ARA_P256_PK])
{
	struct scalar c;
	int r = scalar_load(&c, sk);

	if (r == 0)
		r = multiply(&c, &c.grp.G, pk);
	scalar_free(&c);
	return r;
}

int ara_p256_ecdh(const uint8_t sk[ARA_P256_SK], const uint8_t peer[ARA_P256_PK], uint8_t x[32])
{
	struct scalar c;
	mbedtls_ecp_point q;
	uint8_t point[ARA_P256_PK];
	int r = scalar_load(&c, sk);

	mbedtls_ecp_point_init(&q);
	if (r == 0 && (peer[0] != 0x04 || load_point(&c.grp, &q, peer)))
		r = ARA_P256_E_INPUT;
	/* The shared point, uncompressed: 0x04, then x. */
	if (r == 0)
		r = multiply(&c, &q, point);
	if (r == 0)
		memcpy(x, point + 1, 32);
	mbedtls_platform_zeroize(point, sizeof(point));
	mbedtls_ecp_point_free(&q);
	scalar_free(&c);
	return r;
}

const char *ara_p256_backend(void)
{
	return "mbedtls";
}
