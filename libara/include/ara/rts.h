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

#endif
