/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's seccomp filter as DOM0 installs it (the head ara-seccomp-gen
 * generated, the prefix of libara/src/seccomp_prefix.c, the mapping-call
 * block of seccomp_ranges.c, the policy ara-seccomp-gen generated for
 * arm64; seccomp_fixture.c), run on an interpreter
 * (bpf_interp.c) against arm64 system call numbers that libseccomp
 * resolves: the allowed page passes, App code gets EPERM for every denied call
 * and for mapping calls on ARA's ranges and nothing else, another
 * architecture is killed. And every row of the syscall table
 * (libara/seccomp/syscall_table.c) against the filter: each number gets
 * its row's verdict, with harmless arguments and with ARA's addresses in
 * every argument; numbers beyond the table get ENOSYS.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/seccomp_prefix.h"
#include "ara/seccomp_ranges.h"
#include "bpf_interp.h"
#include "seccomp_fixture.h"
#include "../../libara/seccomp/policy.h"
#include "../../libara/seccomp/syscall_table.h"

#define DOM0_START UINT64_C(0x0000ffff80010000)
#define DOM0_END UINT64_C(0x0000ffff80014000)
#define APP_IP UINT64_C(0x0000aaaabbbb1234)
#define EPERM_VERDICT (SECCOMP_RET_ERRNO | EPERM)
#define ENOSYS_VERDICT (SECCOMP_RET_ERRNO | ENOSYS)

/* ARA's ranges for the mapping-call block; the third crosses a 4 GiB line. */
#define R1_START UINT64_C(0x0000ffff80010000)
#define R1_END UINT64_C(0x0000ffff80020000)
#define R2_START UINT64_C(0x0000ffff90000000)
#define R2_END UINT64_C(0x0000ffff90001000)
#define R3_START UINT64_C(0x00000001fffff000)
#define R3_END UINT64_C(0x0000000200001000)

static struct sock_filter prog[4096];
static size_t prog_len, head_len, policy_len;

static int load_filter(void **state)
{
	static struct sock_filter head[4096], policy[4096];
	struct ara_region_set set = { .n = 0 };

	(void)state;
	head_len = seccomp_fixture_read(ARA_TEST_SECCOMP_HEAD, head, 4096);
	policy_len = seccomp_fixture_read(ARA_TEST_SECCOMP_POLICY, policy, 4096);
	if (head_len == 0 || policy_len == 0 || ara_regions_add(&set, R1_START, R1_END, 0) ||
	    ara_regions_add(&set, R2_START, R2_END, 0) || ara_regions_add(&set, R3_START, R3_END, 1))
		return -1;
	prog_len = seccomp_fixture_assemble(head, head_len, DOM0_START, DOM0_END, &set, policy, policy_len,
					    prog, sizeof(prog) / sizeof(prog[0]));
	return prog_len == 0 ? -1 : 0;
}

static int nr_of(const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, name);

	assert_int_not_equal(nr, __NR_SCMP_ERROR);
	return nr;
}

static uint32_t verdict6(int nr, uint64_t ip, const uint64_t args[6])
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.nr = nr;
	d.arch = AUDIT_ARCH_AARCH64;
	d.instruction_pointer = ip;
	memcpy(d.args, args, sizeof(d.args));
	return bpf_run(prog, prog_len, &d);
}

static uint32_t verdict(int nr, uint64_t ip, uint64_t arg0)
{
	const uint64_t args[6] = { arg0, 0, 0, 0, 0, 0 };

	return verdict6(nr, ip, args);
}

/* The call a rule of the policy denies, made from ip. */
static uint32_t rule_verdict(const struct ara_seccomp_rule *r, uint64_t ip)
{
	uint64_t args[6] = { 0, r->arg1_nonzero ? 1 : 0, 0, 0, 0, 0 };

	args[r->arg] = r->value;

	return verdict6(nr_of(r->name), ip, args);
}

/* A mapping call on [addr, addr + len) from App code. */
static uint32_t on_range(const char *call, uint64_t addr, uint64_t len)
{
	const uint64_t args[6] = { addr, len, 0, 0, 0, 0 };

	return verdict6(nr_of(call), APP_IP, args);
}

/* Every call the range block checks, by arm64 number (libseccomp may not know the newest). */
static const int range_nrs[] = { ARA_NR_MUNMAP, ARA_NR_MPROTECT, ARA_NR_MADVISE, ARA_NR_MMAP,
				 ARA_NR_MSEAL,	ARA_NR_MREMAP,	 ARA_NR_MLOCK,	 ARA_NR_MUNLOCK,
				 ARA_NR_MLOCK2, ARA_NR_MBIND,	 ARA_NR_SET_MEMPOLICY_HOME_NODE,
				 ARA_NR_MINCORE };

static void the_numbers_in_the_ranges_block_are_arm64s(void **state)
{
	(void)state;
	assert_int_equal(nr_of("munmap"), ARA_NR_MUNMAP);
	assert_int_equal(nr_of("mremap"), ARA_NR_MREMAP);
	assert_int_equal(nr_of("mmap"), ARA_NR_MMAP);
	assert_int_equal(nr_of("mprotect"), ARA_NR_MPROTECT);
	assert_int_equal(nr_of("madvise"), ARA_NR_MADVISE);
	assert_int_equal(nr_of("mincore"), ARA_NR_MINCORE);
}

