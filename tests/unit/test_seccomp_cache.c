/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The head of ARA's seccomp filter (libara/seccomp/cache_head.h): the
 * filter with it and the filter without it (the layout before it existed:
 * prefix, range block, policy) give the same action for every system call
 * number, every class of instruction pointer and a set of argument vectors
 * that meets every rule; a head that lets one number too many through is
 * caught. And what the kernel's action cache makes of it: the emulation of
 * seccomp_is_const_allow() (bpf_interp.c) over the filter as installed marks
 * the numbers the table allows whatever the caller and the arguments, and
 * only those.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/audit.h>
#include <string.h>

#include "ara/seccomp_prefix.h"
#include "ara/seccomp_ranges.h"
#include "bpf_interp.h"
#include "seccomp_fixture.h"
#include "../../libara/seccomp/cache_head.h"
#include "../../libara/seccomp/policy.h"
#include "../../libara/seccomp/syscall_table.h"

/* DOM0's range, with ARA's system-call page inside it, and two more ranges (one across 4 GiB). */
#define R1_START UINT64_C(0x0000ffff80010000)
#define R1_END UINT64_C(0x0000ffff80020000)
#define PAGE_START (R1_START + 0x4000)
#define PAGE_END (R1_START + 0x5000)
#define R2_START UINT64_C(0x0000ffff90000000)
#define R2_END UINT64_C(0x0000ffff90001000)
#define R3_START UINT64_C(0x00000001fffff000)
#define R3_END UINT64_C(0x0000000200001000)

#define APP_IP UINT64_C(0x0000aaaabbbb1234)

/* Linux 6.12's NR_syscalls on arm64: the numbers the kernel's cache covers. */
#define KERNEL_NR 463u
/*
 * The numbers the table allows whatever the caller and the arguments: 240
 * today. The rest cannot be cached without changing a rule: the kernel
 * caches only ALLOW, and ARA's system-call page gets ALLOW for the numbers
 * App code is refused or trapped on.
 */
#define CACHEABLE_FLOOR 230u

#define MAX_INSNS 4096
static struct sock_filter head[MAX_INSNS], policy[MAX_INSNS];
static size_t head_len, policy_len;
static struct ara_region_set set;

/* Every class of caller: the page passes everything; the others are App code to the filter. */
static const uint64_t ips[] = {
	PAGE_START + 4, PAGE_END - 4,		 /* ARA's system-call page */
	R1_START + 0x100,			 /* DOM0's text outside the page */
	UINT64_C(0x0000ffff90100040),		 /* the DOM1 gate */
	APP_IP,					 /* App text */
	PAGE_START, PAGE_END,			 /* next to the page (an svc on the word below it) */
	PAGE_START + (UINT64_C(1) << 32),	 /* the page's low half in another 4 GiB window */
	PAGE_START | (UINT64_C(0x5a) << 56),	 /* a tag on the page's address */
	0,
};
#define N_IPS (sizeof(ips) / sizeof(ips[0]))

static const uint32_t archs[] = { AUDIT_ARCH_AARCH64, AUDIT_ARCH_ARM, AUDIT_ARCH_X86_64 };

/* Argument vectors: the fixed ones meet the range block's rules; one per policy rule follows. */
#define N_FIXED 13
#define MAX_VECTORS 96
static uint64_t vectors[MAX_VECTORS][6] = {
	{ 0 },
	{ UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX },
	{ R1_START, R1_START, R1_START, R1_START, R1_START, R1_START },
	{ R1_START, 4096 },			 /* a mapping call on DOM0's range */
	{ R3_START - 0x1000, 0x1001 },		 /* across 4 GiB into a range */
	{ R1_START, 0 },			 /* a zero length */
	{ R1_START, 6 /* FUTEX_LOCK_PI */ },
	{ 0x10000, 5 /* FUTEX_WAKE_OP */, 1, 0, R2_START },
	{ 0x10000, 4096, 5 /* PROT_READ | PROT_EXEC */, 2 },
	{ 0x10000, 4096, 4096, 3 /* MREMAP_MAYMOVE | MREMAP_FIXED */, R1_START },
	{ 0x3d0f00, 0x10000, 0x20000, 0x30000, 0x20000 }, /* pthread_create's clone */
	{ 0, 0x5412 /* TIOCSTI */, 0x10000 },
	{ 1, R1_START, 040000 /* SHM_REMAP */ },
};
static size_t n_vectors;

