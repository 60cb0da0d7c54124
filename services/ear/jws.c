/* SPDX-License-Identifier: Apache-2.0 */
/* ES256 compact JWS (jws.h). */
#include "jws.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/base64.h>
#include <mbedtls/sha256.h>

#include "p256.h"

static const char header[] = "{\"alg\":\"ES256\",\"typ\":\"JWT\"}";

/* Characters of base64url without padding for len bytes. */
static size_t b64url_len(size_t len)
{
	return len / 3 * 4 + (len % 3 ? len % 3 + 1 : 0);
}

int ara_b64url(const uint8_t *in, size_t len, char *out, size_t cap)
{
	size_t n;

	/* mbedtls writes the padded form and its NUL: room for both. */
	if (len > (SIZE_MAX - 1) / 4 || cap < (len + 2) / 3 * 4 + 1 ||
	    mbedtls_base64_encode((unsigned char *)out, cap, &n, in, len))
		return -1;
	n = b64url_len(len);
	out[n] = '\0';
	for (char *p = out; *p; p++)
		*p = *p == '+' ? '-' : *p == '/' ? '_' : *p;
	return 0;
}

char *ara_jws_es256(const char *payload, size_t len, const uint8_t sk[32])
{
	size_t hl = b64url_len(sizeof(header) - 1), pl = b64url_len(len),
	       cap = hl + 1 + pl + 1 + b64url_len(ARA_P256_SIG) + 8;
	uint8_t hash[32], sig[ARA_P256_SIG];
	char *out = malloc(cap);
	size_t at;

	if (!out)
		return NULL;
	if (ara_b64url((const uint8_t *)header, sizeof(header) - 1, out, cap))
		goto fail;
	at = hl;
	out[at++] = '.';
	if (ara_b64url((const uint8_t *)payload, len, out + at, cap - at))
		goto fail;
	at += pl;
	/* The signing input is the ASCII "header.payload" (RFC 7515, 5.1). */
	if (mbedtls_sha256((const uint8_t *)out, at, hash, 0) || ara_p256_sign(sk, hash, sig))
		goto fail;
	out[at++] = '.';
	if (ara_b64url(sig, sizeof(sig), out + at, cap - at))
		goto fail;
	return out;
fail:
	free(out);
	return NULL;
}
