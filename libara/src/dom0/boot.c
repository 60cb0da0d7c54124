/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the boot block that ara-loader left in a sealed memfd.
 *
 * This runs before any App code, so the environment and the auxiliary
 * vector are still what the kernel and the loader wrote. The block is
 * accepted only from a memfd sealed against every change, with the exact
 * size, magic and version libara expects.
 */
#include "ara/boot.h"
#include "boot.h"
#include "dom0.h"
#include "kernel.h"
#include "sys.h"

#define ARA_SEALS_REQUIRED (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

const char *ara_env_get(char **envp, const char *name)
{
	for (; *envp; envp++) {
		const char *e = *envp, *n = name;

		while (*n && *e == *n)
			e++, n++;
		if (*n == '\0' && *e == '=')
			return e + 1;
	}
	return NULL;
}

int ara_env_is(char **envp, const char *name, const char *value)
{
	const char *v = ara_env_get(envp, name);

	if (!v)
		return 0;
	while (*value && *v == *value)
		v++, value++;
	return *v == '\0' && *value == '\0';
}

/* A descriptor number: decimal digits only, at most 9 of them. */
static long parse_fd(const char *s)
{
	long v = 0;
	int digits = 0;

	for (; *s; s++, digits++) {
		if (*s < '0' || *s > '9' || digits == 9)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return digits ? v : -1;
}

void ara_boot_load(char **envp, struct ara_boot *out)
{
	const char *value = ara_env_get(envp, ARA_BOOT_ENV);
	long fd, seals, got;
	char extra;

	if (!value)
		ara_fatal("no " ARA_BOOT_ENV " in the environment: start the App with ara-loader", 0);
	fd = parse_fd(value);
	if (fd < 0)
		ara_fatal(ARA_BOOT_ENV " is not a descriptor number", 0);
	seals = ara_sys3(__NR_fcntl, fd, F_GET_SEALS, 0);
	if (ara_sys_failed(seals) || (seals & ARA_SEALS_REQUIRED) != ARA_SEALS_REQUIRED)
		ara_fatal("the boot block is not in a fully sealed memfd; seals", seals);
	got = ara_sys4(__NR_pread64, fd, out, sizeof(*out), 0);
	if (got != (long)sizeof(*out))
		ara_fatal("the boot block has the wrong size", got);
	if (ara_sys4(__NR_pread64, fd, &extra, 1, sizeof(*out)) != 0)
		ara_fatal("the boot block is longer than expected", 0);
	ara_sys1(__NR_close, fd);
	if (out->magic != ARA_BOOT_MAGIC || out->size != sizeof(*out))
		ara_fatal("the boot block's magic or size is wrong", out->size);
	if (out->version != ARA_BOOT_VERSION)
		ara_fatal("the boot block has an unsupported version", out->version);
	if (out->reserved_count > ARA_BOOT_RESERVED_MAX ||
	    (!out->svc_page && (out->interp_fd != -1 || out->reserved_count || out->interp_inode)) ||
	    (out->svc_page && (out->interp_fd < 0 || !out->interp_inode)) || out->svc_page % 4096u)
		ara_fatal("the boot block's execve fields are inconsistent", (long)out->svc_page);
}

unsigned long ara_auxv_get(char **envp, unsigned long type)
{
	while (*envp)
		envp++;
	for (const unsigned long *av = (const unsigned long *)(envp + 1); av[0] != 0; av += 2)
		if (av[0] == type)
			return av[1];
	return 0;
}
