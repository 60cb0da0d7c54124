/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class 5 of the kernel-interface audit (docs/security.md): privilege to
 * step outside the model. The guest runs the App as root; ARA drops every
 * capability that reaches beyond the process (libara/src/dom0/privilege.c)
 * and the filter denies the module, kexec, swap and reboot calls.
 *
 * Each attack is harmless where it gets through: the calls that would
 * change the machine are made with arguments the kernel refuses after its
 * capability check (a bad descriptor, an invalid flag, a missing file, a
 * wrong magic number), so where neither wall stands the kernel's own
 * argument check answers (EBADF, EINVAL, ENOENT, ENOEXEC), never EPERM;
 * the others act on the attack's own scratch files, in a forked child, or
 * in a private namespace.
 *
 * usage: attack_privilege ATTACK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/* --- calls the filter denies, and the capability drop refuses --------- */

static int attack_finit_module(void)
{
	return attack_refused("finit_module(-1)", syscall(SYS_finit_module, -1, "", 0), EPERM);
}

static int attack_init_module(void)
{
	static const char empty[1];

	return attack_refused("init_module of an empty image",
			      syscall(SYS_init_module, empty, (unsigned long)0, ""), EPERM);
}

static int attack_delete_module(void)
{
	return attack_refused("delete_module(\"ara_no_such_module\")",
			      syscall(SYS_delete_module, "ara_no_such_module", O_NONBLOCK), EPERM);
}

static int attack_kexec_load(void)
{
	/* An undefined flag (bit 15): the kernel refuses it right after its capability check. */
	return attack_refused("kexec_load with an undefined flag",
			      syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0x8000UL), EPERM);
}

static int attack_kexec_file_load(void)
{
	return attack_refused("kexec_file_load with an undefined flag",
			      syscall(SYS_kexec_file_load, -1, -1, 0UL, "", 0x8000UL), EPERM);
}

static int attack_swapon(void)
{
	return attack_refused("swapon(\"/nonexistent/ara-swap\")",
			      swapon("/nonexistent/ara-swap", 0), EPERM);
}

static int attack_swapoff(void)
{
	return attack_refused("swapoff(\"/nonexistent/ara-swap\")", swapoff("/nonexistent/ara-swap"),
			      EPERM);
}

static int attack_reboot(void)
{
	/* A wrong first magic number: the kernel checks the magic after CAP_SYS_BOOT. */
	return attack_refused("reboot with a wrong magic number",
			      syscall(SYS_reboot, 0, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_CAD_OFF, NULL),
			      EPERM);
}

/* --- what only the capability drop stops ------------------------------ */

