/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread creation under ARA (libara/src/dom0/clone.c). The filter traps
 * clone with CLONE_VM and ARA makes the call itself, so that the new task
 * has its own DOM0 signal stack before its first App instruction; the task
 * then enters the App where the kernel would have put it (after the clone
 * svc, x0 = 0, on the stack the App passed). clone3 is answered ENOSYS
 * (glibc falls back to clone); a fork is not trapped.
 *
 * Checked here: clone3's ENOSYS; 3,000 pthreads, more than ARA's 1,024
 * thread slots, so the slots of exited threads must be reused; a clone
 * made by App code itself (raw_clone.S) with the thread IDs the kernel
 * writes, and refused (EFAULT) when those IDs point into DOM0; vfork, and
 * fork from a thread; signals to threads, and one sigaltstack per thread.
 *
 * Signals are only sent to threads that are not in a secure_call: a signal
 * that arrives while a thread runs in DOM0 is not handled yet
 * (docs/security.md, known gaps).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/sched.h> /* struct clone_args */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "attack.h" /* attack_ranges */
#include "check.h"
#include "por_sysreg.h"

/* What glibc's pthread_create asks for, without the thread-ID flags. */
#define THREAD_FLAGS                                                                        \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM)
#define WAIT_SECONDS 60

long raw_clone(uint64_t flags, void *stack_top, int32_t *ptid, uint64_t tls, int32_t *ctid,
	       void (*fn)(void *), void *arg);

