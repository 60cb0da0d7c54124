/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class 1 of the kernel-interface audit (docs/kernel-access.md): stores the
 * kernel makes at an address the App registered earlier, later, for a task
 * whose row is DOM0's at that moment. The kernel checks POE on every user
 * access, but with the row in POR_EL0 when it stores: if ARA ends a task or
 * executes an image from DOM0 (its handlers run with DOM0's row), a store
 * the App arranged lands with DOM0's rights.
 *
 * The word: the count of ARA's protected ranges (the last field of libara's
 * ara_protected). Zeroed, ARA copies arguments in from any address, and
 * rt_sigprocmask (which ARA performs) brings DOM0's canary out a byte at a
 * time (attack_copy_canary_in).
 *
 * One more kernel access on the App's behalf outside the call that named
 * the address: the pipe reader's copy from pages vmsplice pinned.
 *
 * usage: attack_stores ATTACK LIBARA_SO
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/domains.h"
#include "attack.h"
#include "attack_libara.h"

static char spawn_child[PATH_MAX]; /* a program ARA executes: spawn_child, next to this one */

/* set_tid_address(DOM0) itself: the filter checks the word (IV4). */
static int attack_tid_address_dom0(void)
{
	const uint64_t word = attack_protected_count_word();
	long rc;

	if (!word)
		return 1;
	rc = syscall(SYS_set_tid_address, (void *)(uintptr_t)word);
	if (rc >= 0) /* the App's own exit stores with DOM2's row: POE refuses it */
		syscall(SYS_set_tid_address, NULL);
	return attack_refused("set_tid_address(a DOM0 word)", rc, EPERM);
}

/*
 * A fork's clone with CLONE_CHILD_CLEARTID names the same kind of word for
 * the child's thread, which could yet be ended inside ARA (with DOM0's
 * row): the filter checks it too. A child, if made, exits at once.
 */
static int attack_clone_cleartid_dom0(void)
{
	const uint64_t word = attack_protected_count_word();
	long rc;

	if (!word)
		return 1;
	rc = syscall(SYS_clone, CLONE_CHILD_CLEARTID | SIGCHLD, 0, NULL, 0, (void *)(uintptr_t)word);
	if (rc == 0)
		_exit(0); /* the child: its exit's store, with DOM2's row, fails */
	if (rc > 0)
		waitpid((pid_t)rc, NULL, 0);
	return attack_refused("clone(CLONE_CHILD_CLEARTID, a DOM0 word)", rc, EPERM);
}

static volatile long child_rc;
static volatile int child_errno;

/* What the vfork child got from set_tid_address, then what the parent can copy in. */
static int verdict(const char *how, int status)
{
	printf("%s: the vfork child's set_tid_address(a DOM0 word) returned %ld (%s); it ended with "
	       "status 0x%x\n",
	       how, child_rc, child_rc < 0 ? strerror(child_errno) : "registered", status);
	return attack_copy_canary_in(how);
}

/*
 * A vfork child registers the word and calls execve, which ARA performs
 * from DOM0: the kernel's exec (exec_mm_release) stores 0 at the child's
 * clear_child_tid, since the parent still uses the memory, with DOM0's row.
 */
static int attack_vfork_exec_tid(void)
{
	const uint64_t word = attack_protected_count_word();
	int status = -1;
	pid_t pid;

	if (!word)
		return 1;
	pid = vfork();
	if (pid == 0) {
		child_rc = syscall(SYS_set_tid_address, (void *)(uintptr_t)word);
		child_errno = errno;
		execl(spawn_child, "spawn_child", "exit", "0", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("FAIL: vfork or waitpid failed\n");
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("FAIL: the vfork child did not execute %s (status 0x%x)\n", spawn_child, status);
		return 1;
	}
	return verdict("the kernel's exec store (a vfork child's clear_child_tid)", status);
}

/*
 * vmsplice pins the pages it is given (GUP, which checks the caller's row
 * as it pins) and the pipe's reader gets their bytes later, through the
 * kernel's own mapping: a DOM0 page, once pinned, would be read with no
 * check at all.
 */
static int attack_vmsplice_dom0(void)
{
	const uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	struct iovec v = { (void *)(uintptr_t)canary, 64 };
	unsigned char got[64];
	ssize_t n;
	int p[2];

	if (!canary || pipe(p)) {
		printf("FAIL: setting up vmsplice\n");
		return 1;
	}
	n = vmsplice(p[1], &v, 1, 0);
	if (n > 0 && read(p[0], got, (size_t)n) == n)
		attack_show_leak(got, (size_t)n, canary);
	close(p[0]);
	close(p[1]);
	return attack_refused("vmsplice of DOM0's canary into a pipe", n, EFAULT);
}

static const struct attack_entry attacks[] = {
	{ "tid_address_dom0", attack_tid_address_dom0 },
	{ "clone_cleartid_dom0", attack_clone_cleartid_dom0 },
	{ "vfork_exec_tid", attack_vfork_exec_tid },
};

int main(int argc, char **argv)
{
	char self[PATH_MAX];

	if (argc == 3)
		attack_libara_file = argv[2];
	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(spawn_child, sizeof(spawn_child), "%s/spawn_child", dirname(self));
	/*
	 * Found by libara's symbols, not by DOM0's key: it also runs against
	 * the no-dom0-key variant, which has fewer DOM0 ranges than
	 * attack_main requires.
	 */
	if (argc == 3 && strcmp(argv[1], "vmsplice_dom0") == 0) {
		setvbuf(stdout, NULL, _IONBF, 0);
		if (por_el0_read() != ARA_POR_DOM2) {
			printf("FAIL: not running under ARA\n");
			return 1;
		}
		return attack_load_services() ? 1 : attack_vmsplice_dom0();
	}
	return attack_main(argc == 3 ? 2 : argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
