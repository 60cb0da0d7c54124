/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hexadecimal, the one codec of the tree: digests in manifests and
 * messages, key names, /proc/self/maps, the tools' command lines and
 * files. Freestanding (no ctype, no printf): DOM0 compiles it too
 * (libara/src/hex.c, in ara_core and in libara.so).
 */
#ifndef ARA_HEX_H
#define ARA_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Which digits a reader takes: lower case only where there is one spelling
 * of each value (digests, the kernel's maps), either case from people. */
enum ara_hex_case {
	ARA_HEX_LOWER,
	ARA_HEX_ANY_CASE,
};

/* The lowercase digit of v's low 4 bits. */
static inline char ara_hex_char(unsigned int v)
{
	return "0123456789abcdef"[v & 0xf];
}

/* The value of the digit c (0-9, a-f, A-F if ARA_HEX_ANY_CASE), or -1. */
int ara_hex_digit(char c, enum ara_hex_case which);

/* Writes 2 * n lowercase digits to out, and no NUL (a field of a name). */
void ara_hex_write(const uint8_t *bytes, size_t n, char *out);

/* Writes 2 * n lowercase digits and a NUL to out (2 * n + 1 bytes). */
void ara_hex_encode(const uint8_t *bytes, size_t n, char *out);

/*
 * Decodes exactly 2 * n lowercase digits (hex_len of them) into out.
 * Returns 0, or -1 (out untouched) if hex_len is not 2 * n or a character
 * is not one of 0-9a-f: there is one spelling of each digest.
 */
int ara_hex_decode_lower(const char *hex, size_t hex_len, uint8_t *out, size_t n);

/*
 * s, an even number (2..2 * cap) of digits of either case and nothing
 * else, into out: the number of bytes, or -1 (out untouched).
 */
long ara_hex_decode(const char *s, uint8_t *out, size_t cap);

#endif
