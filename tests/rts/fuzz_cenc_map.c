/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the check of a 'cenc' subsample map and the decryption it
 * guards (services/rts/cenc_sample.c): what DOM0 does with the App's map,
 * sample length and IV length. Input: a flags byte (bit 0: the sample length
 * is the map's own sum, so that mutations reach decryption; bit 1: a 16-byte
 * IV), a 32-bit little-endian sample length, then map entries of 8 bytes
 * (clear, protected; little-endian). For any bytes: the check accepts
 * exactly the maps that add up to a length within bounds (computed here
 * independently); an accepted sample decrypts inside a buffer of exactly its
 * length (ASan sees any stray byte), leaves every clear byte as it was, and
 * decrypting again gives back the sample (CTR is its own inverse).
 */
#include <stdlib.h>
#include <string.h>

#include "ara/bytes.h"
#include "cenc_sample.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t key[16] = { 0x42 }, iv[16] = { 7, 6, 5, 4, 3, 2, 1 };
	static mbedtls_aes_context aes;
	static int ready;
	struct ara_cenc_subsample *map;
	uint32_t count, len, iv_len;
	uint64_t sum = 0;
	uint8_t *sample, *orig;
	int ok;

	if (size < 5)
		return 0;
	if (!ready) {
		mbedtls_aes_init(&aes);
		FUZZ_CHECK(mbedtls_aes_setkey_enc(&aes, key, 128) == 0);
		ready = 1;
	}
	count = (uint32_t)((size - 5) / 8);
	map = malloc(count ? count * sizeof(*map) : 1);
	FUZZ_CHECK(map);
	for (uint32_t i = 0; i < count; i++) {
		map[i].clear_bytes = ara_get_le32(data + 5 + 8 * i);
		map[i].protected_bytes = ara_get_le32(data + 9 + 8 * i);
		sum += (uint64_t)map[i].clear_bytes + map[i].protected_bytes;
	}
	len = ara_get_le32(data + 1);
	if ((data[0] & 1) && count && sum <= UINT32_MAX)
		len = (uint32_t)sum;
	iv_len = data[0] & 2 ? 16 : 8;
	ok = len >= 1 && len <= ARA_RTS_CENC_SAMPLE_MAX && count <= ARA_RTS_CENC_SUBSAMPLES_MAX &&
	     (count == 0 || sum == len);
	FUZZ_CHECK((ara_cenc_map_check(map, count, len) == 0) == ok);
	if (ok) {
		uint32_t at = 0;

		FUZZ_CHECK((sample = malloc(len)) && (orig = malloc(len)));
		for (uint32_t i = 0; i < len; i++)
			orig[i] = (uint8_t)(i * 31 + data[0]);
		memcpy(sample, orig, len);
		FUZZ_CHECK(ara_cenc_decrypt(&aes, iv, iv_len, map, count, sample, len) == 0);
		for (uint32_t i = 0; i < count; i++) {
			FUZZ_CHECK(memcmp(sample + at, orig + at, map[i].clear_bytes) == 0);
			at += map[i].clear_bytes + map[i].protected_bytes;
		}
		FUZZ_CHECK(ara_cenc_decrypt(&aes, iv, iv_len, map, count, sample, len) == 0);
		FUZZ_CHECK(memcmp(sample, orig, len) == 0);
		free(sample);
		free(orig);
	}
	free(map);
	return 0;
}
