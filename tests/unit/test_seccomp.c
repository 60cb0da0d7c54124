/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's seccomp filter as DOM0 installs it (the prefix of
 * libara/src/seccomp_prefix.c + the policy ara-seccomp-gen generated for
 * arm64), run on an interpreter (bpf_interp.c) against arm64 system call
 * numbers that libseccomp resolves: DOM0's text passes, App code gets EPERM
 * for every denied call and nothing else, another architecture is killed.
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
#include "bpf_interp.h"
#include "../../libara/seccomp/policy.h"

#define DOM0_START UINT64_C(0x0000ffff80010000)
#define DOM0_END UINT64_C(0x0000ffff80014000)
#define APP_IP UINT64_C(0x0000aaaabbbb1234)
#define EPERM_VERDICT (SECCOMP_RET_ERRNO | EPERM)

static struct sock_filter prog[4096];
static size_t prog_len;

static int load_filter(void **state)
{
	FILE *f = fopen(ARA_TEST_SECCOMP_POLICY, "rb");
	size_t n;

	(void)state;
	if (!f)
		return -1;
	n = fread(prog + ARA_SECCOMP_PREFIX_LEN, sizeof(prog[0]),
		  sizeof(prog) / sizeof(prog[0]) - ARA_SECCOMP_PREFIX_LEN, f);
	fclose(f);
	if (n == 0 || ara_seccomp_prefix(DOM0_START, DOM0_END, prog))
		return -1;
	prog_len = ARA_SECCOMP_PREFIX_LEN + n;
	return 0;
}

static int nr_of(const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, name);

	assert_int_not_equal(nr, __NR_SCMP_ERROR);
	return nr;
}

static uint32_t verdict(int nr, uint64_t ip, uint64_t arg0)
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.nr = nr;
	d.arch = AUDIT_ARCH_AARCH64;
	d.instruction_pointer = ip;
	d.args[0] = arg0;
	return bpf_run(prog, prog_len, &d);
}

static void app_code_gets_eperm_for_every_denied_call(void **state)
{
	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];

		assert_int_equal(verdict(nr_of(r->name), APP_IP, r->arg0_value), EPERM_VERDICT);
	}
}

static void conditional_rules_deny_only_their_argument(void **state)
{
	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];

		if (r->arg0_mask == 0)
			continue;
		/* An argument the rule does not match passes (unless another rule denies it). */
		assert_int_equal(verdict(nr_of(r->name), APP_IP, 0), SECCOMP_RET_ALLOW);
	}
	assert_int_equal(verdict(nr_of("prctl"), APP_IP, 15 /* PR_SET_NAME */), SECCOMP_RET_ALLOW);
	assert_int_equal(verdict(nr_of("personality"), APP_IP, 0 /* PER_LINUX */), SECCOMP_RET_ALLOW);
}

static void dom0_text_passes_every_call(void **state)
{
	const uint64_t ips[] = { DOM0_START, DOM0_START + 0x1234, DOM0_END - 4, DOM0_END - 1 };

	(void)state;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++)
		for (size_t j = 0; j < sizeof(ips) / sizeof(ips[0]); j++)
			assert_int_equal(verdict(nr_of(ara_seccomp_denied[i].name), ips[j],
						 ara_seccomp_denied[i].arg0_value),
					 SECCOMP_RET_ALLOW);
}

static void addresses_next_to_dom0_or_in_another_4gib_window_do_not_pass(void **state)
{
	const uint64_t ips[] = {
		DOM0_START - 4, DOM0_START - 1, DOM0_END, DOM0_END + 4,
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
		"read", "write", "openat", "close", "mmap", "mprotect", "munmap", "brk",
		"clone", "clone3", "futex", "exit_group", "rt_sigaction", "rt_sigprocmask",
		"rt_sigreturn", "getpid", "gettid", "rseq", "set_robust_list", "madvise",
		"sched_setaffinity", "wait4", "pipe2", "socketpair", "execve", "getrandom",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		assert_int_equal(verdict(nr_of(allowed[i]), APP_IP, 0), SECCOMP_RET_ALLOW);
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
		cmocka_unit_test(app_code_gets_eperm_for_every_denied_call),
		cmocka_unit_test(conditional_rules_deny_only_their_argument),
		cmocka_unit_test(dom0_text_passes_every_call),
		cmocka_unit_test(addresses_next_to_dom0_or_in_another_4gib_window_do_not_pass),
		cmocka_unit_test(what_libc_programs_need_passes),
		cmocka_unit_test(another_architecture_is_killed),
		cmocka_unit_test(the_prefix_refuses_ranges_it_cannot_express),
	};
	return cmocka_run_group_tests(tests, load_filter, NULL);
}
