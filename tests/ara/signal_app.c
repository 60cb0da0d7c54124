/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A well-behaved program's signal use works under ARA's trap path
 * (libara/src/dom0/trap.c, app_signals.c, deliver.c), and ARA's documented deviations hold: SIGSYS
 * is ARA's, so the App can neither handle nor block it.
 *
 * The filter traps App code's rt_sigaction, rt_sigprocmask, sigaltstack and
 * rt_sigreturn, so every call below that changes or reads signal state, and
 * every return from a handler, goes through ARA. The kernel runs handlers
 * with key 0 only in POR_EL0; ARA's rt_sigreturn must bring back DOM2's row.
 *
 * Signals are only sent to threads that are not in a secure_call: a signal
 * that arrives while a thread runs in DOM0 is not handled yet
 * (docs/security.md, known gaps).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "check.h"
#include "por_sysreg.h"

#define SIG_BIT(sig) (UINT64_C(1) << ((sig) - 1))
/* What ARA never lets the App block (the kernel adds SIGKILL and SIGSTOP). */
#define UNBLOCKABLE (SIG_BIT(SIGSYS) | SIG_BIT(SIGKILL) | SIG_BIT(SIGSTOP))
/* The kernel's flags (uapi asm-generic/signal.h), which glibc does not export. */
#define KERNEL_SS_AUTODISARM (1u << 31)
#define KERNEL_SA_RESTORER 0x04000000

/* After any way back from a handler: DOM2's row, and ARA still answers. */
static void check_back_in_dom2(const char *after)
{
	uint64_t por = por_el0_read();

	check(por == ARA_POR_DOM2, "%s: POR_EL0 0x%" PRIx64 ", expected 0x%x", after, por,
	      ARA_POR_DOM2);
	check(secure_call(ARA_FID_NULL, NULL) == ARA_OK, "%s: null secure_call failed", after);
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int flags, uint64_t mask_bits)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	for (int s = 1; s <= 64; s++)
		if (mask_bits & SIG_BIT(s))
			sigaddset(&sa.sa_mask, s);
	check(sigaction(sig, &sa, NULL) == 0, "sigaction(%d): %s", sig, strerror(errno));
}

/* The raw 64-bit mask: glibc's wrappers hide its internal signals 32, 33. */
static uint64_t raw_sigprocmask(int how, const uint64_t *set)
{
	uint64_t old = 0;

	check(syscall(SYS_rt_sigprocmask, how, set, &old, sizeof(old)) == 0, "rt_sigprocmask(%d): %s",
	      how, strerror(errno));
	return old;
}

/* The kernel's own view of this thread's mask, not ARA's answer (0 if unknown). */
static uint64_t kernel_blocked(void)
{
	char line[128];
	uint64_t blk = 0;
	FILE *f = fopen("/proc/thread-self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %" SCNx64, &blk) == 1)
			break;
	fclose(f);
	return blk;
}

/* 1, 2: a SA_SIGINFO handler, its siginfo and ucontext, the old action. */
static volatile sig_atomic_t usr1_runs, usr1_signo, usr1_code, usr1_uc_ok, usr1_call_ok;
static volatile uint64_t usr1_por;

static void on_usr1(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;
	int local;
	uintptr_t here = (uintptr_t)&local;

	usr1_runs++;
	/* ARA calls the handler with DOM2's row: ARA itself is reachable from it. */
	usr1_por = por_el0_read();
	usr1_call_ok = secure_call(ARA_FID_NULL, NULL) == ARA_OK;
	usr1_signo = si->si_signo;
	usr1_code = si->si_code;
	/* The frame is on this stack, above this handler's own locals. */
	usr1_uc_ok = sig == SIGUSR1 && uc && uc->uc_mcontext.pc != 0 &&
		     uc->uc_mcontext.sp > here && uc->uc_mcontext.sp - here < 65536;
}

