/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class 2 of the kernel-interface audit (docs/kernel-access.md): mapping
 * calls that unmap, move, replace, shrink, discard or seal ARA's pages.
 * ARA seals its ranges with mseal(2) (libara/src/dom0/seal.c), whatever
 * the call, and the filter's range block refuses the mapping calls it
 * knows: each attack is refused by both walls, and gets through where
 * neither is (the no-seal variant). Run against the no-seccomp variant,
 * which still seals, the attacks on sealed ranges show the seal alone
 * holds; the attacks on the exec staging window (which DOM0 remaps at run
 * time, and so is not sealed) show that only the filter guards it.
 *
 * usage: attack_seal ATTACK LIBARA_SO
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/domains.h"
#include "attack.h"
#include "attack_libara.h"

#ifndef SHM_REMAP
#define SHM_REMAP 040000
#endif
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif
#ifndef SYS_mseal
#define SYS_mseal 462
#endif


/*
 * shmat with SHM_REMAP maps a System V segment over whatever is at the
 * address: over the gate's control block, App memory replaces it.
 */
static int attack_shmat_remap(void)
{
	const uint64_t cb = attack_control_block();
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	void *p;

	if (!cb || id < 0) {
		printf("FAIL: setting up shmat (%s)\n", strerror(errno));
		return 1;
	}
	p = shmat(id, (void *)(uintptr_t)cb, SHM_REMAP);
	shmctl(id, IPC_RMID, NULL);
	if (attack_refused("shmat(SHM_REMAP) over the gate's control block", p == (void *)-1 ? -1 : 0,
			   EPERM) == 0)
		return 0;
	if (p != (void *)-1)
		attack_exploit_control_block(cb);
	return 1;
}

/* mremap moves the control block away; App memory takes its place. */
static int attack_mremap_away(void)
{
	static _Alignas(4096) unsigned char elsewhere[2 * 4096];
	const uint64_t cb = attack_control_block();
	void *p;

	if (!cb)
		return 1;
	p = mremap((void *)(uintptr_t)cb, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, elsewhere);
	if (attack_refused("mremap of the gate's control block elsewhere", p == MAP_FAILED ? -1 : 0,
			   EPERM) == 0)
		return 0;
	if (p != MAP_FAILED && mmap((void *)(uintptr_t)cb, 4096, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
		attack_exploit_control_block(cb);
	return 1;
}

/* mremap shrinks DOM0's arena: its tail (heap, stacks) is unmapped, for App memory to fill. */
static int attack_mremap_shrink(void)
{
	const struct range *a = attack_dom0_arena();
	void *p;

	if (!a)
		return 1;
	p = mremap((void *)(uintptr_t)a->start, a->end - a->start, 4096, 0);
	return attack_refused("mremap shrinking DOM0's arena to one page", p == MAP_FAILED ? -1 : 0,
			      EPERM);
}

struct advice {
	int advice;
	const char *name;
};

/* Each advice on the first page of DOM0's arena must be refused with EPERM. */
static int advise_arena(const struct advice *list, size_t n)
{
	const struct range *a = attack_dom0_arena();
	int failed = 0;

	if (!a)
		return 1;
	for (size_t i = 0; i < n; i++) {
		char what[80];
		int rc = madvise((void *)(uintptr_t)a->start, 4096, list[i].advice);

		snprintf(what, sizeof(what), "madvise(%s) of DOM0's arena", list[i].name);
		/* For shared memory only: on the private arena the kernel's own EINVAL refuses it too. */
		if (list[i].advice == MADV_REMOVE && rc == -1 && errno == EINVAL)
			continue;
		failed |= attack_refused(what, rc, EPERM);
	}
	return failed;
}

/*
 * Destructive advice on DOM0's anonymous arena: each would zero, or let
 * the kernel zero, DOM0's state (its live page, heap and stacks), or leave
 * it out of a forked child. mseal refuses these on anonymous memory the
 * caller's row may not write (mm/mseal.c, is_ro_anon), as DOM2's may not
 * write DOM0's.
 */
static int attack_madvise_arena(void)
{
	static const struct advice discard[] = {
		{ MADV_DONTNEED, "MADV_DONTNEED" },
		{ MADV_FREE, "MADV_FREE" },
		{ MADV_DONTNEED_LOCKED, "MADV_DONTNEED_LOCKED" },
		{ MADV_REMOVE, "MADV_REMOVE" },
		{ MADV_DONTFORK, "MADV_DONTFORK" },
	};

	return advise_arena(discard, sizeof(discard) / sizeof(discard[0]));
}

/*
 * Advice mseal does not cover: a forked child would keep DOM0's heap and
 * stacks (MADV_KEEPONFORK), a core would hold them (MADV_DODUMP). Only the
 * filter refuses these.
 */
static int attack_madvise_arena_flags(void)
{
	static const struct advice flags[] = {
		{ MADV_KEEPONFORK, "MADV_KEEPONFORK" },
		{ MADV_DODUMP, "MADV_DODUMP" },
	};

	return advise_arena(flags, sizeof(flags) / sizeof(flags[0]));
}

/* The staging window is not sealed (DOM0 remaps it at run time): only the filter guards it. */
static int attack_munmap_staging(void)
{
	const uint64_t stage = attack_staging_window();

	if (!stage)
		return 1;
	return attack_refused("munmap of ARA's staging window", munmap((void *)(uintptr_t)stage, 4096),
			      EPERM);
}

/* Sealed by App code, the staging window could no longer take run-time code: all JIT and dlopen fail. */
static int attack_mseal_staging(void)
{
	const uint64_t stage = attack_staging_window();

	if (!stage)
		return 1;
	return attack_refused("mseal of ARA's staging window",
			      syscall(SYS_mseal, (void *)(uintptr_t)stage, ATTACK_STAGE_SIZE, 0), EPERM);
}

static const struct attack_entry attacks[] = {
	{ "shmat_remap", attack_shmat_remap },
	{ "mremap_away", attack_mremap_away },
	{ "mremap_shrink", attack_mremap_shrink },
	{ "madvise_arena", attack_madvise_arena },
	{ "madvise_arena_flags", attack_madvise_arena_flags },
	{ "munmap_staging", attack_munmap_staging },
	{ "mseal_staging", attack_mseal_staging },
};

int main(int argc, char **argv)
{
	if (argc == 3)
		attack_libara_file = argv[2];
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
