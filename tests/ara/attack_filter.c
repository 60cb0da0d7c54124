/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The filter's argument rules for the review's last findings against the
 * kernel interface (docs/security.md; the rules in libara/seccomp/policy.c
 * and syscall_table.c), each tried for real by App code:
 *   - a VT's keyboard tables (KDSKBSENT, KDSKBENT, KDSETKEYCODE,
 *     KDSKBDIACR, KDSKBDIACRUC), which make a later key press type a text
 *     of the App's choosing into a shell outside ARA;
 *   - page presence: mincore and move_pages on DOM0's pages tell which of
 *     them DOM0 has touched;
 *   - user namespaces: unshare and clone with CLONE_NEWUSER, in which the
 *     capabilities ARA dropped come back.
 *
 * Each is harmless where it gets through: a keyboard table is written back
 * with what it holds, a page's presence is only read, and the namespaces
 * and the tmpfs mounted in them belong to a forked child that then exits.
 *
 * usage: attack_filter ATTACK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/kd.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "attack.h"

#define PAGE 4096u

/* The exit status of a forked child's attempt: attack_refused's verdict, or 2 if it could not try. */
static int child_status(pid_t pid)
{
	int status;

	if (pid < 0) {
		printf("FAIL: fork: %s\n", strerror(errno));
		return 1;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		printf("FAIL: the attack's child did not exit normally\n");
		return 1;
	}
	return WEXITSTATUS(status);
}

/* --- a VT's keyboard tables ------------------------------------------- */

/* The first VT: the guest's console is a serial line, so no one else holds it. */
#define VT_PATH "/dev/tty1"

/*
 * In a forked child: a session of its own whose controlling terminal is the
 * VT, the standing Linux 6.12 asks of the keyboard ioctls ("perm" in
 * vt_ioctl.c: the caller's controlling terminal, or CAP_SYS_TTY_CONFIG), as
 * a program started on that VT has. Without one (no VT, or not allowed to
 * open it: an unprivileged rerun) the ioctls go to descriptor -1, where only
 * the filter can answer EPERM (the kernel answers EBADF).
 */
static int own_vt(void)
{
	pid_t sid;
	int fd;

	if (setsid() < 0) {
		printf("FAIL: setsid: %s\n", strerror(errno));
		_exit(2);
	}
	fd = open(VT_PATH, O_RDWR);
	if (fd < 0) {
		printf("no VT to attack (open(\"%s\"): %s): the ioctls go to descriptor -1\n", VT_PATH,
		       strerror(errno));
		return -1;
	}
	if (ioctl(fd, TIOCGSID, &sid) != 0 || sid != getpid()) {
		printf("FAIL: %s did not become the controlling terminal of the attack's session\n", VT_PATH);
		_exit(2);
	}
	printf("ara-evidence: %s is the controlling terminal of the attack's session\n", VT_PATH);
	return fd;
}

/*
 * KDSKBMETA, which the filter allows, asks the same standing on the VT as
 * KDSKBDIACR: where it succeeds, an EPERM for the accent table is the filter's.
 */
static void show_standing(int fd)
{
	int meta;

	if (fd < 0)
		return;
	if (ioctl(fd, KDGKBMETA, &meta) == 0 && ioctl(fd, KDSKBMETA, meta) == 0)
		printf("ara-evidence: control: KDSKBMETA (the same standing on the VT, allowed by the "
		       "filter) succeeded\n");
	else
		printf("control: KDSKBMETA failed: %s\n", strerror(errno));
}

/*
 * In a forked child: reads a table entry with get into arg, then writes it
 * back with set, which must be refused with EPERM. Scan codes can be read
 * only from a keyboard with a scan-code table: where none has one (ENODEV:
 * no keyboard; EINVAL: the guest's power button), the write changes
 * nothing either, and is made with arg as it is (scan code 1, key 1).
 */
static int vt_write_back(const char *what, unsigned long get, unsigned long set, void *arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = own_vt();
		char label[160];

		if (fd >= 0 && ioctl(fd, get, arg) != 0 && get != KDGETKEYCODE) {
			printf("FAIL: %s: reading what it holds: %s\n", what, strerror(errno));
			_exit(2);
		}
		if (set == KDSKBDIACR || set == KDSKBDIACRUC)
			show_standing(fd);
		snprintf(label, sizeof(label), "%s on %s (what it holds, written back)", what,
			 fd >= 0 ? VT_PATH : "descriptor -1");
		_exit(attack_refused(label, ioctl(fd, set, arg), EPERM));
	}
	return child_status(pid);
}

