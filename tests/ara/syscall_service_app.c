/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The system call service (ARA_FID_SYSCALL) against the trap path: for a
 * table of rt_sigprocmask cases, each made from the same mask through the
 * filter's trap (syscall()) and through the service, the same result, the
 * same old mask and the same mask afterwards, each also against what the
 * kernel's rules and ARA's say it must be; rt_sigaction and opens the same
 * way (App memory that faults, unmapped or beyond a file's end, read
 * through the kernel on the one path and with plain loads on the other);
 * numbers the service does not take and arguments it cannot read refused; libc's sigprocmask and pthread_sigmask going through the service
 * (ARA_FID_INFO counts its calls) with glibc's behaviour; and masks set
 * through the service while another thread sends signals that arrive
 * inside ARA and wait (interrupted.c): the mask is exactly the one asked
 * for after each call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/ara.h"
#include "check.h"

#define BIT(sig) (UINT64_C(1) << ((sig) - 1))
#define UNBLOCKABLE (BIT(SIGSYS) | BIT(SIGKILL) | BIT(SIGSTOP))
#define POISON UINT64_C(0xa5a5a5a5a5a5a5a5)

/* A system call through the service: its result, or POISON with a FAIL line. */
static int64_t service(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct ara_syscall_arg a = { .nr = nr, .args = { a0, a1, a2, a3 }, .result = (int64_t)POISON };
	int st = secure_call(ARA_FID_SYSCALL, &a);

	check(st == ARA_OK, "secure_call(ARA_FID_SYSCALL) for %llu: %s", (unsigned long long)nr,
	      ara_strerror(st));
	return st == ARA_OK ? a.result : (int64_t)POISON;
}

/* The same call made by App code (the filter traps it): -errno style. */
static int64_t trapped(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	long r = syscall((long)nr, a0, a1, a2, a3);

	return r == -1 ? -errno : r;
}

/* The thread's mask as the kernel has it (a query is not trapped). */
static uint64_t mask_now(void)
{
	uint64_t m = POISON;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &m, sizeof(m));
	return m;
}

static void mask_set(uint64_t m)
{
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, sizeof(m));
}

enum where { NONE, HERE, LOW, BEYOND_EOF, DOM0, DOM1 };

struct mask_case {
	const char *what;
	uint64_t from; /* the mask before */
	int how;
	enum where set_at;
	uint64_t set;
	enum where oset_at;
	uint64_t size;
	int64_t result; /* expected */
	uint64_t after; /* expected mask */
};

static uint64_t dom1, dom0; /* secure_call's page, and the gate's DOM0 page below it */
static uint64_t beyond_eof; /* a mapped page of an empty file: SIGBUS on access */

static uint64_t address(enum where w, uint64_t *here)
{
	switch (w) {
	case HERE:
		return (uintptr_t)here;
	case LOW:
		return 8;
	case BEYOND_EOF:
		return beyond_eof;
	case DOM0:
		return dom0;
	case DOM1:
		return dom1;
	default:
		return 0;
	}
}

static const uint64_t usr = BIT(SIGUSR1) | BIT(SIGUSR2);
#define FAULTS (BIT(SIGSEGV) | BIT(SIGBUS))

