/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CPU features DOM0's crypto runs on.
 *
 * DOM0's AES runs on the CPU's AES instructions, or not at all. Its
 * mbedtls is built MBEDTLS_AES_USE_HARDWARE_ONLY
 * (cmake/mbedtls/ara_dom0_config.h): AES is mbedtls's aesce.c (AESE/AESD,
 * FEAT_AES) and GCM's GHASH is PMULL (FEAT_PMULL), with no table code to
 * fall back to. Table AES and table GHASH index memory with key-dependent
 * bytes; App code runs on the same core and shares its caches, and
 * cache-timing attacks on them are practical. So a CPU without the
 * instructions does not get a slower ARA: libara refuses to start, before
 * any App code runs, rather than meet an undefined instruction at the
 * first AES operation inside a service.
 *
 * DOM0 code that picks its instructions at run time asks getauxval(), as
 * it would ask libc; DOM0 links no libc, and by then the auxiliary vector
 * on the initial stack is App memory: libara answers from the value it
 * copied at initialisation, before any App code ran.
 */
#include "boot.h"
#include "dom0.h"
#include "kernel.h"

/* Written once at initialisation, then read-only: the service domains read it too. */
static ARA_RO_AFTER_INIT unsigned long hwcap;

void ara_hwcap_init(char **envp)
{
	const unsigned long need = HWCAP_ASIMD | HWCAP_AES | HWCAP_PMULL;

	hwcap = ara_auxv_get(envp, AT_HWCAP);
	if ((hwcap & need) != need)
		ara_fatal("this CPU has no AES and PMULL instructions (HWCAP_AES, HWCAP_PMULL): DOM0's "
			  "crypto runs on them only",
			  (long)hwcap);
}

unsigned long getauxval(unsigned long type);
unsigned long getauxval(unsigned long type)
{
	return type == AT_HWCAP ? hwcap : 0;
}