/* A scratch file of the attack's own, mode 000: its owner may not open it, only a DAC override. */
static int mode_000_file(char *path)
{
	int fd = mkstemp(path);

	if (fd < 0 || fchmod(fd, 0) != 0) {
		printf("FAIL: creating %s: %s\n", path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static int open_mode_000(int flags, const char *what)
{
	char path[] = "/tmp/ara-dac-XXXXXX";
	int fd, failed;

	if (mode_000_file(path))
		return 1;
	fd = open(path, flags);
	failed = attack_refused(what, fd, EACCES);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return failed;
}

/* CAP_DAC_OVERRIDE: writes any file whatever its mode and owner. */
static int attack_dac_override(void)
{
	return open_mode_000(O_WRONLY, "open for writing of a mode-000 file (CAP_DAC_OVERRIDE)");
}

/* CAP_DAC_READ_SEARCH (or CAP_DAC_OVERRIDE): reads any file. */
static int attack_dac_read_search(void)
{
	return open_mode_000(O_RDONLY, "open for reading of a mode-000 file (CAP_DAC_READ_SEARCH)");
}

/* CAP_MKNOD: a node for /dev/mem (1:1) where the App can name it. */
static int attack_mknod_mem(void)
{
	char path[] = "/tmp/ara-mem-XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	rc = mknod(path, S_IFCHR | 0600, makedev(1, 1));
	if (rc == 0)
		unlink(path);
	return attack_refused("mknod of a /dev/mem node (CAP_MKNOD)", rc, EPERM);
}

/* CAP_SYS_RAWIO: /dev/mem itself (or ARA's open policy, which refuses the device: EACCES). */
static int attack_dev_mem(void)
{
	int fd = open("/dev/mem", O_RDONLY);

	if (fd >= 0) {
		close(fd);
		printf("open(\"/dev/mem\") was not refused\n");
		return 1;
	}
	if (errno == EPERM || errno == EACCES) {
		printf("ara-evidence: open(\"/dev/mem\"): refused with %s\n", strerror(errno));
		return 0;
	}
	printf("open(\"/dev/mem\") failed, but not with EPERM or EACCES: %s\n", strerror(errno));
	return 1;
}

/* CAP_SYS_RESOURCE: a hard limit, once lowered, raised again. */
static int attack_rlimit_raise(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_max < 64) {
		printf("FAIL: getrlimit(RLIMIT_NOFILE)\n");
		return 1;
	}
	r.rlim_max--;
	if (r.rlim_cur > r.rlim_max)
		r.rlim_cur = r.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		printf("FAIL: lowering the hard RLIMIT_NOFILE\n");
		return 1;
	}
	r.rlim_max++;
	return attack_refused("raising the hard RLIMIT_NOFILE again (CAP_SYS_RESOURCE)",
			      setrlimit(RLIMIT_NOFILE, &r), EPERM);
}

/* CAP_CHOWN: giving a file away to another user. */
static int attack_chown_give(void)
{
	char path[] = "/tmp/ara-chown-XXXXXX";
	int fd = mkstemp(path), failed;

	if (fd < 0)
		return 1;
	failed = attack_refused("fchown of a file to uid 4242 (CAP_CHOWN)", fchown(fd, 4242, -1), EPERM);
	close(fd);
	unlink(path);
	return failed;
}

/* In a forked child: 0 if fn() failed with EPERM, 1 if it succeeded, 2 otherwise. */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn() == 0 ? 1 : errno == EPERM ? 0 : 2);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 2;
	return WEXITSTATUS(status);
}

static int unshare_uts(void)
{
	/* A private UTS namespace: the name changes for this child alone. */
	return unshare(CLONE_NEWUTS) == 0 && sethostname("ara-attack", 10) == 0 ? 0 : -1;
}

static int chroot_tmp(void)
{
	return chroot("/tmp");
}

static int become_other_user(void)
{
	return setresuid(4242, 4242, 4242);
}

static int child_verdict(const char *what, int got)
{
	if (got == 0) {
		printf("ara-evidence: %s: refused with EPERM\n", what);
		return 0;
	}
	printf(got == 1 ? "%s was not refused\n" : "%s failed, but not with EPERM\n", what);
	return 1;
}

/* CAP_SYS_ADMIN: namespaces (here one of no consequence), and much else. */
static int attack_unshare_uts(void)
{
	return child_verdict("unshare(CLONE_NEWUTS) and sethostname in a forked child (CAP_SYS_ADMIN)",
			     in_child(unshare_uts));
}

/* CAP_SYS_CHROOT: another root directory, under which paths mean other files. */
static int attack_chroot(void)
{
	return child_verdict("chroot(\"/tmp\") in a forked child (CAP_SYS_CHROOT)", in_child(chroot_tmp));
}

/* CAP_SETUID: another user's identity, and with it that user's files and processes. */
static int attack_setuid_other(void)
{
	return child_verdict("setresuid(4242) in a forked child (CAP_SETUID)", in_child(become_other_user));
}

static const struct attack_entry attacks[] = {
	{ "finit_module", attack_finit_module },
	{ "init_module", attack_init_module },
	{ "delete_module", attack_delete_module },
	{ "kexec_load", attack_kexec_load },
	{ "kexec_file_load", attack_kexec_file_load },
	{ "swapon", attack_swapon },
	{ "swapoff", attack_swapoff },
	{ "reboot", attack_reboot },
	{ "dac_override", attack_dac_override },
	{ "dac_read_search", attack_dac_read_search },
	{ "mknod_mem", attack_mknod_mem },
	{ "dev_mem", attack_dev_mem },
	{ "rlimit_raise", attack_rlimit_raise },
	{ "chown_give", attack_chown_give },
	{ "unshare_uts", attack_unshare_uts },
	{ "chroot", attack_chroot },
	{ "setuid_other", attack_setuid_other },
};

int main(int argc, char **argv)
{
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