static const struct mask_case cases[] = {
	{ "block", 0, SIG_BLOCK, HERE, BIT(SIGUSR1), HERE, 8, 0, BIT(SIGUSR1) },
	{ "unblock", usr, SIG_UNBLOCK, HERE, BIT(SIGUSR1), HERE, 8, 0, BIT(SIGUSR2) },
	{ "setmask", BIT(SIGUSR1), SIG_SETMASK, HERE, BIT(SIGUSR2) | BIT(SIGTERM), HERE, 8, 0,
	  BIT(SIGUSR2) | BIT(SIGTERM) },
	{ "block SIGSYS", BIT(SIGUSR1), SIG_BLOCK, HERE, BIT(SIGSYS), HERE, 8, 0, BIT(SIGUSR1) },
	{ "block SIGKILL and SIGSTOP", 0, SIG_BLOCK, HERE, BIT(SIGKILL) | BIT(SIGSTOP), NONE, 8, 0, 0 },
	{ "setmask every signal", 0, SIG_SETMASK, HERE, ~UINT64_C(0), HERE, 8, 0, ~UNBLOCKABLE },
	{ "unblock every signal", usr, SIG_UNBLOCK, HERE, ~UINT64_C(0), NONE, 8, 0, 0 },
	{ "bad how", usr, 7, HERE, BIT(SIGTERM), HERE, 8, -EINVAL, usr },
	{ "bad how, no set", usr, 7, NONE, 0, HERE, 8, 0, usr },
	{ "size 4", usr, SIG_BLOCK, HERE, BIT(SIGTERM), HERE, 4, -EINVAL, usr },
	{ "size 16", usr, SIG_BLOCK, HERE, BIT(SIGTERM), HERE, 16, -EINVAL, usr },
	{ "no set, no oset", usr, SIG_BLOCK, NONE, 0, NONE, 8, 0, usr },
	{ "query", usr, SIG_BLOCK, NONE, 0, HERE, 8, 0, usr },
	{ "set unmapped", usr, SIG_BLOCK, LOW, 0, HERE, 8, -EFAULT, usr },
	{ "set beyond its file's end", usr, SIG_BLOCK, BEYOND_EOF, 0, HERE, 8, -EFAULT, usr },
	{ "set in DOM0", usr, SIG_SETMASK, DOM0, 0, HERE, 8, -EFAULT, usr },
	{ "set in DOM1", usr, SIG_SETMASK, DOM1, 0, HERE, 8, -EFAULT, usr },
	/* The kernel's order: the mask changes, then the old one is written. */
	{ "oset unmapped", 0, SIG_BLOCK, HERE, BIT(SIGUSR1), LOW, 8, -EFAULT, BIT(SIGUSR1) },
	{ "oset beyond its file's end", 0, SIG_BLOCK, HERE, BIT(SIGUSR1), BEYOND_EOF, 8, -EFAULT,
	  BIT(SIGUSR1) },
	{ "oset in DOM0", 0, SIG_BLOCK, HERE, BIT(SIGUSR1), DOM0, 8, -EFAULT, BIT(SIGUSR1) },
	{ "query into DOM0", usr, SIG_BLOCK, NONE, 0, DOM0, 8, -EFAULT, usr },
	/* With SIGSEGV or SIGBUS blocked as the call leaves, the writes go through the kernel. */
	{ "oset unmapped, SIGSEGV blocked", FAULTS, SIG_BLOCK, HERE, BIT(SIGUSR1), LOW, 8, -EFAULT,
	  FAULTS | BIT(SIGUSR1) },
	{ "oset beyond its file's end, SIGBUS blocked", BIT(SIGBUS), SIG_BLOCK, HERE, BIT(SIGUSR1),
	  BEYOND_EOF, 8, -EFAULT, BIT(SIGBUS) | BIT(SIGUSR1) },
	{ "oset unmapped, SIGSEGV blocked by the call", 0, SIG_BLOCK, HERE, BIT(SIGSEGV), LOW, 8,
	  -EFAULT, BIT(SIGSEGV) },
	{ "oset unmapped, SIGSEGV unblocked by the call", FAULTS, SIG_UNBLOCK, HERE, FAULTS, LOW, 8,
	  -EFAULT, 0 },
	{ "oset here, SIGSEGV and SIGBUS blocked", FAULTS, SIG_BLOCK, HERE, BIT(SIGUSR2), HERE, 8, 0,
	  FAULTS | BIT(SIGUSR2) },
};

static void mask_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mask_case *c = &cases[i];
		int64_t r[2];
		uint64_t old[2], after[2];

		for (int path = 0; path < 2; path++) {
			uint64_t set = c->set, oset = POISON;
			const uint64_t a0 = (uint64_t)(int64_t)c->how, a1 = address(c->set_at, &set),
				       a2 = address(c->oset_at, &oset);

			mask_set(c->from);
			r[path] = path ? service(SYS_rt_sigprocmask, a0, a1, a2, c->size)
				       : trapped(SYS_rt_sigprocmask, a0, a1, a2, c->size);
			after[path] = mask_now();
			old[path] = oset;
		}
		check(r[0] == r[1] && old[0] == old[1] && after[0] == after[1],
		      "%s: trap path %lld, old 0x%llx, after 0x%llx; service %lld, old 0x%llx, after 0x%llx",
		      c->what, (long long)r[0], (unsigned long long)old[0], (unsigned long long)after[0],
		      (long long)r[1], (unsigned long long)old[1], (unsigned long long)after[1]);
		check(r[1] == c->result && after[1] == c->after &&
			      old[1] == (c->oset_at == HERE && r[1] == 0 ? c->from : POISON),
		      "%s: service %lld, mask 0x%llx, old 0x%llx; expected %lld, 0x%llx", c->what,
		      (long long)r[1], (unsigned long long)after[1], (unsigned long long)old[1],
		      (long long)c->result, (unsigned long long)c->after);
	}
	mask_set(0);
}

/* struct sigaction as arm64's rt_sigaction takes it. */
struct ksigaction {
	uint64_t handler, flags, restorer, mask;
};

static volatile sig_atomic_t usr2_taken;

static void on_usr2(int sig)
{
	(void)sig;
	usr2_taken++;
}