static int setup(void **state)
{
	(void)state;
	head_len = seccomp_fixture_read(ARA_TEST_SECCOMP_HEAD, head, MAX_INSNS);
	policy_len = seccomp_fixture_read(ARA_TEST_SECCOMP_POLICY, policy, MAX_INSNS);
	if (head_len == 0 || policy_len == 0 || ara_regions_add(&set, R1_START, R1_END, 0) ||
	    ara_regions_add(&set, R2_START, R2_END, 0) || ara_regions_add(&set, R3_START, R3_END, 1))
		return -1;
	n_vectors = N_FIXED;
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];

		memset(vectors[n_vectors], 0, sizeof(vectors[0]));
		vectors[n_vectors][1] = r->arg1_nonzero;
		vectors[n_vectors++][r->arg] = r->value;
	}
	for (size_t i = 0; i < ara_seccomp_trapped_count; i++) {
		const struct ara_seccomp_trap *t = &ara_seccomp_trapped[i];

		memset(vectors[n_vectors], 0, sizeof(vectors[0]));
		vectors[n_vectors++][t->arg] = t->bits;
	}
	return n_vectors <= MAX_VECTORS ? 0 : -1;
}

/* The filter DOM0 installs with this head (len 0: the layout without one). */
static size_t assemble(const struct sock_filter *h, size_t len, struct sock_filter *out)
{
	size_t n = seccomp_fixture_assemble(h, len, PAGE_START, PAGE_END, &set, policy, policy_len, out,
					    MAX_INSNS);

	assert_true(n > 0);
	return n;
}

static uint32_t run(const struct sock_filter *prog, size_t len, uint32_t arch, uint32_t nr, uint64_t ip,
		    const uint64_t args[6])
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.nr = (int)nr;
	d.arch = arch;
	d.instruction_pointer = ip;
	memcpy(d.args, args, sizeof(d.args));
	return bpf_run(prog, len, &d);
}

/* The numbers compared: every reviewed one, some above, and the extremes. */
static int next_nr(uint32_t *nr)
{
	if (*nr < ARA_SYSCALL_LAST + 16) {
		++*nr;
		return 1;
	}
	if (*nr < 1024) {
		*nr = 1024;
		return 1;
	}
	if (*nr < 0xffffffffu) {
		*nr = 0xffffffffu;
		return 1;
	}
	return 0;
}

/*
 * The first number (in next_nr's order) for which a and b disagree for some
 * architecture, caller and argument vector, or -1; says which on a mismatch.
 */
static int64_t first_mismatch(const struct sock_filter *a, size_t a_len, const struct sock_filter *b,
			      size_t b_len)
{
	uint32_t nr = 0;

	do {
		for (size_t c = 0; c < sizeof(archs) / sizeof(archs[0]); c++)
			for (size_t i = 0; i < N_IPS; i++)
				for (size_t v = 0; v < n_vectors; v++) {
					const uint32_t va = run(a, a_len, archs[c], nr, ips[i], vectors[v]);
					const uint32_t vb = run(b, b_len, archs[c], nr, ips[i], vectors[v]);

					if (va != vb) {
						print_message("nr %u arch %#x ip %#llx vector %zu: %#x, %#x\n", nr,
							      archs[c], (unsigned long long)ips[i], v, va, vb);
						return nr;
					}
				}
	} while (next_nr(&nr));
	return -1;
}

/* The table's rule for the head: allowed with no range check and no argument condition. */
static int table_allows_always(uint32_t nr)
{
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		if (nr >= r->nr && nr <= r->last)
			return r->rule == ARA_SYSCALL_ALLOWED && r->flags == 0;
	}
	return 0;
}

static void the_head_changes_no_action(void **state)
{
	static struct sock_filter with[MAX_INSNS], without[MAX_INSNS];
	const size_t with_len = assemble(head, head_len, with), without_len = assemble(NULL, 0, without);

	(void)state;
	print_message("%zu argument vectors x %zu callers x %zu architectures per number\n", n_vectors,
		      N_IPS, sizeof(archs) / sizeof(archs[0]));
	assert_int_equal(first_mismatch(with, with_len, without, without_len), -1);
}

