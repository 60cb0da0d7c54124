/* SPDX-License-Identifier: Apache-2.0 */
/* Little-endian loads from byte buffers, whatever their alignment. */
#ifndef ARA_RTM_LE_H
#define ARA_RTM_LE_H

#include <stdint.h>

static inline uint32_t ara_rtm_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ara_rtm_le64(const uint8_t *p)
{
	return (uint64_t)ara_rtm_le32(p) | (uint64_t)ara_rtm_le32(p + 4) << 32;
}

#endif
