/* SPDX-License-Identifier: Apache-2.0 */
/* libara_code_victim.so (code_victim.c), for attack_code.c. */
#ifndef ARA_TEST_CODE_VICTIM_H
#define ARA_TEST_CODE_VICTIM_H

#include <stdint.h>

/*
 * Where a POR_EL0 gadget lies in the library's writable data, alone on its
 * page of the file (a function: the App's own reference to a data object
 * would be to its copy, R_AARCH64_COPY).
 */
const uint32_t *ara_code_victim_gadget(void);

/* Harmless code: returns x + 1. */
uint64_t ara_code_victim_fn(uint64_t x);

#endif
