/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-seccomp-gen: writes ARA's system call policy for arm64 as classic BPF
 * (the build embeds it in libara.so; DOM0 prepends the test that lets its
 * own text through, see libara/src/seccomp_prefix.c).
 *
 * The policy is built with libseccomp, for AUDIT_ARCH_AARCH64 whatever the
 * build machine: libseccomp cannot test the instruction pointer, and libc
 * cannot run in DOM0, so the policy is made here, at build time.
 *
 * usage: ara-seccomp-gen -o FILE
 * Exit status: 0 written, 1 libseccomp failed, 2 usage, 3 I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "policy.h"

static int add_denials(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < ara_seccomp_denied_count; i++) {
		const struct ara_seccomp_rule *r = &ara_seccomp_denied[i];
		/*
		 * seccomp_rule_add() takes the build machine's number and
		 * translates it, by name, for each architecture of the filter
		 * (here only aarch64); an aarch64 number would be misread.
		 */
		int nr = seccomp_syscall_resolve_name(r->name);
		int rc;

		if (nr == __NR_SCMP_ERROR ||
		    seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, r->name) == __NR_SCMP_ERROR) {
			fprintf(stderr, "ara-seccomp-gen: libseccomp does not know %s here or on aarch64\n",
				r->name);
			return -1;
		}
		const uint32_t deny = SCMP_ACT_ERRNO(r->err ? r->err : EPERM);

		if (r->mask && r->arg1_nonzero)
			rc = seccomp_rule_add(ctx, deny, nr, 2,
					      SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask, r->value),
					      SCMP_A1(SCMP_CMP_NE, 0));
		else if (r->mask)
			rc = seccomp_rule_add(ctx, deny, nr, 1,
					      SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask, r->value));
		else
			rc = seccomp_rule_add(ctx, deny, nr, 0);
		if (rc < 0) {
			fprintf(stderr, "ara-seccomp-gen: rule for %s: %s\n", r->name, strerror(-rc));
			return -1;
		}
	}
	return 0;
}

static int add_traps(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < ara_seccomp_trapped_count; i++) {
		const char *name = ara_seccomp_trapped[i].name;
		int nr = seccomp_syscall_resolve_name(name); /* the build machine's: see add_denials */
		int rc;

		if (nr == __NR_SCMP_ERROR ||
		    seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, name) == __NR_SCMP_ERROR) {
			fprintf(stderr, "ara-seccomp-gen: libseccomp does not know %s here or on aarch64\n",
				name);
			return -1;
		}
		if (ara_seccomp_trapped[i].bits)
			rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 1,
					      SCMP_CMP(ara_seccomp_trapped[i].arg, SCMP_CMP_MASKED_EQ,
						       ara_seccomp_trapped[i].bits, ara_seccomp_trapped[i].bits));
		else
			rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0);
		if (rc < 0) {
			fprintf(stderr, "ara-seccomp-gen: rule for %s: %s\n", name, strerror(-rc));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int fd, rc = 1;

	if (argc != 3 || strcmp(argv[1], "-o") != 0) {
		fprintf(stderr, "usage: ara-seccomp-gen -o FILE\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "ara-seccomp-gen: %s: %s\n", argv[2], strerror(errno));
		return 3;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx && seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE) == 0 &&
	    seccomp_arch_add(ctx, SCMP_ARCH_AARCH64) == 0 &&
	    seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) == 0 &&
	    /* A binary tree over the system call numbers: every App call runs the filter. */
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) == 0 &&
	    add_denials(ctx) == 0 && add_traps(ctx) == 0 && seccomp_export_bpf(ctx, fd) == 0)
		rc = 0;
	else
		fprintf(stderr, "ara-seccomp-gen: libseccomp failed to build the policy\n");
	seccomp_release(ctx);
	if (close(fd) != 0 && rc == 0) {
		fprintf(stderr, "ara-seccomp-gen: %s: %s\n", argv[2], strerror(errno));
		rc = 3;
	}
	if (rc != 0)
		unlink(argv[2]);
	return rc;
}
