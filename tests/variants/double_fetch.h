/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The double-fetch service of the race-target test variants
 * (double_fetch_service.c): its function ID and argument, shared with the
 * attack App that races it (tests/ara/attack_race.c).
 */
#ifndef ARA_TEST_DOUBLE_FETCH_H
#define ARA_TEST_DOUBLE_FETCH_H

#include <stdint.h>

#include "ara/ara.h"

#define DOUBLE_FETCH_FID ARA_FID(ARA_MODULE_TEST, 1)
#define DOUBLE_FETCH_PUBLIC_LEN 16u /* bytes of the service's buffer the App may read */
#define DOUBLE_FETCH_OUT_LEN 64u    /* the whole buffer: the public part, then a secret */

struct double_fetch_arg {
	uint32_t len; /* in: how many bytes, at most DOUBLE_FETCH_PUBLIC_LEN */
	uint32_t reserved;
	uint8_t out[DOUBLE_FETCH_OUT_LEN]; /* out: the buffer's first len bytes */
};

#endif
