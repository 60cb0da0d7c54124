/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plain loads and stores on App memory, with a fault resumed as an error
 * (app_access.S says how and when). Included from assembly.
 */
#ifndef ARA_DOM0_APP_ACCESS_H
#define ARA_DOM0_APP_ACCESS_H

/* What ara_app_access returns (copy.c asserts them against enum ara_status). */
#define ARA_APP_ACCESS_OK 0
#define ARA_APP_ACCESS_FAULT 4

#ifndef __ASSEMBLER__
#include <stdint.h>

#include "ara/ara.h"

enum ara_status ara_app_access(void *dst, const void *src, uint64_t len);

/* Where a fault is resumed, and the code it is resumed from (interrupt.c). */
void ara_app_access_fault(void);
extern const char ara_app_access_end[];
#endif

#endif