static void check_handler_and_old_action(void)
{
	struct sigaction again = { .sa_handler = SIG_IGN }, old;
	int wrong_mask = 0;

	handle(SIGUSR1, on_usr1, 0, SIG_BIT(SIGUSR2) | SIG_BIT(SIGSYS));
	usr1_runs = 0;
	check(raise(SIGUSR1) == 0, "raise(SIGUSR1)");
	check(usr1_runs == 1, "SIGUSR1 handler ran %d times, expected 1", (int)usr1_runs);
	check(usr1_signo == SIGUSR1, "si_signo %d", (int)usr1_signo);
	check(usr1_code == SI_TKILL, "si_code %d, expected SI_TKILL", (int)usr1_code);
	check(usr1_uc_ok, "the handler's ucontext is not this frame's");
	check(usr1_por == ARA_POR_DOM2, "the handler ran with POR_EL0 0x%" PRIx64 ", not DOM2's row",
	      (uint64_t)usr1_por);
	check(usr1_call_ok, "a secure_call from the handler failed");
	check_back_in_dom2("after a handler returned");

	sigemptyset(&again.sa_mask);
	memset(&old, 0, sizeof(old));
	check(sigaction(SIGUSR1, &again, &old) == 0, "sigaction(SIGUSR1, old): %s", strerror(errno));
	check(old.sa_sigaction == on_usr1, "old action's handler is not the one set");
	/* glibc adds SA_RESTORER (its own rt_sigreturn stub) to every action. */
	check((old.sa_flags & ~KERNEL_SA_RESTORER) == SA_SIGINFO, "old action's flags 0x%x",
	      (unsigned int)old.sa_flags);
	for (int s = 1; s <= 64; s++)
		if (sigismember(&old.sa_mask, s) != (s == SIGUSR2))
			wrong_mask = s;
	check(!wrong_mask, "old action's mask: signal %d %s (SIGUSR2 only; SIGSYS dropped)",
	      wrong_mask, wrong_mask == SIGUSR2 ? "missing" : "present");
}

/* 3: blocking, pending, unblocking; a full mask leaves SIGSYS unblocked. */
static void check_masks(void)
{
	sigset_t usr1, old, pending;
	const uint64_t all = ~UINT64_C(0);
	uint64_t before, got;

	handle(SIGUSR1, on_usr1, 0, 0);
	usr1_runs = 0;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	check(pthread_sigmask(SIG_BLOCK, &usr1, &old) == 0, "pthread_sigmask(SIG_BLOCK)");
	check(!sigismember(&old, SIGUSR1), "old mask had SIGUSR1 before it was blocked");
	check(raise(SIGUSR1) == 0, "raise(SIGUSR1) while blocked");
	check(usr1_runs == 0, "blocked SIGUSR1 was delivered");
	check(sigpending(&pending) == 0 && sigismember(&pending, SIGUSR1),
	      "blocked SIGUSR1 is not pending");
	check(pthread_sigmask(SIG_UNBLOCK, &usr1, &old) == 0, "pthread_sigmask(SIG_UNBLOCK)");
	check(sigismember(&old, SIGUSR1), "old mask lacks the blocked SIGUSR1");
	check(usr1_runs == 1, "unblocked SIGUSR1 delivered %d times, expected 1", (int)usr1_runs);
	check_back_in_dom2("after unblocking");

	/* ARA's deviation: the whole set blocks all but SIGSYS (and KILL, STOP). */
	before = raw_sigprocmask(SIG_SETMASK, &all);
	got = raw_sigprocmask(SIG_BLOCK, NULL);
	check(got == (all & ~UNBLOCKABLE), "full mask reads back as 0x%016" PRIx64, got);
	got = kernel_blocked();
	check(got == (all & ~UNBLOCKABLE), "full mask: the kernel's SigBlk is 0x%016" PRIx64, got);
	raw_sigprocmask(SIG_SETMASK, &before);
	check(kernel_blocked() == before, "mask not restored");
}