static void mapping_calls_on_ara_ranges_get_eperm(void **state)
{
	const char *const calls[] = { "munmap", "mprotect", "madvise", "mmap", "mremap", "mincore" };

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const char *c = calls[i];

		assert_int_equal(on_range(c, R1_START, 4096), EPERM_VERDICT);
		assert_int_equal(on_range(c, R1_END - 4096, 4096), EPERM_VERDICT);
		assert_int_equal(on_range(c, R1_START - 4096, 8192), EPERM_VERDICT); /* straddles */
		assert_int_equal(on_range(c, R1_START - 0x100000, 0x200000), EPERM_VERDICT);
		assert_int_equal(on_range(c, R2_START, 1), EPERM_VERDICT);
		assert_int_equal(on_range(c, 0x10000, R2_END), EPERM_VERDICT); /* covers everything */
		/* a tag on the address: the kernel strips it */
		assert_int_equal(on_range(c, R1_START | (UINT64_C(0x5a) << 56), 4096), EPERM_VERDICT);
		/* the range crossing 4 GiB, from either side */
		assert_int_equal(on_range(c, R3_START + 0x800, 0x100), EPERM_VERDICT);
		assert_int_equal(on_range(c, R3_END - 0x10, 0x10), EPERM_VERDICT);
		assert_int_equal(on_range(c, R3_START - 0x1000, 0x1001), EPERM_VERDICT);
		/* a length whose low half carries into the high half */
		assert_int_equal(on_range(c, UINT64_C(0xfffff800), UINT64_C(0x100000800)), EPERM_VERDICT);
		/* a length that wraps the address space */
		assert_int_equal(on_range(c, 0x10000, UINT64_MAX - 0x1000), EPERM_VERDICT);
	}
	for (size_t i = 0; i < sizeof(range_nrs) / sizeof(range_nrs[0]); i++) {
		const uint64_t args[6] = { R1_START + 4096, 4096, 0, 0, 0, 0 };

		assert_int_equal(verdict6(range_nrs[i], APP_IP, args), EPERM_VERDICT);
	}
	/* mseal (Linux 6.10) is newer than this libseccomp: asm-generic's number. */
	{
		const uint64_t args[6] = { R2_START, 4096, 0, 0, 0, 0 };

		assert_int_equal(verdict6(ARA_NR_MSEAL, APP_IP, args), EPERM_VERDICT);
	}
}

static void mapping_calls_next_to_ara_ranges_pass(void **state)
{
	const char *const calls[] = { "munmap", "mprotect", "madvise", "mmap", "mremap", "mincore" };

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const char *c = calls[i];

		assert_int_equal(on_range(c, R1_START - 4096, 4096), SECCOMP_RET_ALLOW); /* ends at it */
		assert_int_equal(on_range(c, R1_END, 4096), SECCOMP_RET_ALLOW);	    /* starts at its end */
		assert_int_equal(on_range(c, R3_START - 0x1000, 0x1000), SECCOMP_RET_ALLOW);
		assert_int_equal(on_range(c, R3_END, 0x1000), SECCOMP_RET_ALLOW);
		assert_int_equal(on_range(c, UINT64_C(0xfffff800), UINT64_C(0x7ff)), SECCOMP_RET_ALLOW);
		assert_int_equal(on_range(c, 0, 0x10000), SECCOMP_RET_ALLOW);
		assert_int_equal(on_range(c, R1_START + (UINT64_C(1) << 32), 4096), SECCOMP_RET_ALLOW);
	}
	/* Not a mapping call: its arguments are not ranges. */
	assert_int_equal(on_range("read", R1_START, 4096), SECCOMP_RET_ALLOW);
	assert_int_equal(on_range("msync", R1_START, 4096), SECCOMP_RET_ALLOW);
}

static void mremap_new_range_counts_only_with_mremap_fixed(void **state)
{
	const uint64_t fixed[6] = { 0x10000, 4096, 4096, 3 /* MAYMOVE | FIXED */, R1_START, 0 };
	const uint64_t moving[6] = { 0x10000, 4096, 4096, 1 /* MAYMOVE */, R1_START, 0 };
	const uint64_t fixed_next_to[6] = { 0x10000, 4096, 4096, 3, R1_END, 0 };

	(void)state;
	assert_int_equal(verdict6(nr_of("mremap"), APP_IP, fixed), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("mremap"), APP_IP, moving), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict6(nr_of("mremap"), APP_IP, fixed_next_to), SECCOMP_RET_ALLOW);
}

static void dom0_may_map_its_own_ranges(void **state)
{
	const uint64_t args[6] = { R1_START, 4096, 0, 0, 0, 0 };

	(void)state;
	assert_int_equal(verdict6(nr_of("munmap"), DOM0_START + 8, args), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict6(nr_of("mprotect"), DOM0_END - 4, args), SECCOMP_RET_ALLOW);
}

static void app_code_gets_eperm_for_every_denied_call(void **state)
{
	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];

		assert_int_equal(rule_verdict(r, APP_IP), SECCOMP_RET_ERRNO | (r->err ? r->err : EPERM));
	}
	/* clone3's arguments are in memory: ENOSYS, so that glibc falls back to clone. */
	assert_int_equal(verdict(nr_of("clone3"), APP_IP, 0), SECCOMP_RET_ERRNO | ENOSYS);
}