/* Waits, up to WAIT_SECONDS, until *word is non-zero (set) or zero (!set); returns *word. */
static int wait_for(const int *word, int set)
{
	const struct timespec ms = { 0, 1000000 };

	for (long i = 0; i < WAIT_SECONDS * 1000L; i++) {
		if (!__atomic_load_n(word, __ATOMIC_ACQUIRE) == !set)
			break;
		nanosleep(&ms, NULL);
	}
	return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/* 1: clone3 is refused. */
static void check_clone3_denied(void)
{
	/*
	 * With CLONE_VM, the flag for which ARA must make the task itself. Made
	 * like a vfork, so that if it got through, the child (on the parent's
	 * stack, the parent suspended) only exits and the parent reaps it.
	 */
	struct clone_args args = { .flags = CLONE_VM | CLONE_VFORK, .exit_signal = SIGCHLD };
	long r;

	errno = 0;
	r = syscall(SYS_clone3, &args, sizeof(args));
	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid((pid_t)r, NULL, 0);
	check(r == -1 && errno == ENOSYS, "clone3: returned %ld, errno %d, expected ENOSYS", r,
	      errno);
}

/* 2: many pthreads over time, each checking its row and calling ARA. */
#define THREADS_TOTAL 3000u
#define THREADS_BATCH 50u
#define RETURN_MARK UINT64_C(0x7468726561640000) /* "thread" */

struct worker {
	pthread_t thread;
	uint32_t index;
	int created, status;
	uint64_t por;
	struct ara_echo_arg echo;
};

static void *work(void *p)
{
	struct worker *w = p;

	w->por = por_el0_read();
	/* Thread-specific: the kernel's thread ID and the worker's index. */
	w->echo.in = ((uint64_t)gettid() << 32) | w->index;
	w->status = secure_call(ARA_FID_ECHO, &w->echo);
	return (void *)(uintptr_t)(RETURN_MARK | w->index);
}

/* Joins the created ones of n workers; counts what each got wrong. */
static void join_batch(struct worker *w, unsigned int n, unsigned int *wrong_por,
		       unsigned int *wrong_echo, unsigned int *wrong_return, unsigned int *joined)
{
	for (unsigned int i = 0; i < n; i++) {
		void *ret = NULL;

		if (!w[i].created || pthread_join(w[i].thread, &ret) != 0)
			continue;
		(*joined)++;
		*wrong_por += w[i].por != ARA_POR_DOM2;
		*wrong_echo += w[i].status != ARA_OK || (uint32_t)w[i].echo.in != w[i].index ||
			       w[i].echo.out != ara_echo_expect(w[i].echo.in);
		*wrong_return += ret != (void *)(uintptr_t)(RETURN_MARK | w[i].index);
	}
}

static void check_many_threads(void)
{
	static struct worker w[THREADS_BATCH];
	unsigned int not_created = 0, joined = 0, wrong_por = 0, wrong_echo = 0, wrong_return = 0;
	int first_error = 0;

	for (uint32_t base = 0; base < THREADS_TOTAL; base += THREADS_BATCH) {
		for (unsigned int i = 0; i < THREADS_BATCH; i++) {
			int e;

			w[i] = (struct worker){ .index = base + i };
			e = pthread_create(&w[i].thread, NULL, work, &w[i]);
			w[i].created = e == 0;
			if (e && !not_created++)
				first_error = e;
		}
		join_batch(w, THREADS_BATCH, &wrong_por, &wrong_echo, &wrong_return, &joined);
	}
	check(!not_created, "%u of %u threads not created, the first: %s", not_created,
	      THREADS_TOTAL, strerror(first_error));
	check(joined == THREADS_TOTAL - not_created, "%u of %u created threads joined", joined,
	      THREADS_TOTAL - not_created);
	check(!wrong_por, "%u threads ran with a POR_EL0 other than DOM2's", wrong_por);
	check(!wrong_echo, "%u threads' echo calls failed or came back wrong", wrong_echo);
	check(!wrong_return, "%u threads' return values came back wrong", wrong_return);
	printf("threads: %u created and joined, %u at a time\n", joined, THREADS_BATCH);
}

/* 3, 4: clones made by App code itself. */
#define RAW_STACK_SIZE (64u * 1024u)

struct raw_child {
	uintptr_t sp;
	uint64_t por;
	int32_t tid;
	int ran; /* stored last */
};

static long raw_gettid(void)
{
	register long x8 __asm__("x8") = __NR_gettid;
	register long x0 __asm__("x0");

	__asm__ volatile("svc #0" : "=r"(x0) : "r"(x8) : "memory");
	return x0;
}

/* The raw clone's child: plain stores and a raw system call only. */
static void raw_child_run(void *p)
{
	struct raw_child *c = p;
	uintptr_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	c->sp = sp;
	c->por = por_el0_read();
	c->tid = (int32_t)raw_gettid();
	__atomic_store_n(&c->ran, 1, __ATOMIC_RELEASE);
}

/* The child runs with the parent's thread pointer: its code uses no TLS of its own. */
static uint64_t thread_pointer(void)
{
	uint64_t tp;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	return tp;
}

static unsigned char *raw_stack(void)
{
	void *p = mmap(NULL, RAW_STACK_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* 3: the kernel writes ptid at the clone and clears ctid at the thread's exit. */
static void check_raw_clone(void)
{
	static struct raw_child c;
	static int32_t ptid, ctid;
	unsigned char *stack = raw_stack();
	int32_t not_cleared;
	long r;

	if (!stack) {
		check(0, "mmap of a thread stack: %s", strerror(errno));
		return;
	}
	ptid = 0;
	ctid = -1; /* CLONE_CHILD_CLEARTID alone: untouched until the thread exits */
	r = raw_clone(THREAD_FLAGS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
		      stack + RAW_STACK_SIZE, &ptid, thread_pointer(), &ctid, raw_child_run, &c);
	check(r > 0, "raw clone: %ld", r);
	if (r <= 0)
		return;
	check(ptid == r, "CLONE_PARENT_SETTID: ptid %d, the clone returned %ld", ptid, r);
	not_cleared = wait_for(&ctid, 0);
	check(!not_cleared, "CLONE_CHILD_CLEARTID: ctid still %d after %d s", not_cleared,
	      WAIT_SECONDS);
	check(__atomic_load_n(&c.ran, __ATOMIC_ACQUIRE), "the raw clone's child did not run");
	check(c.tid == r, "the child's gettid is %d, the clone returned %ld", c.tid, r);
	check(c.sp > (uintptr_t)stack && c.sp <= (uintptr_t)stack + RAW_STACK_SIZE,
	      "the child ran at sp 0x%" PRIxPTR ", not on its stack 0x%" PRIxPTR "-0x%" PRIxPTR,
	      c.sp, (uintptr_t)stack, (uintptr_t)stack + RAW_STACK_SIZE);
	check(c.por == ARA_POR_DOM2, "the child ran with POR_EL0 0x%" PRIx64, c.por);
	if (!not_cleared) /* else the child may still be on it */
		munmap(stack, RAW_STACK_SIZE);
}

/* A writable DOM0 word: the kernel, making the clone for ARA with DOM0's row, could write it. */
static int32_t *dom0_word(void)
{
	static struct range r[ATTACK_DOM0_MAX];
	size_t n = attack_ranges(ARA_PKEY_DOM0, r, ATTACK_DOM0_MAX);

	for (size_t i = 0; i < n; i++)
		if (r[i].perms[1] == 'w')
			return (int32_t *)(uintptr_t)r[i].start;
	return NULL;
}

/*
 * The tasks listed in the directory task_dir holds (/proc/self/task), read
 * again from its start. Through a descriptor opened once: every open of App
 * code runs in a task of ARA's own (private_files.h), which the kernel still
 * lists for a moment after the open has returned.
 */
static int count_tasks(int task_dir)
{
	char buf[4096];
	int n = 0;
	long got;

	if (lseek(task_dir, 0, SEEK_SET) != 0)
		return -1;
	while ((got = syscall(SYS_getdents64, task_dir, buf, sizeof(buf))) > 0)
		for (long off = 0; off < got;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + off);

			n += e->d_name[0] != '.';
			off += e->d_reclen;
		}
	return got < 0 ? -1 : n;
}

/* 4: thread IDs the kernel would write into DOM0 are refused before any thread exists. */
static void check_clone_ids_in_dom0(void)
{
	static const struct {
		const char *flag;
		uint64_t flags;
		int at_ptid; /* else at ctid */
	} cases[] = {
		{ "CLONE_PARENT_SETTID", CLONE_PARENT_SETTID, 1 },
		{ "CLONE_CHILD_SETTID", CLONE_CHILD_SETTID, 0 },
		{ "CLONE_CHILD_CLEARTID", CLONE_CHILD_CLEARTID, 0 },
	};
	static struct raw_child c[sizeof(cases) / sizeof(cases[0])];
	const struct timespec pause = { 0, 200000000 };
	int32_t *word = dom0_word();
	int task_dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	check(word != NULL, "no writable DOM0 range in /proc/self/smaps");
	check(task_dir >= 0, "open /proc/self/task: %s", strerror(errno));
	if (!word || task_dir < 0)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char *stack = raw_stack();
		int before = count_tasks(task_dir), after;
		long r;

		if (!stack) {
			check(0, "mmap of a thread stack: %s", strerror(errno));
			break;
		}
		r = raw_clone(THREAD_FLAGS | cases[i].flags, stack + RAW_STACK_SIZE,
			      cases[i].at_ptid ? word : NULL, thread_pointer(),
			      cases[i].at_ptid ? NULL : word, raw_child_run, &c[i]);
		/* The filter refuses a CLONE_CHILD_CLEARTID word in ARA's ranges first (EPERM). */
		check(r == (strcmp(cases[i].flag, "CLONE_CHILD_CLEARTID") == 0 ? -EPERM : -EFAULT),
		      "%s at DOM0's %p: clone returned %ld, expected -EFAULT (%d), or -EPERM (%d) "
		      "for CLONE_CHILD_CLEARTID", cases[i].flag, (void *)word, r, -EFAULT, -EPERM);
		/*
		 * A thread made anyway would have run by then. Fewer tasks is no
		 * failure: an exited thread can still be listed before.
		 */
		nanosleep(&pause, NULL);
		after = count_tasks(task_dir);
		check(!__atomic_load_n(&c[i].ran, __ATOMIC_ACQUIRE) && after <= before,
		      "%s at DOM0: a thread was made (it ran: %d; tasks %d, then %d)",
		      cases[i].flag, c[i].ran, before, after);
		if (r <= 0) /* else a thread may still be on it */
			munmap(stack, RAW_STACK_SIZE);
	}
	close(task_dir);
}

/* 5: vfork; fork from a thread other than the first. */
static void check_vfork(void)
{
	int status = -1;
	pid_t child = vfork();

	if (child == 0)
		_exit(42);
	check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 42,
	      "vfork: child %d, status 0x%x, expected exit 42", (int)child, status);
	check(por_el0_read() == ARA_POR_DOM2, "after vfork: POR_EL0 0x%" PRIx64, por_el0_read());
}

