/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU features mbedtls asks for, from DOM0's own copy.
 *
 * mbedtls's aesce.c (the ARMv8 AES instructions, MBEDTLS_AESCE_C) asks
 * libc's getauxval(AT_HWCAP) whether the CPU has them, at its first AES
 * operation. DOM0 links no libc, and by then the auxiliary vector on the
 * initial stack is App memory: libara answers from the value it copied at
 * initialisation, before any App code ran.
 */
#include <linux/auxvec.h>

#include "boot.h"
#include "dom0.h"

static unsigned long hwcap; /* libara's data: DOM0's, written once at init */

void ara_hwcap_init(char **envp)
{
	hwcap = ara_auxv_get(envp, AT_HWCAP);
}

unsigned long getauxval(unsigned long type);
unsigned long getauxval(unsigned long type)
{
	return type == AT_HWCAP ? hwcap : 0;
}
