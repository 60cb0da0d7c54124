/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/hex.h"

#include <string.h>

int ara_hex_digit(char c, enum ara_hex_case which)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (which == ARA_HEX_ANY_CASE && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void ara_hex_write(const uint8_t *bytes, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = ara_hex_char(bytes[i] >> 4);
		out[2 * i + 1] = ara_hex_char(bytes[i]);
	}
}

void ara_hex_encode(const uint8_t *bytes, size_t n, char *out)
{
	ara_hex_write(bytes, n, out);
	out[2 * n] = '\0';
}

/* 2 * n digits of the case into out; every digit is checked before the
 * first byte is written, so a refused text leaves out as it was. */
static int decode(const char *hex, uint8_t *out, size_t n, enum ara_hex_case which)
{
	for (size_t i = 0; i < 2 * n; i++)
		if (ara_hex_digit(hex[i], which) < 0)
			return -1;
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(ara_hex_digit(hex[2 * i], which) << 4 |
				   ara_hex_digit(hex[2 * i + 1], which));
	return 0;
}

int ara_hex_decode_lower(const char *hex, size_t hex_len, uint8_t *out, size_t n)
{
	if (n > SIZE_MAX / 2 || hex_len != 2 * n)
		return -1;
	return decode(hex, out, n, ARA_HEX_LOWER);
}

long ara_hex_decode(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s);

	if (n == 0 || n % 2 || n / 2 > cap || decode(s, out, n / 2, ARA_HEX_ANY_CASE) != 0)
		return -1;
	return (long)(n / 2);
}