/* The forked child's verdict: 0, or which of its checks failed. */
static int forked_child(void)
{
	struct ara_echo_arg a = { .in = (uint64_t)getpid() };
	sigset_t mask;

	if (secure_call(ARA_FID_ECHO, &a) != ARA_OK || a.out != ara_echo_expect(a.in))
		return 1;
	/* A trapped call: ARA finds the child's thread by the signal stack it inherited. */
	if (pthread_sigmask(SIG_BLOCK, NULL, &mask) != 0)
		return 2;
	return por_el0_read() == ARA_POR_DOM2 ? 0 : 3;
}

static void *fork_from_thread(void *p)
{
	int *status = p;
	pid_t child = fork();

	if (child == 0)
		_exit(forked_child());
	if (child < 0 || waitpid(child, status, 0) != child)
		*status = -1;
	return NULL;
}

static void check_fork_from_thread(void)
{
	pthread_t thread;
	int status = -1;

	if (pthread_create(&thread, NULL, fork_from_thread, &status) != 0) {
		check(0, "pthread_create");
		return;
	}
	pthread_join(thread, NULL);
	check(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fork from a thread: the child's status 0x%x (exit 1: secure_call, 2: sigprocmask, "
	      "3: POR_EL0)",
	      status);
}

/*
 * 6: signals to pthreads; the alternate stack is per thread. Thread A sets
 * one, then B is created while A still runs; each is sent SIGUSR1, whose
 * handler is SA_ONSTACK.
 */
