/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTS's sealed chunk stream (docs/rts.md): the paper's workload, a
 * stream of chunks of at most 64 KiB sealed with AES-GCM under a
 * provisioned content key. Each chunk's nonce is the stream's 8-byte
 * prefix and its 32-bit index; its associated data binds a label, the key
 * ID, the prefix, the index, the length and whether it is the last chunk,
 * so that tampering, reordering, truncation and another key all fail to
 * open. Pure code on mbedtls (no libc beyond memcpy/memset): DOM0 opens
 * with it, the packager ara-seal-chunks seals with it.
 *
 * Stream: a 36-byte header ("ARAS", version 1, 3 zero bytes, key ID (16),
 * nonce prefix (8), chunk size (u32 big-endian, 1..65536)), then chunks of
 * chunk size + 16 bytes (ciphertext and tag), the last one possibly
 * shorter; the last chunk is the one sealed as final.
 */
#ifndef ARA_RTS_CHUNK_FORMAT_H
#define ARA_RTS_CHUNK_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include <mbedtls/gcm.h>

#define ARA_RTS_HEADER_BYTES 36u
#define ARA_RTS_KEY_ID_BYTES 16u
#define ARA_RTS_PREFIX_BYTES 8u
#define ARA_RTS_CHUNK_MAX (64u << 10)
#define ARA_RTS_TAG_BYTES 16u

struct ara_rts_header {
	uint8_t key_id[ARA_RTS_KEY_ID_BYTES];
	uint8_t prefix[ARA_RTS_PREFIX_BYTES];
	uint32_t chunk_size;
};

/* 0, or -1 if the bytes are not a version 1 header. */
int ara_rts_header_decode(const uint8_t *p, size_t len, struct ara_rts_header *h);
void ara_rts_header_encode(const struct ara_rts_header *h, uint8_t out[ARA_RTS_HEADER_BYTES]);

/*
 * Seals chunk `index` (len bytes, 1..chunk_size; the last of the stream
 * if final) into out: len bytes of ciphertext, then the tag. 0 or -1.
 */
int ara_rts_seal(mbedtls_gcm_context *gcm, const struct ara_rts_header *h, uint32_t index,
		 int final, const uint8_t *pt, size_t len, uint8_t *out);

/*
 * Opens chunk `index` (in_len bytes: ciphertext and tag) into pt. 0, or -1
 * if it is not that chunk of that stream under that key, with pt zeroed.
 */
int ara_rts_open(mbedtls_gcm_context *gcm, const struct ara_rts_header *h, uint32_t index,
		 int final, const uint8_t *in, size_t in_len, uint8_t *pt);

/* "kid-" and the key ID in lower-case hex: the name its key is provisioned under. */
#define ARA_RTS_KEY_NAME_BYTES (4u + 2u * ARA_RTS_KEY_ID_BYTES)
void ara_rts_key_name(const uint8_t key_id[ARA_RTS_KEY_ID_BYTES],
		      char out[ARA_RTS_KEY_NAME_BYTES]);

#endif
