/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-seccomp-gen: writes ARA's system call policy for arm64 as classic BPF
 * (the build embeds it in libara.so; DOM0 prepends the test that lets its
 * own text through, see libara/src/seccomp_prefix.c), the head that DOM0
 * puts before everything (cache_head.h: the numbers the kernel can cache),
 * or prints the syscall table they are made from as docs/syscall-table.md.
 *
 * The policy is the syscall table's rules (syscall_table.c) and the
 * argument conditions (policy.c). It starts with a block of its own that
 * refuses, with ENOSYS, every number the table marks absent and every
 * number above the last one reviewed, so that a newer kernel's calls stay
 * refused until someone reviews them; libseccomp builds the rest, for
 * AUDIT_ARCH_AARCH64 whatever the build machine: libseccomp cannot test the
 * instruction pointer, and libc cannot run in DOM0, so the policy is made
 * here, at build time.
 *
 * usage: ara-seccomp-gen -o FILE | -c FILE | -t FILE
 * Exit status: 0 written, 1 libseccomp failed or the tables disagree,
 * 2 usage, 3 I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache_head.h"
#include "policy.h"
#include "syscall_table.h"

static const struct ara_syscall *row_named(const char *name)
{
	for (size_t i = 0; i < ara_syscalls_count; i++)
		if (ara_syscalls[i].name && strcmp(ara_syscalls[i].name, name) == 0)
			return &ara_syscalls[i];
	return NULL;
}

/* Each number once, in order; the argument conditions only on ARA_SYSCALL_ARGS rows and all of those conditioned. */
static int check_tables(void)
{
	uint32_t next = 0;

	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];
		int conditioned = 0;

		if (r->nr != next || r->last < r->nr || !r->why || (!r->name && r->rule != ARA_SYSCALL_ABSENT)) {
			fprintf(stderr, "ara-seccomp-gen: syscall table row %zu (number %u) is out of order "
				"or incomplete\n", i, r->nr);
			return -1;
		}
		next = r->last + 1;
		for (size_t j = 0; r->name && j < ara_seccomp_denied_count; j++)
			conditioned |= strcmp(ara_seccomp_denied[j].name, r->name) == 0;
		for (size_t j = 0; r->name && j < ara_seccomp_trapped_count; j++)
			conditioned |= strcmp(ara_seccomp_trapped[j].name, r->name) == 0;
		if (conditioned != !!(r->flags & ARA_SYSCALL_ARGS) ||
		    (conditioned && r->rule != ARA_SYSCALL_ALLOWED)) {
			fprintf(stderr, "ara-seccomp-gen: %s: the syscall table and policy.c disagree on its "
				"argument conditions\n", r->name);
			return -1;
		}
	}
	if (next != ARA_SYSCALL_LAST + 1) {
		fprintf(stderr, "ara-seccomp-gen: the syscall table ends at %u, not %u\n", next - 1,
			ARA_SYSCALL_LAST);
		return -1;
	}
	for (size_t j = 0; j < ara_seccomp_denied_count; j++)
		if (!row_named(ara_seccomp_denied[j].name)) {
			fprintf(stderr, "ara-seccomp-gen: %s has no row\n", ara_seccomp_denied[j].name);
			return -1;
		}
	for (size_t j = 0; j < ara_seccomp_trapped_count; j++)
		if (!row_named(ara_seccomp_trapped[j].name)) {
			fprintf(stderr, "ara-seccomp-gen: %s has no row\n", ara_seccomp_trapped[j].name);
			return -1;
		}
	return 0;
}

/*
 * seccomp_rule_add() takes the build machine's number and translates it, by
 * name, for each architecture of the filter (here only aarch64); an aarch64
 * number would be misread.
 */
static int resolve(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr == __NR_SCMP_ERROR || seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, name) == __NR_SCMP_ERROR) {
		fprintf(stderr, "ara-seccomp-gen: libseccomp does not know %s here or on aarch64\n", name);
		return __NR_SCMP_ERROR;
	}
	return nr;
}

static int checked(const char *name, int rc)
{
	if (rc < 0)
		fprintf(stderr, "ara-seccomp-gen: rule for %s: %s\n", name, strerror(-rc));
	return rc < 0 ? -1 : 0;
}

/* The table's rules that do not depend on arguments. */
static int add_table(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];
		uint32_t action;
		int nr;

		if (r->rule == ARA_SYSCALL_DENIED)
			action = SCMP_ACT_ERRNO(r->err ? r->err : EPERM);
		else if (r->rule == ARA_SYSCALL_TRAPPED)
			action = SCMP_ACT_TRAP;
		else
			continue; /* allowed: the default; absent: the ENOSYS block */
		nr = resolve(r->name);
		if (nr == __NR_SCMP_ERROR || checked(r->name, seccomp_rule_add(ctx, action, nr, 0)))
			return -1;
	}
	return 0;
}

