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

/* Both 8-byte aligned: the word loops below apply. */
static int word_aligned(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & (sizeof(ara_word) - 1)) == 0;
}

/*
 * 64 bytes a step (four ldp and four stp), then 8: a trap's signal frame
 * holds about 1.2 KiB, copied in and wiped on every trapped call (trap.c). In
 * assembly: the compiler splits may_alias words into single loads and stores.
 */
#define BLOCK 64u

static inline void copy_block(unsigned char *d, const unsigned char *s)
{
	uint64_t a, b, c, e, f, g, h, i;

	__asm__ volatile("ldp %0, %1, [%8]\n\t"
		"ldp %2, %3, [%8, #16]\n\t"
		"ldp %4, %5, [%8, #32]\n\t"
		"ldp %6, %7, [%8, #48]\n\t"
		"stp %0, %1, [%9]\n\t"
		"stp %2, %3, [%9, #16]\n\t"
		"stp %4, %5, [%9, #32]\n\t"
		"stp %6, %7, [%9, #48]"
		: "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(e), "=&r"(f), "=&r"(g), "=&r"(h), "=&r"(i)
		: "r"(s), "r"(d)
		: "memory");
}

static inline void fill_block(unsigned char *d, uint64_t fill)
{
	__asm__("stp %1, %1, [%0]\n\t"
		"stp %1, %1, [%0, #16]\n\t"
		"stp %1, %1, [%0, #32]\n\t"
		"stp %1, %1, [%0, #48]"
		:
		: "r"(d), "r"(fill)
		: "memory");
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (word_aligned(d, s)) {
		for (; n >= BLOCK; n -= BLOCK, d += BLOCK, s += BLOCK)
			copy_block(d, s);
		for (; n >= sizeof(ara_word); n -= sizeof(ara_word), d += sizeof(ara_word), s += sizeof(ara_word))
			*(ara_word *)(void *)d = *(const ara_word *)(const void *)s;
	}
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

		for (; n >= BLOCK; n -= BLOCK, d += BLOCK)
			fill_block(d, fill);
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
