/* SPDX-License-Identifier: Apache-2.0 */
/* ARA's system-call page (svc_page.h). */
#include <linux/mman.h>

#include "ara/domains.h"
#include "ara/gate.h"
#include "dom0.h"
#include "init.h"
#include "mem.h"
#include "svc_page.h"
#include "sys.h"

extern const char ara_svc_boot[];
extern const char ara_svc_image[], ara_svc_image_end[];

uint64_t ara_svc_entry = (uint64_t)(uintptr_t)ara_svc_boot;

void ara_svc_page_init(void)
{
	const uint64_t len = (uint64_t)(ara_svc_image_end - ara_svc_image);
	long page = ara_sys6(__NR_mmap, 0, ARA_PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ara_sys_failed(page))
		ara_fatal("mmap of the system-call page failed", page);
	/* The rest of the page stays zero: UDF. */
	memcpy((void *)page, ara_svc_image, len);
	ara_sync_icache((uint64_t)page, len);
	ara_protect((uint64_t)page, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC, ARA_DOM0);
	ara_svc_entry = (uint64_t)page;
}

uint64_t ara_svc_page(void)
{
	return ara_svc_entry;
}
