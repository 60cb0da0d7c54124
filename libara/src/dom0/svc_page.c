/* SPDX-License-Identifier: Apache-2.0 */
/* ARA's system-call page (svc_page.h). */
#include "ara/domains.h"
#include "ara/gate.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "mem.h"
#include "svc_page.h"
#include "sys.h"

extern const char ara_svc_image[], ara_svc_image_end[];

/* A new page, when ara-loader started the process. */
static uint64_t map_page(uint64_t len)
{
	long page = ara_sys6(__NR_mmap, 0, ARA_PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long r;

	if (ara_sys_failed(page))
		ara_fatal("mmap of the system-call page failed", page);
	/* The rest of the page stays zero: UDF. */
	memcpy((void *)page, ara_svc_image, len);
	ara_sync_icache((uint64_t)page, len);
	r = ara_sys3(__NR_mprotect, page, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC);
	if (r != 0)
		ara_fatal("mprotect of the system-call page failed", r);
	return (uint64_t)page;
}

void ara_svc_page_init(void)
{
	const uint64_t len = (uint64_t)(ara_svc_image_end - ara_svc_image);
	uint64_t page = ara_boot_block.svc_page;

	long r;

	if (!page) {
		ara_svc_entry = map_page(len);
		return;
	}
	/*
	 * After an App's execve (execve.c), the kernel mapped the page where
	 * the inherited filter allows it, from ARA's image file: this libara
	 * must find its own blob there, or its system calls would go through
	 * code it does not know. From then on they go there (the inherited
	 * filter refuses some from anywhere else), and a private page of its
	 * own replaces the file's (no other mapping of it can remain).
	 */
	if (!ara_ct_eq((const void *)(uintptr_t)page, ara_svc_image, len))
		ara_fatal("the inherited system-call page is not this libara's", (long)page);
	ara_svc_entry = page;
	r = ara_sys5(__NR_mremap, map_page(len), ARA_PAGE_SIZE, ARA_PAGE_SIZE,
		     MREMAP_MAYMOVE | MREMAP_FIXED, page);
	if ((uint64_t)r != page)
		ara_fatal("cannot replace the inherited system-call page", r);
}

void ara_svc_page_protect(void)
{
	ara_protect(ara_svc_entry, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC, ARA_DOM0);
}

uint64_t ara_svc_page(void)
{
	return ara_svc_entry;
}