static void action_cases(void)
{
	struct ksigaction act = { (uintptr_t)on_usr2, 0, 0, BIT(SIGSYS) }, old = { 0 };
	const uint64_t a = (uintptr_t)&act, o = (uintptr_t)&old;

	check(service(SYS_rt_sigaction, SIGUSR2, a, 0, 8) == 0, "rt_sigaction(SIGUSR2) through the service");
	check(trapped(SYS_rt_sigaction, SIGUSR2, 0, o, 8) == 0 && old.handler == act.handler,
	      "the trap path reads back the handler the service set");
	raise(SIGUSR2);
	check(usr2_taken == 1, "the handler set through the service ran (%d)", (int)usr2_taken);
	old.handler = 0;
	check(service(SYS_rt_sigaction, SIGUSR2, 0, o, 8) == 0 && old.handler == act.handler &&
		      !(old.mask & BIT(SIGSYS)),
	      "the service reads back its handler, SIGSYS dropped from its mask (0x%llx)",
	      (unsigned long long)old.mask);
	for (int path = 0; path < 2; path++) {
		int64_t (*call)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t) = path ? service : trapped;
		const char *how = path ? "service" : "trap path";

		check(call(SYS_rt_sigaction, SIGSYS, a, 0, 8) == -EINVAL, "%s: SIGSYS's action: EINVAL", how);
		check(call(SYS_rt_sigaction, SIGUSR2, a, 0, 4) == -EINVAL, "%s: size 4: EINVAL", how);
		check(call(SYS_rt_sigaction, 0, a, 0, 8) == -EINVAL, "%s: signal 0: EINVAL", how);
		check(call(SYS_rt_sigaction, SIGUSR2, dom0, 0, 8) == -EFAULT, "%s: act in DOM0: EFAULT", how);
		check(call(SYS_rt_sigaction, SIGUSR2, 0, dom0, 8) == -EFAULT, "%s: oact in DOM0: EFAULT", how);
	}
	signal(SIGUSR2, SIG_DFL);
}

static void open_cases(void)
{
	static const char passwd[] = "/etc/passwd", mem[] = "/proc/self/mem", none[] = "/ara-no-such-file";
	struct open_how how = { .flags = O_RDONLY };
	int64_t fd[2];
	char c;

	for (int path = 0; path < 2; path++) {
		int64_t (*call)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t) = path ? service : trapped;
		const char *by = path ? "service" : "trap path";

		fd[0] = call(SYS_openat, (uint64_t)AT_FDCWD, (uintptr_t)passwd, O_RDONLY, 0);
		check(fd[0] >= 0 && read((int)fd[0], &c, 1) == 1, "%s: openat(/etc/passwd): %lld", by,
		      (long long)fd[0]);
		fd[1] = call(SYS_openat2, (uint64_t)AT_FDCWD, (uintptr_t)passwd, (uintptr_t)&how, sizeof(how));
		check(fd[1] >= 0 && read((int)fd[1], &c, 1) == 1, "%s: openat2(/etc/passwd): %lld", by,
		      (long long)fd[1]);
		close((int)fd[0]);
		close((int)fd[1]);
		check(call(SYS_openat, (uint64_t)AT_FDCWD, (uintptr_t)mem, O_RDONLY, 0) == -EACCES,
		      "%s: openat(/proc/self/mem): EACCES", by);
		check(call(SYS_openat, (uint64_t)AT_FDCWD, (uintptr_t)none, O_RDONLY, 0) == -ENOENT,
		      "%s: openat of a missing file: ENOENT", by);
		check(call(SYS_openat, (uint64_t)AT_FDCWD, dom0, O_RDONLY, 0) == -EFAULT,
		      "%s: openat of a path in DOM0: EFAULT", by);
	}
}

static void refused_cases(void)
{
	static const uint64_t not_served[] = { SYS_getpid, SYS_rt_sigreturn, SYS_clone, SYS_mmap,
					       SYS_mprotect, SYS_sigaltstack, SYS_execve, 1000 };
	struct ara_syscall_arg a = { .nr = SYS_rt_sigprocmask, .args = { SIG_BLOCK, 0, 0, 8 } };
	struct ara_syscall_arg *ro;
	int st;

	for (size_t i = 0; i < sizeof(not_served) / sizeof(not_served[0]); i++) {
		a.nr = not_served[i];
		a.result = (int64_t)POISON;
		st = secure_call(ARA_FID_SYSCALL, &a);
		check(st == ARA_E_NOTSUP && a.result == (int64_t)POISON,
		      "number %llu, which the service does not take: %s", (unsigned long long)a.nr,
		      ara_strerror(st));
	}
	check(secure_call(ARA_FID_SYSCALL, NULL) == ARA_E_FAULT, "a NULL argument: ARA_E_FAULT");
	check(secure_call(ARA_FID_SYSCALL, (void *)8) == ARA_E_FAULT, "an unmapped argument: ARA_E_FAULT");
	check(secure_call(ARA_FID_SYSCALL, (void *)(uintptr_t)dom0) == ARA_E_FAULT,
	      "an argument in DOM0: ARA_E_FAULT");
	/* Read, made, but its result cannot be written back. */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		check(0, "mmap");
		return;
	}
	*ro = (struct ara_syscall_arg){ .nr = SYS_rt_sigprocmask, .args = { SIG_BLOCK, 0, 0, 8 } };
	mprotect(ro, 4096, PROT_READ);
	check(secure_call(ARA_FID_SYSCALL, ro) == ARA_E_FAULT, "a read-only argument: ARA_E_FAULT");
	munmap(ro, 4096);
}

