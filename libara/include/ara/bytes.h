/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Big- and little-endian loads and stores at any byte address, whatever
 * the host's byte order and the address's alignment: the wire and file
 * formats (big-endian: the provisioning wire, RTS chunk headers, TPM
 * structures, SHA-256) and the kernel's and the RTM's little-endian
 * structures. Header-only and freestanding, for DOM0 and the tools alike;
 * the compiler makes each one load or store (and a byte swap).
 */
#ifndef ARA_BYTES_H
#define ARA_BYTES_H

#include <stdint.h>

static inline uint16_t ara_get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t ara_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t ara_get_be64(const uint8_t *p)
{
	return (uint64_t)ara_get_be32(p) << 32 | ara_get_be32(p + 4);
}

static inline void ara_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ara_put_be32(uint8_t *p, uint32_t v)
{
	ara_put_be16(p, (uint16_t)(v >> 16));
	ara_put_be16(p + 2, (uint16_t)v);
}

static inline void ara_put_be64(uint8_t *p, uint64_t v)
{
	ara_put_be32(p, (uint32_t)(v >> 32));
	ara_put_be32(p + 4, (uint32_t)v);
}

static inline uint16_t ara_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t ara_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ara_get_le64(const uint8_t *p)
{
	return ara_get_le32(p) | (uint64_t)ara_get_le32(p + 4) << 32;
}

static inline void ara_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void ara_put_le32(uint8_t *p, uint32_t v)
{
	ara_put_le16(p, (uint16_t)v);
	ara_put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void ara_put_le64(uint8_t *p, uint64_t v)
{
	ara_put_le32(p, (uint32_t)v);
	ara_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
