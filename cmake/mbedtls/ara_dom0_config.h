/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls configuration of ara_dom0_mbedcrypto (cmake/AraMbedtls.cmake):
 * the same algorithms as the tools, for DOM0, which has no libc. Selected
 * with MBEDTLS_CONFIG_FILE; a complete configuration.
 *
 * What DOM0 gives mbedtls instead of libc (ara_dom0_platform.h declares
 * the first two):
 *   memory   ara_dom0_calloc/ara_dom0_free (DOM0's allocator);
 *   entropy  mbedtls_hardware_poll(), the only entropy source;
 *   memcpy, memset, memmove, memcmp, strlen, strcmp (mbedtls's parsers of
 *   curve, hash and number names use the last two).
 * The build checks the archive for any other undefined symbol
 * (check-dom0-archive.cmake).
 *
 * Left out on purpose: files (MBEDTLS_FS_IO), PEM and error strings (they
 * need strstr, snprintf), time (MBEDTLS_HAVE_TIME), threads
 * (MBEDTLS_THREADING_C), self tests (printf), table AES and table GHASH
 * (below).
 */
#ifndef ARA_DOM0_CONFIG_H
#define ARA_DOM0_CONFIG_H

#include "ara_mbedtls_algorithms.h"

/* No stdlib.h or stdio.h; platform.h includes ara_dom0_platform.h instead. */
#define MBEDTLS_PLATFORM_C
#define MBEDTLS_PLATFORM_NO_STD_FUNCTIONS
#define MBEDTLS_PLATFORM_STD_MEM_HDR "ara_dom0_platform.h"
#define MBEDTLS_PLATFORM_MEMORY
#define MBEDTLS_PLATFORM_CALLOC_MACRO ara_dom0_calloc
#define MBEDTLS_PLATFORM_FREE_MACRO ara_dom0_free

/* No formatted output in DOM0: mbedtls_snprintf() always fails
 * (ara_dom0_platform.h). */
#define MBEDTLS_PLATFORM_SNPRINTF_MACRO ara_dom0_no_snprintf

/* mbedtls's own zeroize calls glibc's explicit_bzero() when it sees glibc's
 * headers; ours is ara_dom0_zeroize.c. */
#define MBEDTLS_PLATFORM_ZEROIZE_ALT

/* Entropy only from mbedtls_hardware_poll(): no getrandom(2), no files. */
#define MBEDTLS_NO_PLATFORM_ENTROPY
#define MBEDTLS_ENTROPY_HARDWARE_ALT

/* A 128-by-64-bit division would call libgcc's __udivti3. */
#define MBEDTLS_NO_UDBL_DIVISION

/*
 * AES on the ARMv8 AES instructions only (aesce.c; GCM's GHASH on PMULL):
 * no table code, whose key-dependent memory accesses App code on the same
 * core could time, and no CPU check in mbedtls. libara refuses to start on
 * a CPU without them (libara/src/dom0/hwcap.c). aes.c, gcm.c and aesce.c
 * are the part of DOM0 built with the vector registers
 * (cmake/AraMbedtls.cmake).
 */
#define MBEDTLS_AESCE_C
#define MBEDTLS_AES_USE_HARDWARE_ONLY

#endif
