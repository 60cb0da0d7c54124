/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mbedtls configuration of ara_mbedcrypto (cmake/AraMbedtls.cmake): normal
 * Linux programs (the loader, the tools, the tests) on the host and arm64.
 * Selected with MBEDTLS_CONFIG_FILE; a complete configuration, so nothing
 * of mbedtls's default one is built. Entropy comes from mbedtls's platform
 * source, getrandom(2); memory from calloc/free.
 */
#ifndef ARA_TOOLS_CONFIG_H
#define ARA_TOOLS_CONFIG_H

#include "ara_mbedtls_algorithms.h"

/* Keys also as PEM files, for the tools' users. */
#define MBEDTLS_FS_IO
#define MBEDTLS_BASE64_C
#define MBEDTLS_PEM_PARSE_C
#define MBEDTLS_PEM_WRITE_C

/* mbedtls_strerror() for the tools' error messages. */
#define MBEDTLS_ERROR_C

/* AES and SHA-256 instructions where the CPU has them (detected at run time;
 * each option compiles to nothing on the other architecture). DOM0 cannot
 * use them: it never touches SIMD registers. */
#define MBEDTLS_AESNI_C
#define MBEDTLS_AESCE_C
#define MBEDTLS_SHA256_USE_ARMV8_A_CRYPTO_IF_PRESENT

#endif
