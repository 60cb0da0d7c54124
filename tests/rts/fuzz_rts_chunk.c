/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the RTS sealed chunk format (services/rts/chunk_format.c),
 * what DOM0 does with App bytes: the first 36 bytes as a stream header, the
 * rest as chunk 0 (and as a last chunk) under a fixed key (the seed is a
 * genuine chunk under it, so mutations reach the tag check). For any bytes:
 * no read outside them; a header decodes only with a chunk size in range;
 * a chunk that opens is exactly the sealing of what it opened to (nothing
 * malleable gets through); one that does not open leaves nothing in the
 * output.
 */
#include <stdlib.h>
#include <string.h>

#include "chunk_format.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t key[16] = { 0x42 };
	static uint8_t out[ARA_RTS_CHUNK_MAX], again[ARA_RTS_CHUNK_MAX + ARA_RTS_TAG_BYTES];
	static mbedtls_gcm_context gcm;
	static int ready;
	struct ara_rts_header h;
	uint8_t *copy = malloc(size ? size : 1);

	FUZZ_CHECK(copy);
	memcpy(copy, data, size);
	if (!ready) {
		mbedtls_gcm_init(&gcm);
		FUZZ_CHECK(mbedtls_gcm_setkey(&gcm, MBEDTLS_CIPHER_ID_AES, key, 128) == 0);
		ready = 1;
	}
	if (size >= ARA_RTS_HEADER_BYTES &&
	    ara_rts_header_decode(copy, ARA_RTS_HEADER_BYTES, &h) == 0) {
		const uint8_t *chunk = copy + ARA_RTS_HEADER_BYTES;
		size_t len = size - ARA_RTS_HEADER_BYTES;

		FUZZ_CHECK(h.chunk_size >= 1 && h.chunk_size <= ARA_RTS_CHUNK_MAX);
		for (int final = 0; final <= 1; final++) {
			memset(out, 0, sizeof(out));
			if (ara_rts_open(&gcm, &h, 0, final, chunk, len, out) == 0) {
				size_t n = len - ARA_RTS_TAG_BYTES;

				FUZZ_CHECK(ara_rts_seal(&gcm, &h, 0, final, out, n, again) == 0);
				FUZZ_CHECK(memcmp(again, chunk, len) == 0);
				continue;
			}
			for (size_t i = 0; i < sizeof(out); i++)
				FUZZ_CHECK(out[i] == 0);
		}
	}
	free(copy);
	return 0;
}