/* The twin: a head that also lets through a number whose rules depend on the caller or arguments. */
static void a_head_with_one_number_too_many_is_caught(void **state)
{
	/* range-checked, argument-conditioned, trapped, denied, unused (ENOSYS), above the table */
	const uint32_t extra[] = { ARA_NR_FUTEX, 29 /* ioctl */, 56 /* openat */, 117 /* ptrace */, 18,
				   ARA_SYSCALL_LAST + 1 };
	static struct sock_filter h[MAX_INSNS], with[MAX_INSNS], without[MAX_INSNS];
	uint8_t allowed[ARA_SYSCALL_LAST + 2];
	const size_t without_len = assemble(NULL, 0, without);

	(void)state;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		size_t n;

		for (uint32_t nr = 0; nr <= ARA_SYSCALL_LAST + 1; nr++)
			allowed[nr] = table_allows_always(nr) || nr == extra[i];
		n = ara_seccomp_cache_head(allowed, ARA_SYSCALL_LAST + 2, h, MAX_INSNS);
		assert_true(n > 0);
		assert_int_equal(first_mismatch(with, assemble(h, n, with), without, without_len), extra[i]);
	}
}

static void the_generated_head_is_the_tables(void **state)
{
	static struct sock_filter h[MAX_INSNS];
	uint8_t allowed[ARA_SYSCALL_LAST + 1];
	size_t n;

	(void)state;
	for (uint32_t nr = 0; nr <= ARA_SYSCALL_LAST; nr++)
		allowed[nr] = table_allows_always(nr);
	n = ara_seccomp_cache_head(allowed, ARA_SYSCALL_LAST + 1, h, MAX_INSNS);
	assert_int_equal(n, head_len);
	assert_memory_equal(h, head, n * sizeof(h[0]));
	/* Too small a buffer: nothing, not a truncated head. */
	assert_int_equal(ara_seccomp_cache_head(allowed, ARA_SYSCALL_LAST + 1, h, n - 1), 0);
}

/*
 * Any set of numbers: every other number allowed, so that the search's jumps
 * outgrow BPF's 8-bit offsets, and a few sets besides. After the head, a
 * sentinel stands for the rest of the filter.
 */
static void a_head_decides_any_set_of_numbers(void **state)
{
	static struct sock_filter h[MAX_INSNS];
	static uint8_t allowed[1024];
	const uint64_t zero[6] = { 0 };
	const uint32_t rest = SECCOMP_RET_ERRNO | 1;

	(void)state;
	for (unsigned int pattern = 0; pattern < 4; pattern++) {
		size_t n;

		for (uint32_t nr = 0; nr < 1024; nr++)
			allowed[nr] = pattern == 0 ? nr % 2 : pattern == 1 ? nr < 1000 : pattern == 2 ? nr == 1023 : 0;
		n = ara_seccomp_cache_head(allowed, 1024, h, MAX_INSNS - 1);
		assert_true(n > 0);
		h[n] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, rest);
		for (uint32_t nr = 0; nr < 1100; nr++) {
			const int allow = nr < 1024 && allowed[nr];

			assert_int_equal(run(h, n + 1, AUDIT_ARCH_AARCH64, nr, 0, zero),
					 allow ? SECCOMP_RET_ALLOW : rest);
			assert_int_equal(run(h, n + 1, AUDIT_ARCH_ARM, nr, 0, zero), rest);
			assert_int_equal(bpf_const_allow(h, n, nr, AUDIT_ARCH_AARCH64), allow);
		}
		assert_int_equal(run(h, n + 1, AUDIT_ARCH_AARCH64, 0xffffffffu, 0, zero), rest);
	}
	/* No numbers at all, or more than it covers: no head. */
	assert_int_equal(ara_seccomp_cache_head(allowed, 0, h, MAX_INSNS), 0);
	assert_int_equal(ara_seccomp_cache_head(allowed, 1025, h, MAX_INSNS), 0);
}

/* Only what seccomp_is_const_allow() follows: loads of nr and arch, jumps on constants, RET K. */
static void the_head_uses_only_what_the_kernel_emulates(void **state)
{
	(void)state;
	for (size_t pc = 0; pc < head_len; pc++) {
		const struct sock_filter *f = &head[pc];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			assert_true(f->k == offsetof(struct seccomp_data, nr) ||
				    f->k == offsetof(struct seccomp_data, arch));
			break;
		case BPF_JMP | BPF_JA:
			assert_true(pc + 1 + f->k <= head_len); /* at most to the instruction after the head */
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
			assert_true(pc + 1 + f->jt < head_len && pc + 1 + f->jf < head_len);
			break;
		case BPF_RET | BPF_K:
			assert_int_equal(f->k, SECCOMP_RET_ALLOW);
			break;
		default:
			fail_msg("instruction %zu of the head: code %#x", pc, f->code);
		}
	}
}

