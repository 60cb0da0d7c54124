/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JWS compact serialisation (RFC 7515) with ES256 (RFC 7518, 3.4): the
 * header {"alg":"ES256","typ":"JWT"}, the payload as given, each
 * base64url-encoded without padding, and the ECDSA P-256 signature over
 * "header.payload" as JOSE wants it: r || s, 32 bytes each, not DER.
 */
#ifndef ARA_EAR_JWS_H
#define ARA_EAR_JWS_H

#include <stddef.h>
#include <stdint.h>

/* base64url of in (no padding) into out[cap], NUL-terminated: 0, or -1 if it does not fit. */
int ara_b64url(const uint8_t *in, size_t len, char *out, size_t cap);

/*
 * The compact JWS of payload signed with the P-256 scalar sk: a malloc'd
 * NUL-terminated string, or NULL (out of memory, or a bad scalar).
 */
char *ara_jws_es256(const char *payload, size_t len, const uint8_t sk[32]);

#endif
