/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_DOM0_CODE_COPY_H
#define ARA_DOM0_CODE_COPY_H

#include <stdint.h>

#include "ara/maps.h"

/*
 * code_copy.c: replaces [start, end) of m, a mapping of a file, with a
 * scanned copy in a sealed memfd of its own, mapped private with prot at
 * the same address and file offset; returns the POR_EL0 writes it
 * neutralised. Initialisation only (before any App code); fatal on error.
 */
uint64_t ara_code_copy(const struct ara_mapping *m, uint64_t start, uint64_t end, int prot);

#endif
