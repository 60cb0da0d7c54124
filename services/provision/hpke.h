/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPKE (RFC 9180), base mode, one suite: DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-128-GCM (kem 0x0010, kdf 0x0001, aead 0x0001). The
 * provisioner seals secrets with it to a session key share generated in
 * DOM0, which opens them. Built on mbedtls and p256.h, with no libc call of
 * its own, so that DOM0 can link the same code as the host tools.
 *
 * Every function returns 0 or a negative ARA_HPKE_E_* value; on failure
 * its outputs hold nothing usable (and nothing secret).
 */
#ifndef ARA_SERVICES_HPKE_H
#define ARA_SERVICES_HPKE_H

#include <stddef.h>
#include <stdint.h>

#define ARA_HPKE_NSK 32	    /* private key: a P-256 scalar */
#define ARA_HPKE_NPK 65	    /* public key and enc: uncompressed SEC1 point */
#define ARA_HPKE_NSECRET 32 /* KEM shared secret; also Nh of HKDF-SHA256 */
#define ARA_HPKE_NK 16	    /* AES-128-GCM key */
#define ARA_HPKE_NN 12	    /* its nonce */
#define ARA_HPKE_NT 16	    /* its tag: a ciphertext is the plaintext's length plus NT */

enum {
	ARA_HPKE_E_INPUT = -1,	  /* a length, or a key or point that is not valid */
	ARA_HPKE_E_CRYPTO = -2,	  /* an mbedtls primitive failed */
	ARA_HPKE_E_OPEN = -3,	  /* the ciphertext, its tag or the aad did not verify */
	ARA_HPKE_E_SEQUENCE = -4, /* the context has sealed or opened all it may */
	ARA_HPKE_E_DERIVE = -5,	  /* DeriveKeyPair found no key in 256 candidates */
};

/* An encryption context (RFC 9180 5.1): one direction, messages in order. */
struct ara_hpke_ctx {
	uint8_t key[ARA_HPKE_NK];
	uint8_t base_nonce[ARA_HPKE_NN];
	uint8_t exporter_secret[ARA_HPKE_NSECRET];
	uint64_t seq;
};

/* DeriveKeyPair (RFC 9180 7.1.3): the key pair of input keying material ikm. */
int ara_hpke_derive_keypair(const uint8_t *ikm, size_t ikm_len, uint8_t sk[ARA_HPKE_NSK],
			    uint8_t pk[ARA_HPKE_NPK]);

/*
 * SetupBaseS with the ephemeral key skE (from ara_hpke_derive_keypair over
 * fresh random bytes; fixed only in tests): enc for the receiver, and ctx.
 */
int ara_hpke_setup_base_s(const uint8_t pk_r[ARA_HPKE_NPK], const uint8_t sk_e[ARA_HPKE_NSK],
			  const uint8_t *info, size_t info_len, uint8_t enc[ARA_HPKE_NPK],
			  struct ara_hpke_ctx *ctx);

/* SetupBaseR: the receiver's context from enc and its key pair. */
int ara_hpke_setup_base_r(const uint8_t enc[ARA_HPKE_NPK], const uint8_t sk_r[ARA_HPKE_NSK],
			  const uint8_t *info, size_t info_len, struct ara_hpke_ctx *ctx);

/* ct (pt_len + ARA_HPKE_NT bytes) = Seal(aad, pt); the context's next message. */
int ara_hpke_seal(struct ara_hpke_ctx *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *pt,
		  size_t pt_len, uint8_t *ct);

/* pt (ct_len - ARA_HPKE_NT bytes) = Open(aad, ct); zeroes if it does not verify. */
int ara_hpke_open(struct ara_hpke_ctx *ctx, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
		  size_t ct_len, uint8_t *pt);

/* Export (RFC 9180 5.3): len bytes of secret bound to exporter_context. */
int ara_hpke_export(const struct ara_hpke_ctx *ctx, const uint8_t *exporter_context,
		    size_t context_len, uint8_t *out, size_t len);

/* Wipes the context's keys. */
void ara_hpke_ctx_wipe(struct ara_hpke_ctx *ctx);

#endif
