/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz targets: a violated property stops the run with the failing check. */
#ifndef ARA_FUZZ_CHECK_H
#define ARA_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

/* The libFuzzer entry point every fuzz_*.c defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* ARA_FUZZ_CHECK_H */