static void conditional_rules_deny_only_their_argument(void **state)
{
	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];

		if (r->mask == 0)
			continue;
		/* An argument the rule does not match passes (unless another rule denies it). */
		assert_int_equal(verdict(nr_of(r->name), APP_IP, 0), SECCOMP_RET_ALLOW);
		if (r->arg1_nonzero) /* its first argument with a zero second one */
			assert_int_equal(verdict(nr_of(r->name), APP_IP, r->value), SECCOMP_RET_ALLOW);
	}
	assert_int_equal(verdict(nr_of("prctl"), APP_IP, 15 /* PR_SET_NAME */), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(nr_of("personality"), APP_IP, 0 /* PER_LINUX */), SECCOMP_RET_ALLOW);
}

/* futex(uaddr, op, ..., uaddr2) from App code. */
static uint32_t futex(uint64_t uaddr, uint64_t op, uint64_t uaddr2)
{
	const uint64_t args[6] = { uaddr, op, 1, 0, uaddr2, 0 };

	return verdict6(nr_of("futex"), APP_IP, args);
}

static void futex_words_written_at_el1_must_not_be_aras(void **state)
{
	/* FUTEX_LOCK_PI, _UNLOCK_PI, _TRYLOCK_PI, _LOCK_PI2: a compare-and-swap of *uaddr. */
	const uint64_t uaddr_ops[] = { 6, 7, 8, 13 };
	/* FUTEX_WAKE_OP, _WAIT_REQUEUE_PI, _CMP_REQUEUE_PI: *uaddr2 too. */
	const uint64_t uaddr2_ops[] = { 5, 11, 12 };
	const uint64_t app = 0x10000, tagged = R1_START | (UINT64_C(0x5a) << 56);

	(void)state;
	assert_int_equal(nr_of("futex"), ARA_NR_FUTEX);
	for (size_t i = 0; i < sizeof(uaddr_ops) / sizeof(uaddr_ops[0]); i++) {
		const uint64_t op = uaddr_ops[i] | 128; /* FUTEX_PRIVATE_FLAG too */

		assert_int_equal(futex(app, op, 0), SECCOMP_RET_ALLOW); /* PI mutexes work */
		assert_int_equal(futex(R1_START, op, 0), EPERM_VERDICT);
		assert_int_equal(futex(R1_END - 4, op, 0), EPERM_VERDICT);
		assert_int_equal(futex(R1_START - 2, op, 0), EPERM_VERDICT); /* straddles */
		assert_int_equal(futex(tagged, op, 0), EPERM_VERDICT);
		assert_int_equal(futex(R3_START + 8, op, 0), EPERM_VERDICT); /* across 4 GiB */
		assert_int_equal(futex(R1_START - 4, op, 0), SECCOMP_RET_ALLOW); /* just below */
		assert_int_equal(futex(app, op, R1_START), SECCOMP_RET_ALLOW); /* uaddr2 unused */
	}
	for (size_t i = 0; i < sizeof(uaddr2_ops) / sizeof(uaddr2_ops[0]); i++) {
		const uint64_t op = uaddr2_ops[i];

		assert_int_equal(futex(app, op, app + 4), SECCOMP_RET_ALLOW);
		assert_int_equal(futex(app, op, R2_START), EPERM_VERDICT);
		assert_int_equal(futex(app, op, R2_END - 1), EPERM_VERDICT);
		assert_int_equal(futex(R2_START, op, app), EPERM_VERDICT);
	}
	/* FUTEX_WAIT, _WAKE, _REQUEUE read words with POR_EL0's checks: they pass. */
	assert_int_equal(futex(R1_START, 0, 0), SECCOMP_RET_ALLOW);
	assert_int_equal(futex(R1_START, 1 | 128, 0), SECCOMP_RET_ALLOW);
	assert_int_equal(futex(app, 3, R1_START), SECCOMP_RET_ALLOW);
}

static void dom0_text_passes_every_call(void **state)
{
	/* An svc's address plus 4: its first word's, one inside, its second-to-last word's. */
	const uint64_t ips[] = { DOM0_START + 4, DOM0_START + 0x1234, DOM0_END - 4, DOM0_END - 1 };

	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++)
		for (size_t j = 0; j < sizeof(ips) / sizeof(ips[0]); j++)
			assert_int_equal(rule_verdict(&ara_seccomp_denied[i], ips[j]), SECCOMP_RET_ALLOW);
	for (uint32_t nr = 0; nr <= ARA_SYSCALL_LAST + 8; nr++)
		for (size_t j = 0; j < sizeof(ips) / sizeof(ips[0]); j++)
			assert_int_equal(verdict((int)nr, ips[j], R1_START), SECCOMP_RET_ALLOW);
}

static void addresses_next_to_dom0_or_in_another_4gib_window_do_not_pass(void **state)
{
	const uint64_t ips[] = {
		DOM0_START - 4, DOM0_START - 1, DOM0_END, DOM0_END + 4,
		DOM0_START,				/* an svc on the last word below */
		DOM0_START + (UINT64_C(1) << 32),	/* same low half, other high half */
		DOM0_START - (UINT64_C(1) << 32),
		DOM0_START & UINT64_C(0xffffffff),	/* high half zero */
		DOM0_START | (UINT64_C(0x5a) << 56),	/* a tag on DOM0's address */
	};
	int ptrace = nr_of("ptrace");

	(void)state;
	for (size_t j = 0; j < sizeof(ips) / sizeof(ips[0]); j++)
		assert_int_equal(verdict(ptrace, ips[j], 0), EPERM_VERDICT);
}

