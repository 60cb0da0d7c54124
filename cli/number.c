/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Numbers from the command line, parsed by hand: strtoul() would skip
 * leading blanks, take "-1" as ULONG_MAX, read "010" as octal and stop
 * quietly at the first stray character.
 */
#include "ara_cli.h"

#include <errno.h>

/* The value of c as a digit of base 10 or 16, or -1. */
static int digit(char c, unsigned int base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ara_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned int base = 10;
	int overflow = 0;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && s[1] != '\0') {
		errno = EINVAL; /* octal to strtoul(), decimal to a reader */
		return -1;
	}
	if (*s == '\0') {
		errno = EINVAL;
		return -1;
	}
	for (; *s != '\0'; s++) {
		int d = digit(*s, base);

		if (d < 0) {
			errno = EINVAL;
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = 1; /* keep going: a stray letter is EINVAL */
		else
			v = v * base + (uint64_t)d;
	}
	if (overflow || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

uint64_t ara_cli_number(const char *option, const char *s, uint64_t min,
			uint64_t max)
{
	uint64_t v;

	if (ara_parse_u64(s, min, max, &v) != 0)
		ara_usage_error("%s: '%s' is not a number in %llu..%llu", option,
				s, (unsigned long long)min,
				(unsigned long long)max);
	return v;
}
