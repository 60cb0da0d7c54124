/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What libara provides to ara_dom0_mbedcrypto, and its stand-in for
 * snprintf (see ara_dom0_config.h). The DOM0 configuration makes mbedtls's
 * platform.h include this header in place of stdlib.h and stdio.h.
 */
#ifndef ARA_DOM0_PLATFORM_H
#define ARA_DOM0_PLATFORM_H

#include <stddef.h>

/* calloc/free semantics: zeroed memory or NULL; free(NULL) does nothing. */
void *ara_dom0_calloc(size_t nmemb, size_t size);
void ara_dom0_free(void *ptr);

/* Fills output with up to len bytes of full-entropy data and sets *olen to
 * the count; returns 0, or nonzero when no entropy is available. The same
 * prototype as in mbedtls's library/entropy_poll.h. */
int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

/* mbedtls_snprintf(): DOM0 has no formatted output, so it always fails. Its
 * one user here, mbedtls_oid_get_numeric_string() (OIDs as text, for X.509),
 * then returns MBEDTLS_ERR_OID_BUF_TOO_SMALL. */
static inline int ara_dom0_no_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	(void)buf;
	(void)size;
	(void)fmt;
	return -1;
}

#endif
