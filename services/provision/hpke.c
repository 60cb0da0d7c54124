/* SPDX-License-Identifier: Apache-2.0 */
/* HPKE base mode for DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM (hpke.h). */
#include "hpke.h"
#include "p256.h"

#include <mbedtls/gcm.h>
#include <mbedtls/hkdf.h>
#include <mbedtls/md.h>
#include <mbedtls/platform_util.h>

#include <string.h>

#define LABEL_MAX 16u
#define INPUT_MAX 512u /* ikm, info or context given to a labeled step */
#define BUF_MAX (2 + 7 + 10 + LABEL_MAX + INPUT_MAX)

/* HPKE's error for a P-256 primitive's (p256.h). */
static int p256_error(int r)
{
	if (r == ARA_P256_E_INPUT)
		return ARA_HPKE_E_INPUT;
	return r ? ARA_HPKE_E_CRYPTO : 0;
}

static const uint8_t kem_suite[] = { 'K', 'E', 'M', 0x00, 0x10 };
static const uint8_t hpke_suite[] = { 'H', 'P', 'K', 'E', 0x00, 0x10, 0x00, 0x01, 0x00, 0x01 };

struct suite {
	const uint8_t *id;
	size_t len;
};
static const struct suite KEM = { kem_suite, sizeof(kem_suite) };
static const struct suite HPKE = { hpke_suite, sizeof(hpke_suite) };

/* "HPKE-v1" || suite_id || label || data, after an optional two-byte length. */
static size_t labeled(uint8_t buf[BUF_MAX], int with_len, size_t len, struct suite s,
		      const char *label, const uint8_t *data, size_t data_len)
{
	size_t n = 0, label_len = strlen(label);

	if (with_len) {
		buf[n++] = (uint8_t)(len >> 8);
		buf[n++] = (uint8_t)len;
	}
	memcpy(buf + n, "HPKE-v1", 7);
	n += 7;
	memcpy(buf + n, s.id, s.len);
	n += s.len;
	memcpy(buf + n, label, label_len);
	n += label_len;
	if (data_len)
		memcpy(buf + n, data, data_len);
	return n + data_len;
}

static int labeled_extract(struct suite s, const uint8_t *salt, size_t salt_len, const char *label,
			   const uint8_t *ikm, size_t ikm_len, uint8_t prk[ARA_HPKE_NSECRET])
{
	uint8_t buf[BUF_MAX];
	size_t n;
	int r;

	if (ikm_len > INPUT_MAX || strlen(label) > LABEL_MAX)
		return ARA_HPKE_E_INPUT;
	n = labeled(buf, 0, 0, s, label, ikm, ikm_len);
	r = mbedtls_hkdf_extract(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), salt, salt_len, buf, n,
				 prk);
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return r ? ARA_HPKE_E_CRYPTO : 0;
}

static int labeled_expand(struct suite s, const uint8_t prk[ARA_HPKE_NSECRET], const char *label,
			  const uint8_t *info, size_t info_len, uint8_t *out, size_t len)
{
	uint8_t buf[BUF_MAX];
	size_t n;
	int r;

	if (info_len > INPUT_MAX || strlen(label) > LABEL_MAX || len > 255 * ARA_HPKE_NSECRET)
		return ARA_HPKE_E_INPUT;
	n = labeled(buf, 1, len, s, label, info, info_len);
	r = mbedtls_hkdf_expand(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), prk, ARA_HPKE_NSECRET,
				buf, n, out, len);
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return r ? ARA_HPKE_E_CRYPTO : 0;
}

/* dh = x(sk * peer); own_pk = sk * G if asked for. */
static int dh(const uint8_t sk[ARA_HPKE_NSK], const uint8_t peer[ARA_HPKE_NPK],
	      uint8_t out[ARA_HPKE_NSECRET], uint8_t own_pk[ARA_HPKE_NPK])
{
	int r = ara_p256_ecdh(sk, peer, out);

	if (r == 0 && own_pk)
		r = ara_p256_public(sk, own_pk);
	return p256_error(r);
}

