/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runtime refuses, before main, a program linked without full RELRO
 * (-Wl,-z,relro,-z,now): the hooks reach secure_call through the GOT,
 * which a data-only write could redirect while it is writable, and
 * ara-verify --app refuses such a program's runs. A link that forgot the
 * options fails here, loudly, with the status of a run without evidence,
 * instead of running to a report nobody can verify.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include "ara/rtm_runtime.h"
#include "runtime_internal.h"

/* The first object dl_iterate_phdr reports is the program itself. */
static int program_full_relro(struct dl_phdr_info *info, size_t size, void *data)
{
	int *full = data, relro = 0, now = 0;

	(void)size;
	for (unsigned int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_GNU_RELRO)
			relro = 1;
		if (ph->p_type != PT_DYNAMIC)
			continue;
		for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
		     d->d_tag != DT_NULL; d++)
			if ((d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_BIND_NOW)) ||
			    (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NOW)) ||
			    d->d_tag == DT_BIND_NOW)
				now = 1;
	}
	*full = relro && now;
	return 1; /* the program only */
}

__attribute__((constructor)) static void require_full_relro(void)
{
	int full = 0;

	dl_iterate_phdr(program_full_relro, &full);
	if (!full) {
		ara_rtm_warn("this program",
			     "not linked with full RELRO (-Wl,-z,relro,-z,now), which the RTM needs");
		_exit(ARA_RTM_EXIT_NO_EVIDENCE);
	}
}