static void what_libc_programs_need_passes(void **state)
{
	const char *const allowed[] = {
		"read", "write", "close", "mmap", "mprotect", "munmap", "brk",
		"clone" /* without CLONE_VM: fork */, "futex", "exit_group", "getpid", "gettid", "madvise",
		"sched_setaffinity", "wait4", "pipe2", "socketpair", "getrandom",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		assert_int_equal(verdict(nr_of(allowed[i]), APP_IP, 0), SECCOMP_RET_ALLOW);
}

static void trapped_calls_from_app_code_trap_and_from_dom0_pass(void **state)
{
	(void)state;
	assert_true(ara_seccomp_trapped_count >= 4);
	for (size_t i = 0; i < ara_seccomp_trapped_count; i++) {
		const struct ara_seccomp_trap *t = &ara_seccomp_trapped[i];
		uint64_t args[6] = { 0x1234, 0, 0, 0, 0, 0 };
		int nr = nr_of(t->name);

		/* Its bits among others, with a mask exactly its value (a prctl option), or any non-zero value. */
		args[t->arg] = t->nonzero ? 0x5000 : t->mask ? t->bits : args[t->arg] | t->bits;
		assert_int_equal(verdict6(nr, APP_IP, args), SECCOMP_RET_TRAP);
		assert_int_equal(verdict6(nr, DOM0_START + 0x40, args), SECCOMP_RET_ALLOW);
		if (t->nonzero) { /* zero: the call goes on to the rest of the policy */
			args[t->arg] = 0;
			assert_int_equal(verdict6(nr, APP_IP, args), SECCOMP_RET_ALLOW);
		} else if (t->bits) { /* without them (another value) the call goes on to the rest of the policy */
			args[t->arg] = t->mask ? t->bits + 1 : args[t->arg] & ~t->bits;
			assert_int_equal(verdict6(nr, APP_IP, args), SECCOMP_RET_ALLOW);
		}
	}
	assert_int_equal(verdict(nr_of("rt_sigreturn"), APP_IP, 0), SECCOMP_RET_TRAP);
	assert_int_equal(verdict(nr_of("sigaltstack"), APP_IP, 0), SECCOMP_RET_TRAP);
	{
		const uint64_t rx[6] = { 0x10000, 4096, 5 /* PROT_READ | PROT_EXEC */, 2, 0, 0 };
		const uint64_t rw[6] = { 0x10000, 4096, 3 /* PROT_READ | PROT_WRITE */, 2, 0, 0 };

		assert_int_equal(verdict6(nr_of("mmap"), APP_IP, rx), SECCOMP_RET_TRAP);
		assert_int_equal(verdict6(nr_of("mprotect"), APP_IP, rx), SECCOMP_RET_TRAP);
		assert_int_equal(verdict6(nr_of("mmap"), APP_IP, rw), SECCOMP_RET_ALLOW);
		assert_int_equal(verdict6(nr_of("mprotect"), APP_IP, rw), SECCOMP_RET_ALLOW);
	}
	{
		/* glibc's pthread_create (CLONE_VM and more) traps; its fork does not. */
		const uint64_t thread[6] = { 0x3d0f00, 0x10000, 0x20000, 0x30000, 0x20000, 0 };
		const uint64_t fork[6] = { 0x1200011, 0, 0, 0, 0x20000, 0 };

		assert_int_equal(verdict6(nr_of("clone"), APP_IP, thread), SECCOMP_RET_TRAP);
		assert_int_equal(verdict6(nr_of("clone"), APP_IP, fork), SECCOMP_RET_ALLOW);
	}
}

/* What a row's rule gives App code, for arguments that meet none of its conditions. */
static uint32_t row_verdict(const struct ara_syscall *r)
{
	switch (r->rule) {
	case ARA_SYSCALL_DENIED:
		return SECCOMP_RET_ERRNO | (uint32_t)(r->err ? r->err : EPERM);
	case ARA_SYSCALL_TRAPPED:
		return SECCOMP_RET_TRAP;
	case ARA_SYSCALL_ABSENT:
		return ENOSYS_VERDICT;
	default:
		return SECCOMP_RET_ALLOW;
	}
}

/* What the row gives App code with ARA's address in every argument: a non-zero one traps where a rule says so. */
static uint32_t row_verdict_aras(const struct ara_syscall *r)
{
	for (size_t j = 0; r->name && j < ara_seccomp_trapped_count; j++)
		if (ara_seccomp_trapped[j].nonzero && strcmp(ara_seccomp_trapped[j].name, r->name) == 0)
			return SECCOMP_RET_TRAP;
	return row_verdict(r);
}

/* Arguments that name ARA's first range as a range-checked call reads them. */
static void on_aras_range(uint32_t nr, uint64_t args[6])
{
	memset(args, 0, 6 * sizeof(args[0]));
	if (nr == ARA_NR_CLONE) { /* a fork whose child's exit zeroes args[4] */
		args[0] = 0x00200000 /* CLONE_CHILD_CLEARTID */ | 17 /* SIGCHLD */;
		args[4] = R1_START;
		return;
	}
	args[0] = R1_START;
	args[1] = nr == ARA_NR_FUTEX ? 6 /* FUTEX_LOCK_PI */ : 4096;
}

static void every_row_of_the_table_is_what_the_filter_does(void **state)
{
	const uint64_t zero[6] = { 0 };
	/* ARA's address in every argument: only the range-checked calls may see it. */
	const uint64_t aras[6] = { R1_START, R1_START, R1_START, R1_START, R1_START, R1_START };

	(void)state;
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		for (uint32_t nr = r->nr; nr <= r->last; nr++) {
			uint64_t args[6];

			if (verdict6((int)nr, APP_IP, zero) != row_verdict(r) ||
			    (!(r->flags & ARA_SYSCALL_RANGES) && verdict6((int)nr, APP_IP, aras) != row_verdict_aras(r)))
				fail_msg("%u (%s): the filter disagrees with the table's rule", nr,
					 r->name ? r->name : "unused");
			on_aras_range(nr, args);
			if (r->flags & ARA_SYSCALL_RANGES)
				assert_int_equal(verdict6((int)nr, APP_IP, args), EPERM_VERDICT);
		}
	}
}