int ara_hpke_derive_keypair(const uint8_t *ikm, size_t ikm_len, uint8_t sk[ARA_HPKE_NSK],
			    uint8_t pk[ARA_HPKE_NPK])
{
	uint8_t prk[ARA_HPKE_NSECRET];
	int r = labeled_extract(KEM, NULL, 0, "dkp_prk", ikm, ikm_len, prk);

	for (unsigned int counter = 0; r == 0; counter++) {
		const uint8_t ctr = (uint8_t)counter;

		if (counter > 255) {
			r = ARA_HPKE_E_DERIVE;
			break;
		}
		/* P-256's bitmask is 0xff: the candidate is used as it is. */
		r = labeled_expand(KEM, prk, "candidate", &ctr, 1, sk, ARA_HPKE_NSK);
		if (r == 0) {
			r = p256_error(ara_p256_check_secret(sk));
			if (r == 0)
				break;
			if (r == ARA_HPKE_E_INPUT)
				r = 0; /* zero or not below n: the next candidate */
		}
	}
	if (r == 0)
		r = p256_error(ara_p256_public(sk, pk));
	mbedtls_platform_zeroize(prk, sizeof(prk));
	if (r != 0)
		mbedtls_platform_zeroize(sk, ARA_HPKE_NSK);
	return r;
}

/* ExtractAndExpand(dh, enc || pkR) (RFC 9180 4.1). */
static int kem_secret(const uint8_t dh_out[ARA_HPKE_NSECRET], const uint8_t enc[ARA_HPKE_NPK],
		      const uint8_t pk_r[ARA_HPKE_NPK], uint8_t shared[ARA_HPKE_NSECRET])
{
	uint8_t kem_context[2 * ARA_HPKE_NPK], prk[ARA_HPKE_NSECRET];
	int r;

	memcpy(kem_context, enc, ARA_HPKE_NPK);
	memcpy(kem_context + ARA_HPKE_NPK, pk_r, ARA_HPKE_NPK);
	r = labeled_extract(KEM, NULL, 0, "eae_prk", dh_out, ARA_HPKE_NSECRET, prk);
	if (r == 0)
		r = labeled_expand(KEM, prk, "shared_secret", kem_context, sizeof(kem_context),
				   shared, ARA_HPKE_NSECRET);
	mbedtls_platform_zeroize(prk, sizeof(prk));
	return r;
}

/* KeySchedule for mode_base (RFC 9180 5.1): no PSK. */
static int key_schedule(const uint8_t shared[ARA_HPKE_NSECRET], const uint8_t *info,
			size_t info_len, struct ara_hpke_ctx *ctx)
{
	uint8_t context[1 + 2 * ARA_HPKE_NSECRET], secret[ARA_HPKE_NSECRET];
	int r;

	context[0] = 0; /* mode_base */
	r = labeled_extract(HPKE, NULL, 0, "psk_id_hash", NULL, 0, context + 1);
	if (r == 0)
		r = labeled_extract(HPKE, NULL, 0, "info_hash", info, info_len,
				    context + 1 + ARA_HPKE_NSECRET);
	if (r == 0)
		r = labeled_extract(HPKE, shared, ARA_HPKE_NSECRET, "secret", NULL, 0, secret);
	if (r == 0)
		r = labeled_expand(HPKE, secret, "key", context, sizeof(context), ctx->key,
				   ARA_HPKE_NK);
	if (r == 0)
		r = labeled_expand(HPKE, secret, "base_nonce", context, sizeof(context),
				   ctx->base_nonce, ARA_HPKE_NN);
	if (r == 0)
		r = labeled_expand(HPKE, secret, "exp", context, sizeof(context),
				   ctx->exporter_secret, ARA_HPKE_NSECRET);
	ctx->seq = 0;
	mbedtls_platform_zeroize(secret, sizeof(secret));
	if (r != 0)
		ara_hpke_ctx_wipe(ctx);
	return r;
}

/* SetupBaseS/R once the DH value is known: the KEM's shared secret, the key schedule. */
static int setup(int r, uint8_t dh_out[ARA_HPKE_NSECRET], const uint8_t enc[ARA_HPKE_NPK],
		 const uint8_t pk_r[ARA_HPKE_NPK], const uint8_t *info, size_t info_len,
		 struct ara_hpke_ctx *ctx)
{
	uint8_t shared[ARA_HPKE_NSECRET];