#define ALT_SIZE (64u * 1024u)
static _Alignas(16) unsigned char alt_stack[ALT_SIZE];
static pid_t handler_tid;
static uintptr_t handler_at;

struct sig_thread {
	pthread_t thread;
	int set_stack; /* thread A */
	pid_t tid;
	int ready;
	stack_t seen, after; /* its alternate stack before and after its handler ran */
	uint64_t por_after;
};

static int signals_done;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	volatile int local = 0;

	(void)sig, (void)si, (void)uc;
	handler_at = (uintptr_t)&local;
	__atomic_store_n(&handler_tid, gettid(), __ATOMIC_RELEASE);
}

static void *sig_target(void *p)
{
	struct sig_thread *t = p;
	const stack_t ss = { .ss_sp = alt_stack, .ss_size = ALT_SIZE };

	if (t->set_stack && sigaltstack(&ss, NULL) != 0)
		printf("thread A: sigaltstack: %s\n", strerror(errno));
	if (sigaltstack(NULL, &t->seen) != 0)
		t->seen.ss_flags = -1;
	t->tid = gettid();
	__atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
	wait_for(&signals_done, 1); /* the signal interrupts one of its sleeps */
	if (sigaltstack(NULL, &t->after) != 0)
		t->after.ss_flags = -1;
	t->por_after = por_el0_read();
	return NULL;
}

static int on_alt(uintptr_t at)
{
	return at >= (uintptr_t)alt_stack && at < (uintptr_t)alt_stack + ALT_SIZE;
}

/* Sends SIGUSR1 to t; checks that its handler ran on t, on the alternate stack iff want_alt. */
static void signal_thread(const struct sig_thread *t, const char *name, int want_alt)
{
	pid_t got;

	__atomic_store_n(&handler_tid, 0, __ATOMIC_RELAXED);
	check(pthread_kill(t->thread, SIGUSR1) == 0, "pthread_kill(thread %s)", name);
	wait_for(&handler_tid, 1);
	got = __atomic_load_n(&handler_tid, __ATOMIC_ACQUIRE);
	check(got == t->tid, "SIGUSR1 to thread %s (tid %d) was handled by tid %d", name,
	      (int)t->tid, (int)got);
	check(!got || on_alt(handler_at) == want_alt,
	      "thread %s's handler ran at 0x%" PRIxPTR ", %s the alternate stack", name, handler_at,
	      want_alt ? "not on" : "on");
}

