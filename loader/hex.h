/* SPDX-License-Identifier: Apache-2.0 */
/* Lowercase hexadecimal: how digests appear in the manifest and in messages. */
#ifndef ARA_LOADER_HEX_H
#define ARA_LOADER_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Writes 2 * n lowercase hex digits and a NUL to out (2 * n + 1 bytes). */
void ara_hex_encode(const uint8_t *bytes, size_t n, char *out);

/*
 * Decodes exactly 2 * n lowercase hex digits from hex into out (n <= 65).
 * Returns 0, or -1 (out untouched) if hex_len is not 2 * n or a character is
 * not one of 0-9a-f: there is one spelling of each digest, so uppercase is
 * refused.
 */
int ara_hex_decode_lower(const char *hex, size_t hex_len, uint8_t *out, size_t n);

#endif
