/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program attack_exec_swap execs (never given to ara-loader): it says
 * whether it is the program ARA checked or the copy the attack made of it,
 * which names a dynamic linker that does not exist and which ARA's execve
 * must therefore refuse. It tells them apart by its own PT_INTERP, as
 * mapped, and says which by its exit status too (exec_swap_outcome.h), to
 * the attack's attempt that started it. Under ARA either way (DOM2's row),
 * or it says so.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/domains.h"
#include "exec_swap_outcome.h"
#include "por_sysreg.h"

static int main_program_interp(struct dl_phdr_info *info, size_t size, void *out)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP)
			*(const char **)out = (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	return 1; /* the main program is the first object */
}

int main(void)
{
	const char *interp = NULL;

	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: exec_swap_target is not running under ARA\n");
		return 1;
	}
	dl_iterate_phdr(main_program_interp, &interp);
	if (!interp) {
		printf("FAIL: exec_swap_target found no PT_INTERP\n");
		return 1;
	}
	if (interp[strlen(interp) - 1] == 'X') {
		printf("BREACH: running the program ARA refused to run (PT_INTERP %s): "
		       "ARA checked and measured other bytes\n", interp);
		return EXEC_SWAP_RAN_REFUSED;
	}
	if (getenv("ARA_EXEC_SWAP_ATTACK")) {
		printf("exec_swap_target: the attack's exec runs the program ARA checked "
		       "(PT_INTERP %s): its race was missed\n", interp);
		return EXEC_SWAP_RAN_CHECKED;
	}
	printf("exec_swap_target: running the program ARA checked (PT_INTERP %s)\n", interp);
	return 0;
}