	if (r == 0)
		r = kem_secret(dh_out, enc, pk_r, shared);
	if (r == 0)
		r = key_schedule(shared, info, info_len, ctx);
	mbedtls_platform_zeroize(dh_out, ARA_HPKE_NSECRET);
	mbedtls_platform_zeroize(shared, sizeof(shared));
	return r;
}

int ara_hpke_setup_base_s(const uint8_t pk_r[ARA_HPKE_NPK], const uint8_t sk_e[ARA_HPKE_NSK],
			  const uint8_t *info, size_t info_len, uint8_t enc[ARA_HPKE_NPK],
			  struct ara_hpke_ctx *ctx)
{
	uint8_t dh_out[ARA_HPKE_NSECRET];

	return setup(dh(sk_e, pk_r, dh_out, enc), dh_out, enc, pk_r, info, info_len, ctx);
}

int ara_hpke_setup_base_r(const uint8_t enc[ARA_HPKE_NPK], const uint8_t sk_r[ARA_HPKE_NSK],
			  const uint8_t *info, size_t info_len, struct ara_hpke_ctx *ctx)
{
	uint8_t dh_out[ARA_HPKE_NSECRET], pk_r[ARA_HPKE_NPK];

	return setup(dh(sk_r, enc, dh_out, pk_r), dh_out, enc, pk_r, info, info_len, ctx);
}

/* base_nonce XOR I2OSP(seq, Nn) (RFC 9180 5.2). */
static void nonce(const struct ara_hpke_ctx *ctx, uint8_t out[ARA_HPKE_NN])
{
	memcpy(out, ctx->base_nonce, ARA_HPKE_NN);
	for (unsigned int i = 0; i < 8; i++)
		out[ARA_HPKE_NN - 1 - i] ^= (uint8_t)(ctx->seq >> (8 * i));
}

static int aead(struct ara_hpke_ctx *ctx, int encrypt, const uint8_t *aad, size_t aad_len,
		const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[ARA_HPKE_NT])
{
	mbedtls_gcm_context gcm;
	uint8_t n[ARA_HPKE_NN];
	int r;

	if (ctx->seq == UINT64_MAX)
		return ARA_HPKE_E_SEQUENCE;
	nonce(ctx, n);
	mbedtls_gcm_init(&gcm);
	r = mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, ctx->key, 8 * ARA_HPKE_NK);
	if (r != 0)
		r = ARA_HPKE_E_CRYPTO;
	else if (encrypt)
		r = mbedtls_gcm_crypt_and_tag(&gcm, MBEDTLS_GCM_ENCRYPT, len, n, sizeof(n), aad,
					      aad_len, in, out, ARA_HPKE_NT, tag) ? ARA_HPKE_E_CRYPTO : 0;
	else /* mbedtls zeroes out when the tag does not verify */
		r = mbedtls_gcm_auth_decrypt(&gcm, len, n, sizeof(n), aad, aad_len, tag, ARA_HPKE_NT,
					     in, out) ? ARA_HPKE_E_OPEN : 0;
	mbedtls_gcm_free(&gcm);
	if (r == 0)
		ctx->seq++;
	return r;
}

int ara_hpke_seal(struct ara_hpke_ctx *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *pt,
		  size_t pt_len, uint8_t *ct)
{
	if (pt_len > SIZE_MAX - ARA_HPKE_NT)
		return ARA_HPKE_E_INPUT;
	return aead(ctx, 1, aad, aad_len, pt, pt_len, ct, ct + pt_len);
}

int ara_hpke_open(struct ara_hpke_ctx *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
		  size_t ct_len, uint8_t *pt)
{
	uint8_t tag[ARA_HPKE_NT];

	if (ct_len < ARA_HPKE_NT)
		return ARA_HPKE_E_INPUT;
	memcpy(tag, ct + ct_len - ARA_HPKE_NT, ARA_HPKE_NT);
	return aead(ctx, 0, aad, aad_len, ct, ct_len - ARA_HPKE_NT, pt, tag);
}

int ara_hpke_export(const struct ara_hpke_ctx *ctx, const uint8_t *exporter_context,
		    size_t context_len, uint8_t *out, size_t len)
{
	return labeled_expand(HPKE, ctx->exporter_secret, "sec", exporter_context, context_len, out,
			      len);
}

void ara_hpke_ctx_wipe(struct ara_hpke_ctx *ctx)
{
	mbedtls_platform_zeroize(ctx, sizeof(*ctx));
}
