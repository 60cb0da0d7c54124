/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attacks through the system call service (ARA_FID_SYSCALL), which applies
 * the trap path's checks (libara/src/dom0/svc_syscall.c): App code asks it
 * to block SIGSYS, which would turn the filter's next trap into the
 * process's end (the twin, without the check, gets SIGSYS blocked), and to
 * write the old mask into DOM0 (the twin, without the argument range
 * check, gets the write made).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "attack.h"
#include "attack_libara.h"

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))

/* rt_sigprocmask through the service: its result, or 1 with a FAIL line. */
static long service_sigprocmask(int how, uint64_t set, uint64_t oset)
{
	struct ara_syscall_arg a = { .nr = SYS_rt_sigprocmask, .args = { (uint64_t)how, set, oset, 8 } };
	int st = secure_call(ARA_FID_SYSCALL, &a);

	if (st != ARA_OK) {
		printf("FAIL: secure_call(ARA_FID_SYSCALL): %s\n", ara_strerror(st));
		return 1;
	}
	return (long)a.result;
}

/* The thread's mask, as the kernel has it (a query is not trapped). */
static uint64_t thread_mask(void)
{
	uint64_t m = 0;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &m, sizeof(m));
	return m;
}

static int attack_block_sigsys(void)
{
	const uint64_t sys = BIT(SIGSYS);
	long r = service_sigprocmask(SIG_BLOCK, (uintptr_t)&sys, 0);
	uint64_t m = thread_mask();

	if (r == 0 && (m & sys)) {
		printf("BREACH: SIGSYS blocked through the system call service (mask 0x%llx): "
		       "was not refused\n", (unsigned long long)m);
		return 1;
	}
	if (r != 0) {
		printf("FAIL: SIG_BLOCK of SIGSYS through the service returned %ld\n", r);
		return 1;
	}
	printf("ara-evidence: SIG_BLOCK of SIGSYS through the system call service: done without "
	       "SIGSYS (mask 0x%llx)\n", (unsigned long long)m);
	return 0;
}

/*
 * oset at DOM0's write targets (attack_dom0_write_targets), plain and with
 * a tag in the top byte: the service stores with plain stores, which ignore
 * the tag (top-byte-ignore), so a tagged DOM0 address is DOM0 too.
 */
static int attack_oset_into_dom0(void)
{
	uint64_t at[ATTACK_DOM0_MAX + 1];
	const size_t n = attack_dom0_write_targets(at, ATTACK_DOM0_MAX + 1);
	const uint64_t none = 0;

	if (n == 0)
		return 1;
	for (size_t i = 0; i < 2 * n; i++) {
		const uint64_t dst = i < n ? at[i] : at[i - n] | (UINT64_C(0x5a) << 56);
		const long r = service_sigprocmask(SIG_BLOCK, (uintptr_t)&none, dst);

		if (r == -EFAULT)
			continue;
		/* Stop at the first: the mask written over DOM0 data may break ARA. */
		printf("BREACH: the service's oset into DOM0 at 0x%llx was not refused: returned %ld\n",
		       (unsigned long long)dst, r);
		return 1;
	}
	printf("ara-evidence: the system call service's rt_sigprocmask with oset at libara's "
	       "ara_verbose and %zu writable DOM0 ranges, untagged and tagged: EFAULT\n", n - 1);
	return 0;
}

static const struct attack_entry attacks[] = {
	{ "syscall_block_sigsys", attack_block_sigsys },
	{ "syscall_oset_into_dom0", attack_oset_into_dom0 },
};

int main(int argc, char **argv)
{
	if (argc == 3)
		attack_libara_file = argv[2];
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
