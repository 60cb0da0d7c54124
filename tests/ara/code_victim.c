/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libara_code_victim.so: a library of the build tree that attack_code is
 * linked against, so that ld.so maps its code before ARA initialises (load-
 * time code, IV1). attack_code.c turns each part against that mapping.
 */
#include "code_victim.h"

/*
 * A POR_EL0 gadget (msr POR_EL0, x0; isb; ret) in writable data, on a page
 * of the file of its own: never executable, so never scanned. Growing the
 * code mapping of this file far enough reaches it (code_mremap_grow).
 */
static __attribute__((aligned(4096))) uint32_t gadget_page[1024] = {
	0xd51ba280u,
	0xd5033fdfu,
	0xd65f03c0u,
};

const uint32_t *ara_code_victim_gadget(void)
{
	return gadget_page;
}

/* Harmless code that code_file_write rewrites in the file. */
__attribute__((noinline)) uint64_t ara_code_victim_fn(uint64_t x)
{
	return x + 1;
}
