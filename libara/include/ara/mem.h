/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory primitives DOM0 defines itself (libara/src/dom0/string.c),
 * under the names the compiler calls on its own. No libc header: DOM0 links
 * no libc. The core and the services (ara/service.h) use these.
 */
#ifndef ARA_MEM_H
#define ARA_MEM_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif
