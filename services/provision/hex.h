/* SPDX-License-Identifier: Apache-2.0 */
/* Hexadecimal text to bytes, for the tools' command lines and files. */
#ifndef ARA_PROVISION_HEX_H
#define ARA_PROVISION_HEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * s, an even number (2..2 * cap) of hex digits of either case and nothing
 * else, into out: the number of bytes, or -1 (out may be partly written).
 */
long ara_hex_decode(const char *s, uint8_t *out, size_t cap);

#endif
