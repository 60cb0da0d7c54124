/* SPDX-License-Identifier: Apache-2.0 */
#include "hex.h"

#include <string.h>

static const char digits[] = "0123456789abcdef";

void ara_hex_encode(const uint8_t *bytes, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * n] = '\0';
}

/* The value of a lowercase hex digit, or -1. */
static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int ara_hex_decode_lower(const char *hex, size_t hex_len, uint8_t *out, size_t n)
{
	uint8_t tmp[65]; /* a digest, or a P-256 point (the manifest's provisioner key) */

	if (n > sizeof(tmp) || hex_len != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = digit_value(hex[2 * i]);
		int lo = digit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(out, tmp, n);
	return 0;
}