static uint64_t served(void)
{
	struct ara_info_arg info;

	if (secure_call(ARA_FID_INFO, &info) != ARA_OK)
		return 0;
	return info.syscalls_served;
}

/* libc's calls, without a change to the caller: through the entry object's wrappers. */
static void wrapper_cases(void)
{
	const uint64_t before = served();
	uint64_t bits = BIT(32) | BIT(33) | BIT(SIGSYS) | BIT(SIGUSR1);
	sigset_t set, old;
	int r;

	memset(&set, 0, sizeof(set));
	memcpy(&set, &bits, sizeof(bits));
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "sigprocmask(SIG_BLOCK)");
	check(mask_now() == BIT(SIGUSR1), "glibc's internal signals and SIGSYS stay unblocked: 0x%llx",
	      (unsigned long long)mask_now());
	check(pthread_sigmask(SIG_UNBLOCK, &set, &old) == 0 && sigismember(&old, SIGUSR1) == 1,
	      "pthread_sigmask(SIG_UNBLOCK) and the old mask");
	check(mask_now() == 0, "unblocked: 0x%llx", (unsigned long long)mask_now());
	errno = 0;
	check(sigprocmask(7, &set, NULL) == -1 && errno == EINVAL, "sigprocmask, bad how: -1, EINVAL");
	errno = 0;
	r = pthread_sigmask(7, &set, NULL);
	check(r == EINVAL && errno == 0, "pthread_sigmask, bad how: EINVAL returned, errno kept (%d)", r);
	check(sigprocmask(SIG_BLOCK, NULL, &old) == 0, "sigprocmask query (to the kernel)");
	check(served() - before == 4, "the four calls with a set went through the service: %llu",
	      (unsigned long long)(served() - before));
}

static volatile int storm_on = 1;
static volatile sig_atomic_t usr1_taken;
static pid_t main_tid;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_taken++;
}

static void *storm(void *unused)
{
	(void)unused;
	while (storm_on)
		syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	return NULL;
}

static uint64_t waited(void)
{
	struct ara_info_arg info;

	if (secure_call(ARA_FID_INFO, &info) != ARA_OK)
		return 0;
	return info.signals_waited;
}

/* Signals that arrive inside the service wait; the mask after each call is the one asked for. */
static void mask_under_signals(void)
{
	const uint64_t masks[2] = { BIT(SIGUSR2), BIT(SIGUSR2) | BIT(SIGTERM) };
	const uint64_t before = waited();
	unsigned int wrong = 0, i;
	pthread_t t;

	main_tid = (pid_t)syscall(SYS_gettid);
	signal(SIGUSR1, on_usr1);
	if (pthread_create(&t, NULL, storm, NULL) != 0) {
		check(0, "pthread_create");
		return;
	}
	for (i = 0; i < 4000; i++) {
		uint64_t m = masks[i % 2], old = POISON;
		int64_t r = service(SYS_rt_sigprocmask, SIG_SETMASK, (uintptr_t)&m, (uintptr_t)&old, 8);

		if (r != 0 || (i > 0 && old != masks[(i + 1) % 2]) || mask_now() != masks[i % 2])
			wrong++;
	}
	storm_on = 0;
	pthread_join(t, NULL);
	check(wrong == 0, "under a storm of SIGUSR1: %u of %u calls left another mask", wrong, i);
	check(usr1_taken > 0 && waited() > before,
	      "signals were taken (%d), some after waiting inside ARA (%llu)", (int)usr1_taken,
	      (unsigned long long)(waited() - before));
	mask_set(0); /* the handler stays: a SIGUSR1 may still be on its way */
}

int main(void)
{
	dom1 = (uintptr_t)&secure_call & ~UINT64_C(4095);
	dom0 = dom1 - 4096;
	{
		const int fd = memfd_create("ara-empty", 0);
		void *p = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (p == MAP_FAILED) {
			printf("FAIL: no mapping of an empty file\n");
			return 1;
		}
		beyond_eof = (uintptr_t)p;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	mask_cases();
	action_cases();
	open_cases();
	refused_cases();
	wrapper_cases();
	mask_under_signals();
	return check_report("syscall-service: the same results as the trap path, its checks, "
			    "libc's calls through it, masks exact under signals");
}