static void argument_conditions_are_on_rows_that_say_so(void **state)
{
	(void)state;
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];
		int conditioned = 0;

		for (size_t j = 0; r->name && j < ara_seccomp_denied_count; j++)
			conditioned |= strcmp(ara_seccomp_denied[j].name, r->name) == 0;
		for (size_t j = 0; r->name && j < ara_seccomp_trapped_count; j++)
			conditioned |= strcmp(ara_seccomp_trapped[j].name, r->name) == 0;
		assert_int_equal(conditioned, !!(r->flags & ARA_SYSCALL_ARGS));
	}
}

static void numbers_not_reviewed_get_enosys(void **state)
{
	const uint32_t beyond[] = { ARA_SYSCALL_LAST + 1, ARA_SYSCALL_LAST + 2, 500, 1024, 0x7fffffffu,
				    0xffffffffu };
	const uint32_t unused[] = { 18, 42, 244, 250, 259, 295, 300, 403, 423, 453 };

	(void)state;
	for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++)
		assert_int_equal(verdict((int)beyond[i], APP_IP, 0), ENOSYS_VERDICT);
	for (size_t i = 0; i < sizeof(unused) / sizeof(unused[0]); i++)
		assert_int_equal(verdict((int)unused[i], APP_IP, 0), ENOSYS_VERDICT);
	/* The numbers next to them are calls. */
	assert_int_equal(verdict(ARA_SYSCALL_LAST, APP_IP, 0x10000), SECCOMP_RET_ALLOW); /* mseal */
	assert_int_equal(verdict(243, APP_IP, 0), SECCOMP_RET_ALLOW);			  /* recvmmsg */
	assert_int_equal(verdict(260, APP_IP, 0), SECCOMP_RET_ALLOW);			  /* wait4 */
	assert_int_equal(verdict(424, APP_IP, 0), SECCOMP_RET_ALLOW); /* pidfd_send_signal */
	assert_int_equal(verdict(454, APP_IP, 0), SECCOMP_RET_ALLOW); /* futex_wake */
	/* Another architecture's numbers still meet the architecture check. */
	{
		struct seccomp_data d;

		memset(&d, 0, sizeof(d));
		d.nr = 600;
		d.arch = AUDIT_ARCH_X86_64;
		d.instruction_pointer = APP_IP;
		assert_int_equal(bpf_run(prog, prog_len, &d), SECCOMP_RET_KILL_PROCESS);
	}
}

static void the_calls_that_act_beyond_the_process_are_denied(void **state)
{
	const char *const calls[] = {
		"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
		"swapon", "swapoff", "reboot", "acct", "settimeofday", "clock_settime",
		"chroot", "setns", "request_key", "pidfd_getfd", "fanotify_init",
		"landlock_restrict_self",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		assert_int_equal(verdict(nr_of(calls[i]), APP_IP, 0), EPERM_VERDICT);
	/* Reading the clock, and the clock discipline, stays allowed. */
	assert_int_equal(verdict(nr_of("clock_gettime"), APP_IP, 0), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(nr_of("adjtimex"), APP_IP, 0), SECCOMP_RET_ALLOW);
}

static void shmat_may_not_replace_mappings(void **state)
{
	const uint64_t remap[6] = { 1, R1_START, 040000 /* SHM_REMAP */, 0, 0, 0 };
	const uint64_t remap_app[6] = { 1, 0x10000, 040000 | 010000 /* SHM_RND */, 0, 0, 0 };
	const uint64_t plain[6] = { 1, 0x10000, 010000 /* SHM_RDONLY */, 0, 0, 0 };
	const uint64_t exec[6] = { 1, 0x10000, 0100000 /* SHM_EXEC */, 0, 0, 0 };

	(void)state;
	assert_int_equal(verdict6(nr_of("shmat"), APP_IP, remap), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("shmat"), APP_IP, remap_app), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("shmat"), APP_IP, plain), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict6(nr_of("shmat"), APP_IP, exec), SECCOMP_RET_TRAP);
	assert_int_equal(verdict6(nr_of("shmat"), DOM0_START + 8, remap), SECCOMP_RET_ALLOW);
}

