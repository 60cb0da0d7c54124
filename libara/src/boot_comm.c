/* SPDX-License-Identifier: Apache-2.0 */
/* The process's name as the kernel gives it at execve (ara/boot.h). */
#include "ara/boot.h"

/* Linux's kbasename(bprm->filename), cut to TASK_COMM_LEN - 1 by __set_task_comm. */
void ara_boot_comm(char out[ARA_BOOT_COMM_BYTES], const char *path)
{
	const char *base = path;
	unsigned int n = 0;

	for (const char *p = path; *p; p++)
		if (*p == '/')
			base = p + 1;
	while (n < ARA_BOOT_COMM_BYTES - 1 && base[n]) {
		out[n] = base[n];
		n++;
	}
	while (n < ARA_BOOT_COMM_BYTES)
		out[n++] = '\0';
}
