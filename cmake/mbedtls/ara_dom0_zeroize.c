/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls_platform_zeroize() for DOM0 (MBEDTLS_PLATFORM_ZEROIZE_ALT in
 * ara_dom0_config.h): memset, then an empty asm that the compiler must
 * assume reads the buffer, so the memset is never removed as a dead store.
 */
#include "mbedtls/platform_util.h"

#include <string.h>

void mbedtls_platform_zeroize(void *buf, size_t len)
{
	/* mbedtls zeroizes (NULL, 0), which memset must not be given. */
	if (len == 0)
		return;
	memset(buf, 0, len);
	__asm__ volatile("" : : "r"(buf) : "memory");
}