static int add_conditions(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];
		const uint32_t deny = SCMP_ACT_ERRNO(r->err ? r->err : EPERM);
		const struct scmp_arg_cmp cmp = SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask, r->value);
		int nr = resolve(r->name);

		if (nr == __NR_SCMP_ERROR)
			return -1;
		if (checked(r->name,
			r->arg1_nonzero ? seccomp_rule_add(ctx, deny, nr, 2, cmp, SCMP_A1(SCMP_CMP_NE, 0))
					: seccomp_rule_add(ctx, deny, nr, 1, cmp)))
			return -1;
	}
	for (size_t i = 0; i < ara_seccomp_trapped_count; i++) {
		const struct ara_seccomp_trap *t = &ara_seccomp_trapped[i];
		int nr = resolve(t->name);

		const struct scmp_arg_cmp cmp =
			t->nonzero ? SCMP_CMP(t->arg, SCMP_CMP_NE, 0)
				   : SCMP_CMP(t->arg, SCMP_CMP_MASKED_EQ, t->mask ? t->mask : t->bits, t->bits);

		if (nr == __NR_SCMP_ERROR || checked(t->name, seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 1, cmp)))
			return -1;
	}
	return 0;
}

/*
 * The unreviewed-number block: for aarch64 (any other architecture goes on
 * to libseccomp's check, which kills), ENOSYS above ARA_SYSCALL_LAST and for
 * each run of absent rows; everything else falls through. At most 64 runs.
 */
static int write_unreviewed(int fd)
{
	struct sock_filter f[4 + 2 * 64 + 2];
	uint32_t first[64], last[64];
	size_t runs = 0, n = 0, ret;

	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		if (r->rule != ARA_SYSCALL_ABSENT)
			continue;
		if (runs && last[runs - 1] + 1 == r->nr) {
			last[runs - 1] = r->last;
			continue;
		}
		if (runs == 64)
			return -1;
		first[runs] = r->nr;
		last[runs++] = r->last;
	}
	ret = 4 + 2 * runs + 1; /* the index of the ENOSYS return; the block ends after it */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 0,
					    (uint8_t)(ret - n));
	n++;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, ARA_SYSCALL_LAST,
					    (uint8_t)(ret - n - 1), 0);
	n++;
	for (size_t i = 0; i < runs; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, first[i], 0, 1);
		f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, last[i], 0, (uint8_t)(ret - n - 1));
		n++;
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	return write(fd, f, n * sizeof(f[0])) == (ssize_t)(n * sizeof(f[0])) ? 0 : -1;
}

static int write_policy(int fd)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc = -1;

	if (write_unreviewed(fd)) {
		fprintf(stderr, "ara-seccomp-gen: writing the unreviewed-number block failed\n");
		seccomp_release(ctx);
		return 3;
	}
	if (ctx && seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE) == 0 &&
	    seccomp_arch_add(ctx, SCMP_ARCH_AARCH64) == 0 &&
	    seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) == 0 &&
	    /* A binary tree over the system call numbers: every App call runs the filter. */
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) == 0 && add_table(ctx) == 0 &&
	    add_conditions(ctx) == 0 && seccomp_export_bpf(ctx, fd) == 0)
		rc = 0;
	else
		fprintf(stderr, "ara-seccomp-gen: libseccomp failed to build the policy\n");
	seccomp_release(ctx);
	return rc == 0 ? 0 : 1;
}

/*
 * The head: the numbers whose rule is ALLOW whatever the caller and the
 * arguments (no range check, no argument condition) pass on arch and nr.
 */
static int write_head(int fd)
{
	uint8_t allowed[ARA_SYSCALL_LAST + 1] = { 0 };
	struct sock_filter f[2048];
	size_t n;

	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		for (uint32_t nr = r->nr; nr <= r->last; nr++)
			allowed[nr] = r->rule == ARA_SYSCALL_ALLOWED && r->flags == 0;
	}
	n = ara_seccomp_cache_head(allowed, ARA_SYSCALL_LAST + 1, f, sizeof(f) / sizeof(f[0]));
	if (n == 0) {
		fprintf(stderr, "ara-seccomp-gen: the head does not fit %zu instructions\n", sizeof(f) / sizeof(f[0]));
		return 1;
	}
	return write(fd, f, n * sizeof(f[0])) == (ssize_t)(n * sizeof(f[0])) ? 0 : 3;
}