/* 4: an alternate signal stack in App memory. */
#define ALT_SIZE (64u * 1024u)
static _Alignas(16) unsigned char alt_stack[ALT_SIZE];
static volatile uintptr_t alt_local;
static volatile int alt_query, alt_flags, alt_change_errno;

static void on_stack(int sig, siginfo_t *si, void *uc)
{
	volatile int local = 0;
	stack_t oss = { .ss_flags = 0 };
	const stack_t other = { .ss_sp = alt_stack, .ss_size = ALT_SIZE / 2 };

	const int saved_errno = errno;

	(void)sig, (void)si, (void)uc;
	alt_local = (uintptr_t)&local;
	alt_query = sigaltstack(NULL, &oss);
	alt_flags = oss.ss_flags;
	/* sigaltstack(2): the stack cannot be changed while it is in use. */
	errno = 0;
	alt_change_errno = sigaltstack(&other, NULL) == -1 ? errno : 0;
	errno = saved_errno;
}

static void check_altstack(void)
{
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) }, oss;
	stack_t off = { .ss_flags = SS_DISABLE }, small = { .ss_sp = alt_stack, .ss_size = 1024 };

	check(sigaltstack(&ss, NULL) == 0, "sigaltstack(64 KiB App buffer): %s", strerror(errno));
	handle(SIGUSR2, on_stack, SA_ONSTACK, 0);
	alt_local = 0;
	alt_query = -1;
	check(raise(SIGUSR2) == 0, "raise(SIGUSR2)");
	check(alt_local >= (uintptr_t)alt_stack && alt_local < (uintptr_t)alt_stack + ALT_SIZE,
	      "SA_ONSTACK handler ran at 0x%" PRIxPTR ", not on the alternate stack",
	      (uintptr_t)alt_local);
	check(alt_query == 0 && (alt_flags & SS_ONSTACK),
	      "sigaltstack in the handler: %d, flags 0x%x (SS_ONSTACK expected)", alt_query,
	      alt_flags);
	check(alt_change_errno == EPERM, "changing the stack while on it: errno %d, expected EPERM",
	      alt_change_errno);
	check_back_in_dom2("after a handler on the alternate stack");

	check(sigaltstack(NULL, &oss) == 0 && oss.ss_sp == alt_stack && oss.ss_size == ALT_SIZE &&
		      oss.ss_flags == 0,
	      "alternate stack reads back wrong");
	check(sigaltstack(&off, NULL) == 0, "SS_DISABLE: %s", strerror(errno));
	check(sigaltstack(NULL, &oss) == 0 && oss.ss_flags == SS_DISABLE,
	      "after SS_DISABLE the flags are 0x%x", oss.ss_flags);
	errno = 0;
	check(sigaltstack(&small, NULL) == -1 && errno == ENOMEM,
	      "a 1024-byte stack: errno %d, expected ENOMEM", errno);
}

/*
 * 4b: what the kernel does with an alternate stack, which ARA now keeps for
 * the App (the kernel's own is ARA's DOM0 signal stack): SS_AUTODISARM, a
 * handler without SA_ONSTACK, a new thread (none), a forked child (kept).
 */
static volatile int alt_disarmed_flags;

static void on_stack_autodisarm(int sig, siginfo_t *si, void *uc)
{
	volatile int local = 0;
	stack_t oss = { .ss_flags = 0 };
	const int saved_errno = errno;

	(void)sig, (void)si, (void)uc;
	alt_local = (uintptr_t)&local;
	alt_query = sigaltstack(NULL, &oss);
	alt_disarmed_flags = oss.ss_flags;
	errno = saved_errno;
}

static void *thread_altstack(void *p)
{
	stack_t *oss = p;

	if (sigaltstack(NULL, oss) != 0)
		oss->ss_flags = -1;
	return NULL;
}

static int on_alt(uintptr_t at)
{
	return at >= (uintptr_t)alt_stack && at < (uintptr_t)alt_stack + ALT_SIZE;
}