static void prctl_options_on_mappings_are_denied(void **state)
{
	const uint64_t vma[6] = { 0x53564d41 /* PR_SET_VMA */, 0 /* ANON_NAME */, R1_START, 4096, 0x10000,
				  0 };
	const uint64_t merge[6] = { 67 /* PR_SET_MEMORY_MERGE */, 1, 0, 0, 0, 0 };
	const uint64_t get_merge[6] = { 68 /* PR_GET_MEMORY_MERGE */, 0, 0, 0, 0, 0 };

	(void)state;
	assert_int_equal(verdict6(nr_of("prctl"), APP_IP, vma), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("prctl"), APP_IP, merge), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("prctl"), APP_IP, get_merge), SECCOMP_RET_ALLOW);
}

static void terminal_input_cannot_be_pushed(void **state)
{
	const uint64_t sti[6] = { 0, 0x5412 /* TIOCSTI */, 0x10000, 0, 0, 0 };
	const uint64_t sti_high[6] = { 0, UINT64_C(0xffffffff00005412), 0x10000, 0, 0, 0 };
	const uint64_t linux_paste[6] = { 0, 0x541c /* TIOCLINUX */, 0x10000, 0, 0, 0 };
	const uint64_t tcgets[6] = { 0, 0x5401 /* TCGETS */, 0x10000, 0, 0, 0 };

	(void)state;
	assert_int_equal(verdict6(nr_of("ioctl"), APP_IP, sti), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("ioctl"), APP_IP, sti_high), EPERM_VERDICT); /* cmd is 32-bit */
	assert_int_equal(verdict6(nr_of("ioctl"), APP_IP, linux_paste), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("ioctl"), APP_IP, tcgets), SECCOMP_RET_ALLOW);
}

/* ioctl(fd, request, arg) from App code. */
static uint32_t ioctl_verdict(uint64_t request)
{
	const uint64_t args[6] = { 0, request, 0x10000, 0, 0, 0 };

	return verdict6(nr_of("ioctl"), APP_IP, args);
}

static void vt_keyboard_tables_cannot_be_written(void **state)
{
	/* KDSKBSENT, KDSKBENT, KDSETKEYCODE, KDSKBDIACR, KDSKBDIACRUC: what a key press types. */
	const uint64_t writes[] = { 0x4b49, 0x4b47, 0x4b4d, 0x4b4b, 0x4bfb };
	/*
	 * Their readers, and what changes only how this VT's own keys arrive (KDSKBMODE,
	 * KDSKBMETA, KDSKBLED: raw codes, the meta key, the lock flags), never a chosen text.
	 */
	const uint64_t others[] = { 0x4b48, 0x4b46, 0x4b4c, 0x4b4a, 0x4bfa, 0x4b45, 0x4b63, 0x4b65 };

	(void)state;
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		assert_int_equal(ioctl_verdict(writes[i]), EPERM_VERDICT);
		assert_int_equal(ioctl_verdict(writes[i] | UINT64_C(0xffffffff00000000)), EPERM_VERDICT);
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		assert_int_equal(ioctl_verdict(others[i]), SECCOMP_RET_ALLOW);
}

static void user_namespaces_cannot_be_made(void **state)
{
	const uint64_t newuser = 0x10000000, newns = 0x20000, sigchld = 17;
	const uint64_t vfork = 0x4000 | 0x100 | sigchld; /* CLONE_VFORK | CLONE_VM */
	const int unshare = nr_of("unshare"), clone = nr_of("clone");

	(void)state;
	assert_int_equal(verdict(unshare, APP_IP, newuser), EPERM_VERDICT);
	assert_int_equal(verdict(unshare, APP_IP, newuser | newns), EPERM_VERDICT);
	assert_int_equal(verdict(clone, APP_IP, newuser | sigchld), EPERM_VERDICT);
	/* Denied before the CLONE_VM trap: ARA's clone never makes such a child. */
	assert_int_equal(verdict(clone, APP_IP, newuser | vfork), EPERM_VERDICT);
	assert_int_equal(verdict(clone, APP_IP, vfork), SECCOMP_RET_TRAP);
	/* The other namespaces are the kernel's to refuse (CAP_SYS_ADMIN, dropped). */
	assert_int_equal(verdict(unshare, APP_IP, newns), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(clone, APP_IP, newns | sigchld), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(unshare, APP_IP, 0x400 /* CLONE_FILES */), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(unshare, DOM0_START + 8, newuser), SECCOMP_RET_ALLOW);
}

static void page_presence_of_aras_ranges_is_not_told(void **state)
{
	const uint64_t mincore_app[6] = { 0x10000, 0x10000, 0x20000, 0, 0, 0 };
	/* move_pages(0, 1, pages, NULL, status, 0): the addresses are in memory. */
	const uint64_t move_stat[6] = { 0, 1, 0x10000, 0, 0x20000, 0 };
	/* get_mempolicy(&node, NULL, 0, addr, MPOL_F_NODE | MPOL_F_ADDR): POE refuses DOM0's page. */
	const uint64_t node_of[6] = { 0x10000, 0, 0, R1_START, 3, 0 };

	(void)state;
	assert_int_equal(on_range("mincore", R1_START, 4096), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("mincore"), APP_IP, mincore_app), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict6(nr_of("move_pages"), APP_IP, move_stat), EPERM_VERDICT);
	assert_int_equal(verdict6(nr_of("get_mempolicy"), APP_IP, node_of), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(nr_of("migrate_pages"), APP_IP, 0), SECCOMP_RET_ALLOW);
}

