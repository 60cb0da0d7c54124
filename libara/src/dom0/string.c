/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DOM0's memory primitives. The compiler emits calls to memcpy, memset,
 * memmove and memcmp on its own; these hidden definitions make them bind
 * inside libara.so instead of to libc through a PLT the App can write. Built
 * with -fno-tree-loop-distribute-patterns so the loops do not turn back into
 * calls to themselves.
 */
#include <stddef.h>
#include <stdint.h>

#include "dom0.h"
#include "mem.h"

/* A word that may alias anything: the word loops below copy any object. */
typedef uint64_t __attribute__((may_alias)) ara_word;

/* Both 8-byte aligned: eight bytes at a time (signal frames are 4.7 KiB). */
static int word_aligned(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & (sizeof(ara_word) - 1)) == 0;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (word_aligned(d, s))
		for (; n >= sizeof(ara_word); n -= sizeof(ara_word), d += sizeof(ara_word), s += sizeof(ara_word))
			*(ara_word *)(void *)d = *(const ara_word *)(const void *)s;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if ((uintptr_t)d < (uintptr_t)s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (word_aligned(d, d)) {
		const ara_word fill = (unsigned char)c * UINT64_C(0x0101010101010101);

		for (; n >= sizeof(ara_word); n -= sizeof(ara_word), d += sizeof(ara_word))
			*(ara_word *)(void *)d = fill;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

void ara_memzero(void *p, size_t n)
{
	memset(p, 0, n);
	/* The stores are observable: the compiler may not drop them. */
	__asm__ volatile("" : : "r"(p) : "memory");
}

int ara_ct_eq(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

size_t ara_put_fd(char *out, const char *prefix, long fd)
{
	char digits[20];
	uint64_t v = fd < 0 ? (uint64_t)0 - (uint64_t)fd : (uint64_t)fd;
	size_t n = 0, len = strlen(prefix);

	memcpy(out, prefix, len);
	if (fd < 0)
		out[len++] = '-';
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		out[len++] = digits[--n];
	out[len] = '\0';
	return len;
}