static void check_altstack_rules(void)
{
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack), .ss_flags = (int)KERNEL_SS_AUTODISARM };
	stack_t off = { .ss_flags = SS_DISABLE }, oss, in_thread = { .ss_flags = 0 };
	pthread_t thread;
	int status = -1;
	pid_t child;

	check(sigaltstack(&ss, NULL) == 0, "sigaltstack(SS_AUTODISARM): %s", strerror(errno));
	handle(SIGUSR2, on_stack_autodisarm, SA_ONSTACK, 0);
	alt_local = 0;
	alt_query = -1;
	check(raise(SIGUSR2) == 0, "raise(SIGUSR2)");
	check(on_alt(alt_local), "SS_AUTODISARM: the handler ran at 0x%" PRIxPTR ", not on the stack",
	      (uintptr_t)alt_local);
	check(alt_query == 0 && alt_disarmed_flags == SS_DISABLE,
	      "SS_AUTODISARM: in the handler the stack reads %d, flags 0x%x (SS_DISABLE expected)",
	      alt_query, alt_disarmed_flags);
	check(sigaltstack(NULL, &oss) == 0 && oss.ss_sp == alt_stack &&
		      oss.ss_flags == (int)KERNEL_SS_AUTODISARM,
	      "SS_AUTODISARM: after the handler the stack is not back (flags 0x%x)", oss.ss_flags);

	handle(SIGUSR2, on_stack_autodisarm, 0, 0);
	alt_local = 0;
	check(raise(SIGUSR2) == 0, "raise(SIGUSR2)");
	check(alt_local != 0 && !on_alt(alt_local),
	      "a handler without SA_ONSTACK ran on the alternate stack (0x%" PRIxPTR ")",
	      (uintptr_t)alt_local);

	check(pthread_create(&thread, NULL, thread_altstack, &in_thread) == 0, "pthread_create");
	pthread_join(thread, NULL);
	check(in_thread.ss_flags == SS_DISABLE,
	      "a new thread starts with an alternate stack (flags 0x%x), the kernel's rule is none",
	      in_thread.ss_flags);

	child = fork();
	if (child == 0)
		_exit(sigaltstack(NULL, &oss) == 0 && oss.ss_sp == alt_stack && oss.ss_size == ALT_SIZE ? 0 : 1);
	check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "a forked child does not keep its parent's alternate stack (status 0x%x)", status);
	check(sigaltstack(&off, NULL) == 0, "SS_DISABLE: %s", strerror(errno));
}

/* 5: a handler that moves pc past an undefined instruction and sets x0. */
#define UDF_MARK UINT64_C(0x5a5a0001)
static volatile sig_atomic_t ill_runs;
static sigjmp_buf ill_escape;

static void on_ill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig, (void)si;
	/* If the edit were lost the udf would run again: leave after a few. */
	if (++ill_runs > 3)
		siglongjmp(ill_escape, 1);
	uc->uc_mcontext.regs[0] = UDF_MARK;
	uc->uc_mcontext.pc += 4;
}

static uint64_t run_udf(void)
{
	register uint64_t x0 __asm__("x0") = 0;

	__asm__ volatile("udf #0" : "+r"(x0) : : "memory");
	return x0;
}

static void check_pc_edit(void)
{
	volatile uint64_t got = 0;

	handle(SIGILL, on_ill, 0, 0);
	ill_runs = 0;
	if (sigsetjmp(ill_escape, 1) == 0)
		got = run_udf();
	check(ill_runs == 1 && got == UDF_MARK,
	      "edited pc/x0: SIGILL handled %d times, x0 0x%" PRIx64, (int)ill_runs, got);
	check_back_in_dom2("after a handler edited pc");
}

/* 6: siglongjmp out of a handler restores the mask and DOM2's row. */
static sigjmp_buf jump_back;
static volatile int jump_blocked_inside;