/* The string function key F1 types. */
static int attack_vt_func_string(void)
{
	static struct kbsentry s = { .kb_func = 0 };

	return vt_write_back("KDSKBSENT (F1's string)", KDGKBSENT, KDSKBSENT, &s);
}

/* What the Esc key (key code 1) does without modifiers. */
static int attack_vt_keymap_entry(void)
{
	static struct kbentry e = { .kb_table = K_NORMTAB, .kb_index = 1 };

	return vt_write_back("KDSKBENT (Esc's action)", KDGKBENT, KDSKBENT, &e);
}

/* The key scan code 1 stands for. */
static int attack_vt_keycode(void)
{
	static struct kbkeycode k = { .scancode = 1, .keycode = 1 };

	return vt_write_back("KDSETKEYCODE (scan code 1)", KDGETKEYCODE, KDSETKEYCODE, &k);
}

/* The dead-key compositions, all of them. */
static int attack_vt_accent_table(void)
{
	static struct kbdiacrs d;

	return vt_write_back("KDSKBDIACR (the accent table)", KDGKBDIACR, KDSKBDIACR, &d);
}

static int attack_vt_accent_table_unicode(void)
{
	static struct kbdiacrsuc d;

	return vt_write_back("KDSKBDIACRUC (the Unicode accent table)", KDGKBDIACRUC, KDSKBDIACRUC, &d);
}

/* --- page presence ---------------------------------------------------- */

static size_t dom0_page_count(void)
{
	size_t n = 0;

	for (size_t i = 0; i < attack_n_dom0; i++)
		n += (attack_dom0[i].end - attack_dom0[i].start) / PAGE;
	return n;
}

/* Whether each of DOM0's pages is present (1) or not (0), by mincore; -1 with errno. */
static int present_by_mincore(unsigned char *out)
{
	for (size_t i = 0; i < attack_n_dom0; i++) {
		const size_t len = attack_dom0[i].end - attack_dom0[i].start;

		if (mincore((void *)(uintptr_t)attack_dom0[i].start, len, out) != 0)
			return -1;
		for (size_t p = 0; p < len / PAGE; p++)
			out[p] &= 1;
		out += len / PAGE;
	}
	return 0;
}

/* The same by move_pages with no target nodes: a node for a present page, -ENOENT for another. */
static int present_by_move_pages(unsigned char *out)
{
	const size_t n = dom0_page_count();
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	size_t k = 0;
	long r;
	int err;

	if (!pages || !status) {
		printf("FAIL: out of memory\n");
		_exit(2);
	}
	for (size_t i = 0; i < attack_n_dom0; i++)
		for (uint64_t a = attack_dom0[i].start; a < attack_dom0[i].end; a += PAGE)
			pages[k++] = (void *)(uintptr_t)a;
	r = syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL, status, 0);
	err = errno;
	for (size_t p = 0; r == 0 && p < n; p++)
		out[p] = status[p] >= 0;
	free(pages);
	free(status);
	errno = err;
	return r == 0 ? 0 : -1;
}

/*
 * The NUMA call the filter leaves allowed: the node of DOM0's first page,
 * which the kernel looks up with get_user_pages, whose POE check must
 * refuse it (EFAULT) whether the page is present or not.
 */
static int node_of_dom0_page(void)
{
	const uint64_t addr = attack_dom0[0].start;
	int node = -1;

	if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, (void *)(uintptr_t)addr,
		    (unsigned long)(MPOL_F_NODE | MPOL_F_ADDR)) == 0) {
		printf("get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR) on DOM0's page at 0x%llx told its node "
		       "(%d): was not refused\n", (unsigned long long)addr, node);
		return 1;
	}
	printf("ara-evidence: get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR) on DOM0's page at 0x%llx: %s "
	       "(the filter allows it; the kernel's POE check refuses the page)\n",
	       (unsigned long long)addr, strerror(errno));
	return errno == EFAULT ? 0 : 1;
}

/*
 * In a forked child, whose DOM0 arena starts empty (MADV_WIPEONFORK): which
 * of DOM0's pages are present, before and after one call to ARA, as
 * /proc/self/pagemap (refused) would tell. The pages that became present
 * are those DOM0 touched for the call (one into a C service: the null
 * call, answered in the gate's landing, touches no memory).
 */