/* A fork's CLONE_CHILD_CLEARTID word is the child's set_tid_address word. */
static void clone_cleartid_words_must_not_be_aras(void **state)
{
	const uint64_t fork_flags = 0x01200000 /* CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID */ | 17;
	const uint64_t on_ara[6] = { fork_flags, 0, 0, 0, R2_START, 0 };
	const uint64_t straddles[6] = { fork_flags, 0, 0, 0, R2_END - 2, 0 };
	const uint64_t on_app[6] = { fork_flags, 0, 0, 0, R2_END, 0 };
	const uint64_t no_cleartid[6] = { 0x01000000 | 17, 0, 0, 0, R2_START, 0 };

	(void)state;
	assert_int_equal(nr_of("clone"), ARA_NR_CLONE);
	assert_int_equal(verdict6(ARA_NR_CLONE, APP_IP, on_ara), EPERM_VERDICT);
	assert_int_equal(verdict6(ARA_NR_CLONE, APP_IP, straddles), EPERM_VERDICT);
	assert_int_equal(verdict6(ARA_NR_CLONE, APP_IP, on_app), SECCOMP_RET_ALLOW);
	/* Without CLONE_CHILD_CLEARTID the kernel ignores args[4]. */
	assert_int_equal(verdict6(ARA_NR_CLONE, APP_IP, no_cleartid), SECCOMP_RET_ALLOW);
}

static void set_tid_address_words_must_not_be_aras(void **state)
{
	const struct {
		uint64_t start, end;
	} ranges[] = { { R1_START, R1_END }, { R2_START, R2_END }, { R3_START, R3_END } };
	const int nr = nr_of("set_tid_address");

	(void)state;
	assert_int_equal(nr, ARA_NR_SET_TID_ADDRESS);
	assert_int_equal(verdict(nr, APP_IP, 0), SECCOMP_RET_ALLOW); /* NULL: no word */
	assert_int_equal(verdict(nr, APP_IP, 0x10000), SECCOMP_RET_ALLOW);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		assert_int_equal(verdict(nr, APP_IP, ranges[i].start), EPERM_VERDICT);
		assert_int_equal(verdict(nr, APP_IP, ranges[i].start - 2), EPERM_VERDICT); /* straddles */
		assert_int_equal(verdict(nr, APP_IP, ranges[i].end - 4), EPERM_VERDICT);
		assert_int_equal(verdict(nr, APP_IP, ranges[i].end - 1), EPERM_VERDICT);
		assert_int_equal(verdict(nr, APP_IP, ranges[i].start | (UINT64_C(0x5a) << 56)),
				 EPERM_VERDICT); /* tagged */
		assert_int_equal(verdict(nr, APP_IP, ranges[i].start - 4), SECCOMP_RET_ALLOW);
		assert_int_equal(verdict(nr, APP_IP, ranges[i].end), SECCOMP_RET_ALLOW);
	}
	assert_int_equal(verdict(nr, DOM0_START + 8, R1_START), SECCOMP_RET_ALLOW);
}


static void zero_lengths_count_as_one_byte(void **state)
{
	const struct {
		uint64_t start, end;
	} ranges[] = { { R1_START, R1_END }, { R2_START, R2_END }, { R3_START, R3_END } };

	(void)state;
	for (size_t c = 0; c < sizeof(range_nrs) / sizeof(range_nrs[0]); c++) {
		for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
			const uint64_t at_first[6] = { ranges[i].start, 0, 0, 0, 0, 0 };
			const uint64_t at_last[6] = { ranges[i].end - 1, 0, 0, 0, 0, 0 };
			const uint64_t one_last[6] = { ranges[i].end - 1, 1, 0, 0, 0, 0 };
			const uint64_t before[6] = { ranges[i].start - 1, 0, 0, 0, 0, 0 };
			const uint64_t one_before[6] = { ranges[i].start - 1, 1, 0, 0, 0, 0 };
			const uint64_t after[6] = { ranges[i].end, 0, 0, 0, 0, 0 };
			const uint64_t tagged[6] = { ranges[i].start | (UINT64_C(0x5a) << 56), 0, 0, 0, 0, 0 };

			assert_int_equal(verdict6(range_nrs[c], APP_IP, at_first), EPERM_VERDICT);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, at_last), EPERM_VERDICT);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, one_last), EPERM_VERDICT);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, tagged), EPERM_VERDICT);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, before), SECCOMP_RET_ALLOW);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, one_before), SECCOMP_RET_ALLOW);
			assert_int_equal(verdict6(range_nrs[c], APP_IP, after), SECCOMP_RET_ALLOW);
		}
	}
	/* mremap's new range with MREMAP_FIXED: a zero length there too. */
	{
		const uint64_t fixed[6] = { 0x10000, 4096, 0, 3, R2_START, 0 };
		const uint64_t fixed_before[6] = { 0x10000, 4096, 0, 3, R2_START - 1, 0 };

		assert_int_equal(verdict6(ARA_NR_MREMAP, APP_IP, fixed), EPERM_VERDICT);
		assert_int_equal(verdict6(ARA_NR_MREMAP, APP_IP, fixed_before), SECCOMP_RET_ALLOW);
	}
}