static void on_jump(int sig, siginfo_t *si, void *uc)
{
	sigset_t now;

	(void)si, (void)uc;
	jump_blocked_inside = pthread_sigmask(SIG_BLOCK, NULL, &now) == 0 && sigismember(&now, sig);
	siglongjmp(jump_back, 1);
}

static void check_siglongjmp(void)
{
	volatile int jumped = 0;
	sigset_t now;

	handle(SIGUSR1, on_jump, 0, 0);
	jump_blocked_inside = 0;
	if (sigsetjmp(jump_back, 1) == 0)
		raise(SIGUSR1);
	else
		jumped = 1;
	check(jumped, "siglongjmp did not come back");
	check(jump_blocked_inside, "SIGUSR1 was not blocked inside its handler");
	check(pthread_sigmask(SIG_BLOCK, NULL, &now) == 0 && !sigismember(&now, SIGUSR1),
	      "SIGUSR1 still blocked after siglongjmp");
	check_back_in_dom2("after siglongjmp");
}

/* 7: SIGSYS is ARA's. */
static void check_sigsys_refused(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN }, old;

	sigemptyset(&sa.sa_mask);
	errno = 0;
	check(sigaction(SIGSYS, &sa, NULL) == -1 && errno == EINVAL,
	      "sigaction(SIGSYS, act): errno %d, expected EINVAL", errno);
	errno = 0;
	check(sigaction(SIGSYS, NULL, &old) == -1 && errno == EINVAL,
	      "sigaction(SIGSYS, NULL, old): errno %d, expected EINVAL", errno);
}

/* 8: many signals to threads that wait in a restartable read. */
#define THREADS 4
#define SIGNALS_EACH 1000
static _Thread_local int my_slot = -1;
static atomic_uint delivered[THREADS];
static atomic_uint ready;
static int wake_pipe[2];

struct receiver {
	pthread_t thread;
	int slot;
	ssize_t got;
	int err;
	uint64_t por;
};

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	if (my_slot >= 0)
		atomic_fetch_add(&delivered[my_slot], 1);
}

static void *receive(void *p)
{
	struct receiver *r = p;
	char c;

	my_slot = r->slot;
	atomic_fetch_add(&ready, 1);
	/* SA_RESTART: every interrupted read restarts; one byte ends the wait. */
	r->got = read(wake_pipe[0], &c, 1);
	r->err = r->got < 0 ? errno : 0;
	r->por = por_el0_read();
	return NULL;
}

/* Waits, with a bound, until thread i's count reaches want. */
static int wait_count(int i, unsigned int want)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (atomic_load(&delivered[i]) < want) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 60)
			return 0;
		sched_yield();
	}
	return 1;
}

