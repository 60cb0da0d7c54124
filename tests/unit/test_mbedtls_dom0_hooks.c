/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-ins for what libara gives ara_dom0_mbedcrypto
 * (cmake/mbedtls/ara_dom0_platform.h), so that test_mbedtls_sha256.c can run
 * the DOM0 build of mbedtls as a normal program: libc's allocator and
 * getrandom(2). memcpy and friends come from libc here.
 */
#include <stdlib.h>
#include <sys/random.h>

#include "ara_dom0_platform.h"

void *ara_dom0_calloc(size_t nmemb, size_t size)
{
	return calloc(nmemb, size);
}

void ara_dom0_free(void *ptr)
{
	free(ptr);
}

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen)
{
	ssize_t got = getrandom(output, len, 0);

	(void)data;
	if (got < 0)
		return -1;
	*olen = (size_t)got;
	return 0;
}