static void check_thread_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	struct sig_thread a = { .set_stack = 1 }, b = { .set_stack = 0 };
	stack_t main_ss;

	sigemptyset(&sa.sa_mask);
	check(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction(SIGUSR1): %s", strerror(errno));
	if (pthread_create(&a.thread, NULL, sig_target, &a) != 0) {
		check(0, "pthread_create(A)");
		return;
	}
	wait_for(&a.ready, 1);
	if (pthread_create(&b.thread, NULL, sig_target, &b) != 0) {
		check(0, "pthread_create(B)");
		__atomic_store_n(&signals_done, 1, __ATOMIC_RELEASE);
		pthread_join(a.thread, NULL);
		return;
	}
	wait_for(&b.ready, 1);
	check(sigaltstack(NULL, &main_ss) == 0 && main_ss.ss_flags == SS_DISABLE,
	      "the main thread has an alternate stack (flags 0x%x) after thread A set one",
	      main_ss.ss_flags);
	signal_thread(&a, "A", 1);
	signal_thread(&b, "B", 0);
	__atomic_store_n(&signals_done, 1, __ATOMIC_RELEASE);
	pthread_join(a.thread, NULL);
	pthread_join(b.thread, NULL);

	check(a.seen.ss_sp == alt_stack && a.seen.ss_size == ALT_SIZE && a.seen.ss_flags == 0,
	      "thread A's alternate stack reads back wrong (flags 0x%x)", a.seen.ss_flags);
	check(a.after.ss_sp == alt_stack && a.after.ss_flags == 0,
	      "thread A's alternate stack after its handler: flags 0x%x", a.after.ss_flags);
	check(b.seen.ss_flags == SS_DISABLE && b.after.ss_flags == SS_DISABLE,
	      "thread B, created after A set an alternate stack, has one (flags 0x%x, then 0x%x)",
	      b.seen.ss_flags, b.after.ss_flags);
	check(a.por_after == ARA_POR_DOM2 && b.por_after == ARA_POR_DOM2,
	      "POR_EL0 after the handlers: A 0x%" PRIx64 ", B 0x%" PRIx64, a.por_after,
	      b.por_after);
}

/*
 * 8: a priority-inheritance mutex under contention: glibc takes it with
 * FUTEX_LOCK_PI and FUTEX_UNLOCK_PI, which the filter lets through on App
 * memory (and refuses on ARA's: the kernel changes the word at EL1).
 */
#define PI_THREADS 4
#define PI_ROUNDS 20000
static pthread_mutex_t pi_lock;
static long pi_count;
static atomic_int pi_errors;

static void *pi_worker(void *p)
{
	(void)p;
	for (int i = 0; i < PI_ROUNDS; i++) {
		if (pthread_mutex_lock(&pi_lock) != 0) {
			atomic_fetch_add(&pi_errors, 1);
			continue;
		}
		pi_count++;
		if (pthread_mutex_unlock(&pi_lock) != 0)
			atomic_fetch_add(&pi_errors, 1);
	}
	return NULL;
}

static void check_pi_mutex(void)
{
	pthread_mutexattr_t attr;
	pthread_t t[PI_THREADS];
	int made = 0;

	check(pthread_mutexattr_init(&attr) == 0 &&
		      pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) == 0 &&
		      pthread_mutex_init(&pi_lock, &attr) == 0,
	      "a PTHREAD_PRIO_INHERIT mutex");
	for (int i = 0; i < PI_THREADS; i++)
		made += pthread_create(&t[i], NULL, pi_worker, NULL) == 0;
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	check(made == PI_THREADS && pi_errors == 0 && pi_count == (long)PI_THREADS * PI_ROUNDS,
	      "PI mutex: %d threads, %d lock/unlock errors, count %ld of %ld", made,
	      atomic_load(&pi_errors), pi_count, (long)PI_THREADS * PI_ROUNDS);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_clone3_denied();
	check_many_threads();
	check_raw_clone();
	check_clone_ids_in_dom0();
	check_vfork();
	check_fork_from_thread();
	check_thread_signals();
	check_pi_mutex();
	return check_report("threads");
}