static void check_threads(void)
{
	struct receiver r[THREADS];
	unsigned int sent = 0;
	int stuck = 0, kill_errors = 0;

	handle(SIGUSR2, on_usr2, SA_RESTART, 0);
	if (pipe(wake_pipe) != 0) {
		check(0, "pipe: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < THREADS; i++) {
		r[i].slot = i;
		if (pthread_create(&r[i].thread, NULL, receive, &r[i]) != 0) {
			check(0, "pthread_create"); /* the waiting threads end at exit */
			return;
		}
	}
	while (atomic_load(&ready) < THREADS)
		sched_yield();
	/* One at a time per thread: the next goes only once the last arrived. */
	for (unsigned int n = 1; n <= SIGNALS_EACH && !stuck; n++)
		for (int i = 0; i < THREADS && !stuck; i++) {
			if (pthread_kill(r[i].thread, SIGUSR2) != 0)
				kill_errors++;
			sent++;
			stuck = !wait_count(i, n);
		}
	check(!kill_errors, "pthread_kill failed %d times", kill_errors);
	check(!stuck, "a thread stopped receiving after %u signals", sent);
	check(write(wake_pipe[1], "wake", THREADS) == THREADS, "write: %s", strerror(errno));
	for (int i = 0; i < THREADS; i++) {
		unsigned int d;

		pthread_join(r[i].thread, NULL);
		d = atomic_load(&delivered[i]);
		check(d == SIGNALS_EACH, "thread %d: %u of %d signals", i, d, SIGNALS_EACH);
		check(r[i].got == 1, "thread %d: read returned %zd (errno %d): not restarted", i,
		      r[i].got, r[i].err);
		check(r[i].por == ARA_POR_DOM2, "thread %d: POR_EL0 0x%" PRIx64, i, r[i].por);
	}
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	printf("signals to %d threads: %u sent, one at a time\n", THREADS, sent);
}

/*
 * SIGUSR1 handled by on_usr1 and blocked, and a child that sends it: the
 * child's pid, or -1.
 */
static pid_t usr1_pending_from_child(sigset_t *usr1)
{
	pid_t child;

	handle(SIGUSR1, on_usr1, 0, 0);
	usr1_runs = 0;
	sigemptyset(usr1);
	sigaddset(usr1, SIGUSR1);
	check(sigprocmask(SIG_BLOCK, usr1, NULL) == 0, "sigprocmask(SIG_BLOCK)");
	child = fork();
	if (child == 0)
		_exit(kill(getppid(), SIGUSR1) == 0 ? 0 : 1);
	check(child > 0, "fork: %s", strerror(errno));
	return child;
}

/* Reaps the child, unblocks SIGUSR1, and checks the way back to DOM2. */
static void usr1_done(pid_t child, const sigset_t *usr1, const char *after)
{
	int status = -1;

	check(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "child: status 0x%x", status);
	check(sigprocmask(SIG_UNBLOCK, usr1, NULL) == 0, "sigprocmask(SIG_UNBLOCK)");
	check_back_in_dom2(after);
}

/* 9: sigsuspend wakes for a signal another process sends. */
static void check_sigsuspend(void)
{
	sigset_t usr1, empty, now;
	pid_t child = usr1_pending_from_child(&usr1);
	int r;

	if (child < 0)
		return;
	sigemptyset(&empty);
	errno = 0;
	r = sigsuspend(&empty);
	check(r == -1 && errno == EINTR, "sigsuspend returned %d, errno %d", r, errno);
	check(usr1_runs == 1, "SIGUSR1 handler ran %d times during sigsuspend", (int)usr1_runs);
	check(sigprocmask(SIG_BLOCK, NULL, &now) == 0 && sigismember(&now, SIGUSR1),
	      "sigsuspend did not put the mask back");
	usr1_done(child, &usr1, "after sigsuspend");
}

/*
 * 10: a handler taken inside ppoll, whose mask blocks every signal but
 * SIGUSR1, SIGSYS included: the handler's return (a trapped rt_sigreturn)
 * still works, because ARA computes the handler's mask from the mask the
 * thread had before the call.
 */
static void check_ppoll_full_mask(void)
{
	sigset_t usr1, all_but_usr1;
	struct timespec five = { 5, 0 };
	pid_t child = usr1_pending_from_child(&usr1);
	int r;

	if (child < 0)
		return;
	sigfillset(&all_but_usr1);
	sigdelset(&all_but_usr1, SIGUSR1);
	errno = 0;
	r = ppoll(NULL, 0, &five, &all_but_usr1);
	check(r == -1 && errno == EINTR, "ppoll returned %d, errno %d", r, errno);
	check(usr1_runs == 1, "SIGUSR1 handler ran %d times during ppoll", (int)usr1_runs);
	usr1_done(child, &usr1, "after a handler taken inside ppoll with a full mask");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_handler_and_old_action();
	check_masks();
	check_altstack();
	check_altstack_rules();
	check_pc_edit();
	check_siglongjmp();
	check_sigsys_refused();
	check_threads();
	check_sigsuspend();
	check_ppoll_full_mask();
	return check_report("signals");
}