static int presence(const char *call, int (*present)(unsigned char *out))
{
	pid_t pid = fork();

	if (pid == 0) {
		const size_t n = dom0_page_count();
		unsigned char *before = calloc(n, 1), *after = calloc(n, 1);
		size_t was = 0, became = 0, first = 0;
		char label[96];

		if (!before || !after) {
			printf("FAIL: out of memory\n");
			_exit(2);
		}
		snprintf(label, sizeof(label), "%s on DOM0's %zu pages", call, n);
		if (present(before) != 0)
			_exit(attack_refused(label, -1, EPERM));
		if (secure_call(ARA_FID_VALUE, (void *)(uintptr_t)ARA_VALUE_PROBE) != ARA_OK || present(after) != 0) {
			printf("FAIL: %s: a call to ARA, or the second look, failed\n", call);
			_exit(2);
		}
		for (size_t p = 0; p < n; p++) {
			was += before[p];
			if (after[p] && !before[p] && became++ == 0)
				first = p;
		}
		printf("%s was not refused\n", label);
		if (became) {
			uint64_t addr = 0;

			for (size_t i = 0, k = 0; i < attack_n_dom0 && !addr; i++) {
				const size_t pages = (attack_dom0[i].end - attack_dom0[i].start) / PAGE;

				if (first < k + pages)
					addr = attack_dom0[i].start + (first - k) * PAGE;
				k += pages;
			}
			printf("DISCLOSED: %s: %zu DOM0 pages became present during one call to ARA "
			       "(the first at 0x%llx); %zu of %zu were present before\n",
			       call, became, (unsigned long long)addr, was, n);
		} else {
			printf("%s: %zu of DOM0's %zu pages present; none became present during the call\n",
			       call, was, n);
		}
		_exit(1);
	}
	return child_status(pid);
}

static int attack_mincore_dom0(void)
{
	return presence("mincore", present_by_mincore);
}

static int attack_move_pages_dom0(void)
{
	int failed = node_of_dom0_page();

	return presence("move_pages", present_by_move_pages) | failed;
}

/* --- user namespaces -------------------------------------------------- */

/*
 * In a child that made a user namespace: the capabilities it holds there,
 * and CAP_SYS_ADMIN used: a mount namespace of its own (refused to the App
 * since ARA dropped the capability) with a tmpfs mounted in it (which only
 * the filter's mount rule still stops). Exits 1: the namespace was made.
 */
__attribute__((noreturn)) static void use_regained_capabilities(const char *how, const char *dir)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) == 0 && (d[0].effective & (1u << CAP_SYS_ADMIN)))
		printf("in the user namespace %s made: CAP_SYS_ADMIN effective again\n", how);
	if (unshare(CLONE_NEWNS) != 0)
		printf("%s, but unshare(CLONE_NEWNS) in it failed: %s\n", how, strerror(errno));
	else if (mount("ara-userns", dir, "tmpfs", 0, NULL) != 0)
		printf("%s and a mount namespace in it (CAP_SYS_ADMIN regained), but mounting a tmpfs "
		       "failed: %s\n", how, strerror(errno));
	else
		printf("%s, a mount namespace in it and a tmpfs mounted on %s (CAP_SYS_ADMIN regained)\n",
		       how, dir);
	printf("%s was not refused\n", how);
	_exit(1);
}

static int userns_attack(const char *how, int by_clone)
{
	char dir[] = "/tmp/ara-userns-XXXXXX";
	int verdict;
	pid_t pid;

	if (!mkdtemp(dir)) {
		printf("FAIL: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (by_clone) {
		/* A fork into a new user namespace: no CLONE_VM, so the filter does not trap it. */
		pid = (pid_t)syscall(SYS_clone, (unsigned long)(CLONE_NEWUSER | SIGCHLD), 0UL, NULL, 0UL, NULL);
		if (pid == 0)
			use_regained_capabilities(how, dir);
		verdict = pid < 0 ? attack_refused(how, -1, EPERM) : child_status(pid);
	} else {
		pid = fork();
		if (pid == 0) {
			if (unshare(CLONE_NEWUSER) != 0)
				_exit(attack_refused(how, -1, EPERM));
			use_regained_capabilities(how, dir);
		}
		verdict = child_status(pid);
	}
	rmdir(dir);
	return verdict;
}

static int attack_userns_unshare(void)
{
	return userns_attack("unshare(CLONE_NEWUSER)", 0);
}

static int attack_userns_clone(void)
{
	return userns_attack("clone(CLONE_NEWUSER | SIGCHLD)", 1);
}

static const struct attack_entry attacks[] = {
	{ "vt_func_string", attack_vt_func_string },
	{ "vt_keymap_entry", attack_vt_keymap_entry },
	{ "vt_keycode", attack_vt_keycode },
	{ "vt_accent_table", attack_vt_accent_table },
	{ "vt_accent_table_unicode", attack_vt_accent_table_unicode },
	{ "mincore_dom0", attack_mincore_dom0 },
	{ "move_pages_dom0", attack_move_pages_dom0 },
	{ "userns_unshare", attack_userns_unshare },
	{ "userns_clone", attack_userns_clone },
};

int main(int argc, char **argv)
{
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
