/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's hash chain over sealed segments (rtm_format.h):
 * H_0 = SHA-256("ARA-RTM-v1 chain" || run_id), H_{i+1} = SHA-256(H_i || segment_i).
 */
#ifndef ARA_RTM_CHAIN_H
#define ARA_RTM_CHAIN_H

#include <stdint.h>

#include "rtm_format.h"

/* 0, or -1 if mbedtls fails. */
int ara_rtm_chain_start(const uint8_t run_id[ARA_RTM_HASH_BYTES], uint8_t h[ARA_RTM_HASH_BYTES]);

/* h <- SHA-256(h || segment), segment being ARA_RTM_SEGMENT_BYTES. 0, or -1. */
int ara_rtm_chain_step(uint8_t h[ARA_RTM_HASH_BYTES], const uint8_t *segment);

#endif
