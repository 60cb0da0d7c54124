/* SPDX-License-Identifier: Apache-2.0 */
/* The RTM's hash chain (chain.h). */
#include "chain.h"

#include <mbedtls/sha256.h>

static int sha256_two(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len,
		      uint8_t out[ARA_RTM_HASH_BYTES])
{
	mbedtls_sha256_context c;
	int r;

	mbedtls_sha256_init(&c);
	r = mbedtls_sha256_starts(&c, 0) || mbedtls_sha256_update(&c, a, a_len) ||
	    mbedtls_sha256_update(&c, b, b_len) || mbedtls_sha256_finish(&c, out);
	mbedtls_sha256_free(&c);
	return r ? -1 : 0;
}

int ara_rtm_chain_start(const uint8_t run_id[ARA_RTM_HASH_BYTES], uint8_t h[ARA_RTM_HASH_BYTES])
{
	return sha256_two((const uint8_t *)ARA_RTM_CHAIN_LABEL, ARA_RTM_CHAIN_LABEL_BYTES, run_id,
			  ARA_RTM_HASH_BYTES, h);
}

int ara_rtm_chain_step(uint8_t h[ARA_RTM_HASH_BYTES], const uint8_t *segment)
{
	uint8_t prev[ARA_RTM_HASH_BYTES];

	for (unsigned i = 0; i < ARA_RTM_HASH_BYTES; i++)
		prev[i] = h[i];
	return sha256_two(prev, sizeof(prev), segment, ARA_RTM_SEGMENT_BYTES, h);
}
