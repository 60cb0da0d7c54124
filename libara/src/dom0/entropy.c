/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls's entropy source in DOM0 (MBEDTLS_ENTROPY_HARDWARE_ALT): the
 * kernel's getrandom, called from DOM0 through its system-call page.
 * Nothing the App controls sits between the kernel and the entropy pool.
 */
#include "dom0.h"
#include "kernel.h"
#include "sys.h"

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen)
{
	size_t done = 0;

	(void)data;
	while (done < len) {
		long got = ara_sys3(__NR_getrandom, output + done, len - done, 0);

		if (got == -EINTR)
			continue;
		if (got <= 0) {
			*olen = done;
			return -1; /* mbedtls then reports an entropy source failure */
		}
		done += (size_t)got;
	}
	*olen = done;
	return 0;
}

int ara_random_bytes(void *out, size_t len)
{
	size_t got;

	return mbedtls_hardware_poll(NULL, out, len, &got) == 0 && got == len ? 0 : -1;
}
