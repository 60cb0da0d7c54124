/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One 'cenc' sample: its subsample map's check and its decryption; the name
 * of a 'cenc' content key (cenc_sample.h).
 */
#include "cenc_sample.h"

#include <string.h>

#include <mbedtls/platform_util.h>

#include "ara/hex.h"

int ara_cenc_map_check(const struct ara_cenc_subsample *map, uint32_t count, uint32_t len)
{
	uint64_t sum = 0; /* at most 1024 * 2 * (2^32 - 1): no overflow */

	if (len == 0 || len > ARA_RTS_CENC_SAMPLE_MAX || count > ARA_RTS_CENC_SUBSAMPLES_MAX)
		return -1;
	if (count == 0)
		return 0;
	for (uint32_t i = 0; i < count; i++)
		sum += (uint64_t)map[i].clear_bytes + map[i].protected_bytes;
	return sum == len ? 0 : -1;
}

int ara_cenc_decrypt(mbedtls_aes_context *aes, const uint8_t *iv, uint32_t iv_len,
		     const struct ara_cenc_subsample *map, uint32_t count, uint8_t *buf,
		     uint32_t len)
{
	uint8_t counter[16] = { 0 }, block[16];
	size_t offset = 0; /* into the keystream block: carried across subsamples */
	uint32_t at = 0;
	int r = 0;

	if (iv_len != 8 && iv_len != 16)
		r = -1;
	else
		memcpy(counter, iv, iv_len);
	if (r == 0 && count == 0)
		r = mbedtls_aes_crypt_ctr(aes, len, &offset, counter, block, buf, buf) ? -1 : 0;
	for (uint32_t i = 0; r == 0 && i < count; i++) {
		at += map[i].clear_bytes;
		if (map[i].protected_bytes &&
		    mbedtls_aes_crypt_ctr(aes, map[i].protected_bytes, &offset, counter, block,
					  buf + at, buf + at))
			r = -1;
		at += map[i].protected_bytes;
	}
	/* What is left of the last keystream block would decrypt what follows. */
	mbedtls_platform_zeroize(block, sizeof(block));
	if (r)
		memset(buf, 0, len);
	return r;
}

void ara_cenc_key_name(const uint8_t key_id[16], char out[ARA_CENC_KEY_NAME_BYTES])
{
	memcpy(out, "cenc-", 5);
	ara_hex_write(key_id, 16, out + 5);
}
