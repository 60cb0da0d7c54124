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

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

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
