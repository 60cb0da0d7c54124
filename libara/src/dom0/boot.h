/* SPDX-License-Identifier: Apache-2.0 */
#ifndef ARA_DOM0_BOOT_H
#define ARA_DOM0_BOOT_H

#include "ara/boot.h"
#include "ara/service.h" /* ara_env_get, the services' too */

/* Reads and checks the boot block named by ARA_BOOT_ENV; fatal on error. */
void ara_boot_load(char **envp, struct ara_boot *out);

/* True if the environment holds name=value exactly. */
int ara_env_is(char **envp, const char *name, const char *value);

/* The auxiliary vector entry of this type (it follows envp), or 0. */
unsigned long ara_auxv_get(char **envp, unsigned long type);

#endif
