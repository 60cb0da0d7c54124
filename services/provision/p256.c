/* SPDX-License-Identifier: Apache-2.0 */
/* ECDSA P-256 / SHA-256 on raw keys (p256.h). */
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