static void the_filter_fits_bpf_maxinsns_with_the_most_ranges(void **state)
{
	const size_t most = head_len + ARA_SECCOMP_PREFIX_LEN + ara_seccomp_ranges_len(ARA_REGIONS_MAX) + policy_len;

	(void)state;
	print_message("filter: %zu (head) + %u (prefix) + %zu (range block, 3 ranges) + %zu (policy) "
		      "instructions; %zu with %u ranges\n", head_len, ARA_SECCOMP_PREFIX_LEN,
		      ara_seccomp_ranges_len(3), policy_len, most, ARA_REGIONS_MAX);
	assert_int_equal(prog_len, head_len + ARA_SECCOMP_PREFIX_LEN + ara_seccomp_ranges_len(3) + policy_len);
	assert_true(most <= BPF_MAXINSNS);
}

static void another_architecture_is_killed(void **state)
{
	struct seccomp_data d;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.nr = 0;
	d.arch = AUDIT_ARCH_X86_64;
	d.instruction_pointer = APP_IP;
	assert_int_equal(bpf_run(prog, prog_len, &d), SECCOMP_RET_KILL_PROCESS);
}

/* The instruction pointer is the svc's address plus 4: only svcs on the page pass. */
static void the_prefix_passes_only_calls_made_on_the_page(void **state)
{
	struct sock_filter p[ARA_SECCOMP_PREFIX_LEN + 1];
	const struct {
		uint64_t ip;
		uint32_t verdict;
	} cases[] = {
		{ 0x10000, SECCOMP_RET_TRAP },	  /* an svc on the last word of the page below */
		{ 0x10004, SECCOMP_RET_ALLOW },	  /* the page's first word */
		{ 0x10ffc, SECCOMP_RET_ALLOW },	  /* its second-to-last word */
		{ 0x11000, SECCOMP_RET_TRAP },	  /* its last word, which holds no svc */
		{ 0x11004, SECCOMP_RET_TRAP },	  /* the page above */
		{ 0x100010004, SECCOMP_RET_TRAP }, /* another 4 GiB window */
	};

	(void)state;
	assert_int_equal(ara_seccomp_prefix(0x10000, 0x11000, p), 0);
	p[ARA_SECCOMP_PREFIX_LEN] = (struct sock_filter){ BPF_RET | BPF_K, 0, 0, SECCOMP_RET_TRAP };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seccomp_data d;

		memset(&d, 0, sizeof(d));
		d.arch = AUDIT_ARCH_AARCH64;
		d.instruction_pointer = cases[i].ip;
		assert_int_equal(bpf_run(p, ARA_SECCOMP_PREFIX_LEN + 1, &d), cases[i].verdict);
	}
}

static void the_prefix_refuses_ranges_it_cannot_express(void **state)
{
	struct sock_filter p[ARA_SECCOMP_PREFIX_LEN];

	(void)state;
	assert_int_equal(ara_seccomp_prefix(0x1000, 0x1000, p), -1);		/* empty */
	assert_int_equal(ara_seccomp_prefix(0x2000, 0x1000, p), -1);		/* inverted */
	assert_int_equal(ara_seccomp_prefix(0xfffff000, 0x100001000, p), -1); /* crosses 4 GiB */
	assert_int_equal(ara_seccomp_prefix(0xfffff000, 0x100000000, p), 0);  /* ends at it */
	assert_int_equal(ara_seccomp_prefix(0, 0, p), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_numbers_in_the_ranges_block_are_arm64s),
		cmocka_unit_test(the_prefix_passes_only_calls_made_on_the_page),
		cmocka_unit_test(mapping_calls_on_ara_ranges_get_eperm),
		cmocka_unit_test(mapping_calls_next_to_ara_ranges_pass),
		cmocka_unit_test(mremap_new_range_counts_only_with_mremap_fixed),
		cmocka_unit_test(dom0_may_map_its_own_ranges),
		cmocka_unit_test(app_code_gets_eperm_for_every_denied_call),
		cmocka_unit_test(conditional_rules_deny_only_their_argument),
		cmocka_unit_test(dom0_text_passes_every_call),
		cmocka_unit_test(addresses_next_to_dom0_or_in_another_4gib_window_do_not_pass),
		cmocka_unit_test(what_libc_programs_need_passes),
		cmocka_unit_test(trapped_calls_from_app_code_trap_and_from_dom0_pass),
		cmocka_unit_test(futex_words_written_at_el1_must_not_be_aras),
		cmocka_unit_test(another_architecture_is_killed),
		cmocka_unit_test(the_filter_fits_bpf_maxinsns_with_the_most_ranges),
		cmocka_unit_test(the_prefix_refuses_ranges_it_cannot_express),
		cmocka_unit_test(every_row_of_the_table_is_what_the_filter_does),
		cmocka_unit_test(argument_conditions_are_on_rows_that_say_so),
		cmocka_unit_test(numbers_not_reviewed_get_enosys),
		cmocka_unit_test(the_calls_that_act_beyond_the_process_are_denied),
		cmocka_unit_test(shmat_may_not_replace_mappings),
		cmocka_unit_test(prctl_options_on_mappings_are_denied),
		cmocka_unit_test(terminal_input_cannot_be_pushed),
		cmocka_unit_test(vt_keyboard_tables_cannot_be_written),
		cmocka_unit_test(user_namespaces_cannot_be_made),
		cmocka_unit_test(page_presence_of_aras_ranges_is_not_told),
		cmocka_unit_test(set_tid_address_words_must_not_be_aras),
		cmocka_unit_test(clone_cleartid_words_must_not_be_aras),
		cmocka_unit_test(zero_lengths_count_as_one_byte),
	};
	return cmocka_run_group_tests(tests, load_filter, NULL);
}
