/* SPDX-License-Identifier: Apache-2.0 */
/* The libFuzzer entry point each fuzz target defines (fuzz_driver.c). */
#ifndef ARA_FUZZ_DRIVER_H
#define ARA_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* Feeds one input to the code under test; aborts if an invariant fails.
 * Returns 0, as libFuzzer requires. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
