/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One Common Encryption sample (ISO/IEC 23001-7, scheme 'cenc'): the check
 * of its subsample map and its AES-128-CTR decryption. Pure code on mbedtls
 * (no libc beyond memcpy/memset): DOM0 decrypts with it (cenc.c), the host
 * tests and the fuzz target run the same code.
 *
 * The IV (8 or 16 bytes) is the initial counter block, an 8-byte IV
 * zero-extended on the right. Within a sample the clear bytes of each
 * subsample are left as they are and one keystream runs on, block offset
 * included, across the protected bytes of all its subsamples; a sample
 * without a map is protected whole. The counter block is incremented as one
 * 128-bit big-endian number (mbedtls); the standard's 8-byte IVs leave the
 * low 64 bits to the counter, which no sample of at most
 * ARA_RTS_CENC_SAMPLE_MAX bytes can wrap.
 *
 * Also the name a 'cenc' content key is provisioned under.
 */
#ifndef ARA_RTS_CENC_SAMPLE_H
#define ARA_RTS_CENC_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include <mbedtls/aes.h>

#include "ara/rts.h"

/*
 * 0 if the map (count entries; 0 for none) covers exactly len bytes, len is
 * 1..ARA_RTS_CENC_SAMPLE_MAX and count at most ARA_RTS_CENC_SUBSAMPLES_MAX;
 * -1 otherwise.
 */
int ara_cenc_map_check(const struct ara_cenc_subsample *map, uint32_t count, uint32_t len);

/*
 * Decrypts buf (len bytes) in place under aes (an encryption key schedule:
 * CTR only ever encrypts), with the sample's IV and a map that
 * ara_cenc_map_check accepted. 0, or -1 (iv_len not 8 or 16, or mbedtls
 * failed) with buf zeroed.
 */
int ara_cenc_decrypt(mbedtls_aes_context *aes, const uint8_t *iv, uint32_t iv_len,
		     const struct ara_cenc_subsample *map, uint32_t count, uint8_t *buf,
		     uint32_t len);

/*
 * "cenc-" and the key ID in lower-case hex (no NUL): the name a 'cenc'
 * content key is provisioned under. Not the chunk streams' "kid-<hex>"
 * (chunk_format.h): DECRYPT takes any IV, so it returns E_k(IV) for any
 * chosen IV, an AES encryption oracle that would let an App forge and open
 * GCM chunks under the same key. Each service looks under its own prefix
 * only, so no provisioned key serves both.
 */
#define ARA_CENC_KEY_NAME_BYTES (5u + 2u * 16u)
void ara_cenc_key_name(const uint8_t key_id[16], char out[ARA_CENC_KEY_NAME_BYTES]);

#endif