static void the_kernel_caches_exactly_the_numbers_always_allowed(void **state)
{
	static struct sock_filter with[MAX_INSNS], without[MAX_INSNS];
	const size_t with_len = assemble(head, head_len, with), without_len = assemble(NULL, 0, without);
	unsigned int cached = 0, before = 0, other_arch = 0;

	(void)state;
	for (uint32_t nr = 0; nr < KERNEL_NR; nr++) {
		const int c = bpf_const_allow(with, with_len, nr, AUDIT_ARCH_AARCH64);

		cached += (unsigned int)c;
		before += (unsigned int)bpf_const_allow(without, without_len, nr, AUDIT_ARCH_AARCH64);
		other_arch += (unsigned int)bpf_const_allow(with, with_len, nr, AUDIT_ARCH_ARM);
		if (c != table_allows_always(nr))
			fail_msg("%u: cached %d, but the table says %d", nr, c, table_allows_always(nr));
		/* Cached means allowed, whoever calls with whatever arguments, in the filter without the head. */
		for (size_t i = 0; c && i < N_IPS; i++)
			for (size_t v = 0; v < n_vectors; v++)
				assert_int_equal(run(without, without_len, AUDIT_ARCH_AARCH64, nr, ips[i], vectors[v]),
						 SECCOMP_RET_ALLOW);
		/* Not cached: App code gets something else for some arguments, so none is missed. */
		if (!c) {
			int refused = 0;

			for (size_t v = 0; v < n_vectors; v++)
				refused |= run(without, without_len, AUDIT_ARCH_AARCH64, nr, APP_IP, vectors[v]) !=
					   SECCOMP_RET_ALLOW;
			if (!refused)
				fail_msg("%u is not cached, but App code gets ALLOW for every vector", nr);
		}
	}
	print_message("cacheable: %u of %u numbers (without the head: %u; arm compat: %u)\n", cached,
		      KERNEL_NR, before, other_arch);
	assert_true(cached >= CACHEABLE_FLOOR);
	assert_int_equal(before, 0);
	assert_int_equal(other_arch, 0);
	/* The calls an App makes most: cached; the range-checked and mediated ones: not. */
	assert_true(bpf_const_allow(with, with_len, 172 /* getpid */, AUDIT_ARCH_AARCH64));
	assert_true(bpf_const_allow(with, with_len, 63 /* read */, AUDIT_ARCH_AARCH64));
	assert_true(bpf_const_allow(with, with_len, 113 /* clock_gettime */, AUDIT_ARCH_AARCH64));
	assert_false(bpf_const_allow(with, with_len, ARA_NR_FUTEX, AUDIT_ARCH_AARCH64));
	assert_false(bpf_const_allow(with, with_len, ARA_NR_MMAP, AUDIT_ARCH_AARCH64));
	assert_false(bpf_const_allow(with, with_len, 56 /* openat */, AUDIT_ARCH_AARCH64));
}

/* The head alone decides: what follows it starts with a load the emulator gives up at. */
static void the_rest_of_the_filter_is_never_cached(void **state)
{
	static struct sock_filter with[MAX_INSNS];
	const size_t with_len = assemble(head, head_len, with);

	(void)state;
	assert_int_equal(with[head_len].code, BPF_LD | BPF_W | BPF_ABS);
	assert_int_equal(with[head_len].k, offsetof(struct seccomp_data, instruction_pointer) + 4);
	for (uint32_t nr = 0; nr < KERNEL_NR; nr++)
		assert_false(bpf_const_allow(with + head_len, with_len - head_len, nr, AUDIT_ARCH_AARCH64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_generated_head_is_the_tables),
		cmocka_unit_test(the_head_uses_only_what_the_kernel_emulates),
		cmocka_unit_test(a_head_decides_any_set_of_numbers),
		cmocka_unit_test(the_head_changes_no_action),
		cmocka_unit_test(a_head_with_one_number_too_many_is_caught),
		cmocka_unit_test(the_kernel_caches_exactly_the_numbers_always_allowed),
		cmocka_unit_test(the_rest_of_the_filter_is_never_cached),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
