/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Root of Trust for Storage's services (docs/rts.md). Their keys come
 * by attested provisioning (ara/provision.h).
 */
#ifndef ARA_RTS_H
#define ARA_RTS_H

#include <stdint.h>

#include "ara/ara.h"

/*
 * RTS sealed chunk streams (docs/rts.md): a stream of AES-GCM chunks under
 * a content key provisioned as "kid-<key ID in hex>". OPEN takes the
 * stream's header and finds the key; CHUNK opens the next chunk in DOM0 and
 * copies out only a chunk that verified (ARA_E_BADMSG otherwise, and the
 * stream fails for good); CLOSE says whether the stream ended with its
 * last chunk (ARA_E_BADMSG: truncated or failed) and wipes the key.
 */
#define ARA_FID_RTS_STREAM_OPEN ARA_FID(ARA_MODULE_RTS, 16)  /* struct ara_rts_open_arg */
#define ARA_FID_RTS_STREAM_CHUNK ARA_FID(ARA_MODULE_RTS, 17) /* struct ara_rts_chunk_arg */
#define ARA_FID_RTS_STREAM_CLOSE ARA_FID(ARA_MODULE_RTS, 18) /* struct ara_rts_close_arg */
#define ARA_RTS_STREAMS 4u

struct ara_rts_open_arg {
	uint64_t header;     /* in: the stream's 36-byte header */
	uint32_t header_len; /* in */
	uint32_t stream;     /* out; ARA_E_NOENT: no key of that ID is held */
};

struct ara_rts_chunk_arg {
	uint64_t in;	  /* in: ciphertext and tag */
	uint64_t out;	  /* in: where the clear chunk goes */
	uint32_t in_len;  /* in */
	uint32_t out_cap; /* in */
	uint32_t stream;  /* in */
	uint32_t final;	  /* in: 1 for the stream's last chunk */
	uint32_t out_len; /* out */
	uint32_t reserved;
};

struct ara_rts_close_arg {
	uint32_t stream; /* in */
	uint32_t reserved;
};

/*
 * RTS Common Encryption (ISO/IEC 23001-7 'cenc', docs/rts.md): AES-128-CTR
 * samples whose content key is provisioned as "cenc-<key ID in hex>", never
 * under a chunk stream's "kid-" name (DECRYPT is an AES oracle). OPEN
 * finds the key by its key ID (ARA_E_NOENT: none is held); DECRYPT copies
 * one encrypted sample, its IV and its subsample map into DOM0, checks that
 * the map covers the sample exactly, decrypts there and copies out the clear
 * sample (ARA_E_INVAL and nothing written if any check fails); CLOSE wipes
 * the key.
 */
#define ARA_FID_RTS_CENC_OPEN ARA_FID(ARA_MODULE_RTS, 19)    /* struct ara_rts_cenc_open_arg */
#define ARA_FID_RTS_CENC_DECRYPT ARA_FID(ARA_MODULE_RTS, 20) /* struct ara_rts_cenc_decrypt_arg */
#define ARA_FID_RTS_CENC_CLOSE ARA_FID(ARA_MODULE_RTS, 21)   /* struct ara_rts_cenc_close_arg */
#define ARA_RTS_CENC_SESSIONS 4u
#define ARA_RTS_CENC_SAMPLE_MAX (1u << 20)  /* bytes in one sample */
#define ARA_RTS_CENC_SUBSAMPLES_MAX 1024u   /* entries in one subsample map */

/* One entry of a sample's subsample map ('senc'): clear bytes, then protected bytes. */
struct ara_cenc_subsample {
	uint32_t clear_bytes;
	uint32_t protected_bytes;
};

struct ara_rts_cenc_open_arg {
	uint8_t key_id[16]; /* in */
	uint32_t session;   /* out */
	uint32_t reserved;
};

struct ara_rts_cenc_decrypt_arg {
	uint64_t in;		  /* in: the encrypted sample */
	uint64_t out;		  /* in: where the clear sample goes */
	uint64_t subsamples;	  /* in: struct ara_cenc_subsample[subsample_count] */
	uint8_t iv[16];		  /* in: the sample's IV, iv_len bytes of it */
	uint32_t in_len;	  /* in: 1..ARA_RTS_CENC_SAMPLE_MAX */
	uint32_t out_cap;	  /* in: at least in_len */
	uint32_t subsample_count; /* in: 0 (the whole sample is protected) .. _SUBSAMPLES_MAX */
	uint32_t iv_len;	  /* in: 8 (zero-extended) or 16 */
	uint32_t session;	  /* in */
	uint32_t out_len;	  /* out: in_len */
};

struct ara_rts_cenc_close_arg {
	uint32_t session; /* in */
	uint32_t reserved;
};

#endif