static const char *rule_text(const struct ara_syscall *r, char *buf, size_t len)
{
	switch (r->rule) {
	case ARA_SYSCALL_DENIED:
		snprintf(buf, len, "denied (%s)", r->err == ENOSYS ? "ENOSYS" : "EPERM");
		break;
	case ARA_SYSCALL_TRAPPED:
		snprintf(buf, len, "trapped");
		break;
	case ARA_SYSCALL_ABSENT:
		snprintf(buf, len, "denied (ENOSYS)");
		break;
	default:
		snprintf(buf, len, "allowed%s%s", r->flags & ARA_SYSCALL_RANGES ? ", range-checked" : "",
			 r->flags & ARA_SYSCALL_ARGS ? ", argument-conditioned" : "");
	}
	return buf;
}

/* docs/syscall-table.md. */
static int write_table(FILE *out)
{
	const struct ara_syscall *first;
	char buf[64];

	fprintf(out,
		"# The arm64 system call table\n\n"
		"Generated by `ara-seccomp-gen -t docs/syscall-table.md` from\n"
		"`libara/seccomp/syscall_table.c` (every number) and `libara/seccomp/policy.c`\n"
		"(the argument conditions); `unit_syscall_table_doc` fails if this file differs.\n"
		"What the filter does with each number for App code (ARA's own system-call page\n"
		"passes everything), and why; `docs/syscalls.md` explains the mechanisms.\n\n"
		"- **allowed**: passes. **range-checked**: EPERM when the address (and length) it\n"
		"  names overlaps a range ARA owns (`libara/src/seccomp_ranges.c`).\n"
		"  **argument-conditioned**: denied or trapped for the argument values listed.\n"
		"- **denied**: the error shown, whatever the arguments.\n"
		"- **trapped**: SIGSYS to ARA, which checks the arguments and performs the call.\n"
		"- Numbers 0 to %u are reviewed; any number above %u is denied with ENOSYS, as\n"
		"  are the unused ones, so that a newer kernel's calls stay refused until reviewed.\n\n"
		"| number | call | rule | why |\n|---|---|---|---|\n",
		ARA_SYSCALL_LAST, ARA_SYSCALL_LAST);
	for (size_t i = 0; i < ara_syscalls_count; i++) {
		const struct ara_syscall *r = &ara_syscalls[i];

		if (r->last != r->nr)
			fprintf(out, "| %u–%u | (none) |", r->nr, r->last);
		else
			fprintf(out, "| %u | `%s` |", r->nr, r->name);
		fprintf(out, " %s | ", rule_text(r, buf, sizeof(buf)));
		/* A group's reason in full once, then by its first call. */
		for (first = ara_syscalls; strcmp(first->why, r->why) != 0; first++)
			;
		if (first != r && first->name)
			fprintf(out, "as `%s` (%u)", first->name, first->nr);
		else
			fputs(r->why, out);
		for (size_t j = 0; r->name && j < ara_seccomp_denied_count; j++)
			if (strcmp(ara_seccomp_denied[j].name, r->name) == 0)
				fprintf(out, ". **Denied (%s)** with %s: %s",
					ara_seccomp_denied[j].err == ENOSYS ? "ENOSYS" : "EPERM",
					ara_seccomp_denied[j].when, ara_seccomp_denied[j].why);
		for (size_t j = 0; r->name && j < ara_seccomp_trapped_count; j++)
			if (strcmp(ara_seccomp_trapped[j].name, r->name) == 0)
				fprintf(out, ". **Trapped** with %s: %s", ara_seccomp_trapped[j].when,
					ara_seccomp_trapped[j].why);
		fprintf(out, " |\n");
	}
	fprintf(out, "| > %u | (any) | denied (ENOSYS) | not reviewed |\n", ARA_SYSCALL_LAST);
	return ferror(out) ? 3 : 0;
}

int main(int argc, char **argv)
{
	int fd, rc;

	if (argc != 3 || (strcmp(argv[1], "-o") != 0 && strcmp(argv[1], "-c") != 0 &&
			  strcmp(argv[1], "-t") != 0)) {
		fprintf(stderr, "usage: ara-seccomp-gen -o FILE | -c FILE | -t FILE\n");
		return 2;
	}
	if (check_tables())
		return 1;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "ara-seccomp-gen: %s: %s\n", argv[2], strerror(errno));
		return 3;
	}
	if (argv[1][1] == 'o') {
		rc = write_policy(fd);
	} else if (argv[1][1] == 'c') {
		rc = write_head(fd);
	} else {
		FILE *out = fdopen(fd, "w");

		rc = out ? write_table(out) : 3;
		if (out && fclose(out) != 0 && rc == 0)
			rc = 3;
		fd = -1;
	}
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = 3;
	if (rc == 3)
		fprintf(stderr, "ara-seccomp-gen: %s: %s\n", argv[2], strerror(errno));
	if (rc != 0)
		unlink(argv[2]);
	return rc;
}
