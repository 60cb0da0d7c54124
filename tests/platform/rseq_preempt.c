/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A kernel fact the platform's tests depend on: the guest kernel updates a
 * thread's rseq area (glibc registers one per thread) on return to user
 * space after a preemption, through the thread's own POR_EL0. A thread that
 * is preempted while POR_EL0 denies pkey 0, where glibc keeps that area,
 * gets a SIGSEGV forced by the kernel (si_code SI_KERNEL) in place of
 * whatever it was about to do.
 *
 * The victim thread denies every pkey but execution of pkey 0, spins in
 * registers long enough to be preempted by a busy thread on the same CPU,
 * then stores to NULL. Its SIGSEGV says which came first:
 *   SI_KERNEL    the rseq update failed at the preemption
 *   SEGV_MAPERR  the NULL store (no rseq area: glibc.pthread.rseq=0)
 *
 * Usage: rseq_preempt rseq|norseq
 *   rseq    expects an rseq area and the kernel's SIGSEGV
 *   norseq  expects none (run with GLIBC_TUNABLES=glibc.pthread.rseq=0) and
 *           the NULL store's
 * Exit status 0 only if glibc's registration and the signal are as expected.
 *
 * Why it matters: Linux's pkey_sighandler_tests create threads with
 * pthread_create and deny pkey 0 in them; run with rseq they fail whenever
 * the scheduler preempts a thread in that window (qemu/selftests/README.md).
 * libara refuses to run with an rseq area registered for its own reasons
 * (libara/src/dom0/init.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t seen_code, seen, stop_hog;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	seen_code = si->si_code;
	seen = 1;
	syscall(SYS_exit, 0); /* this thread only: it has nowhere to return to */
}

/* POR_EL0 = pkey 0 execute-only (POE_X, 2): no stack, no TLS, no rseq area. */
static void *victim(void *unused)
{
	(void)unused;
	__asm__ volatile("mov	x1, #2\n"
			 "msr	S3_3_C10_C2_4, x1\n" /* POR_EL0 */
			 "isb\n"
			 "movz	x0, #0x1000, lsl #16\n"
			 "1:	subs	x0, x0, #1\n"
			 "b.ne	1b\n"
			 "mov	x1, #0\n"
			 "str	wzr, [x1]\n" ::: "x0", "x1", "memory", "cc");
	return NULL;
}

static void *hog(void *unused)
{
	(void)unused;
	while (!stop_hog)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	int want_rseq, expected;
	cpu_set_t cpu0;
	struct sigaction sa;
	pthread_t victim_thread, hog_thread;

	if (argc != 2 || (strcmp(argv[1], "rseq") && strcmp(argv[1], "norseq"))) {
		fprintf(stderr, "usage: %s rseq|norseq\n", argv[0]);
		return 2;
	}
	want_rseq = !strcmp(argv[1], "rseq");
	printf("rseq area registered by glibc: %s\n", __rseq_size ? "yes" : "no");
	if (!__rseq_size != !want_rseq) {
		printf("FAIL: expected %s rseq area\n", want_rseq ? "an" : "no");
		return 1;
	}

	/* One CPU for both threads, so that the hog preempts the victim. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) || sigaction(SIGSEGV, &sa, NULL)) {
		perror("rseq_preempt: sched_setaffinity/sigaction");
		return 1;
	}
	if (pthread_create(&hog_thread, NULL, hog, NULL) ||
	    pthread_create(&victim_thread, NULL, victim, NULL)) {
		fprintf(stderr, "rseq_preempt: pthread_create failed\n");
		return 1;
	}
	while (!seen)
		sched_yield();
	stop_hog = 1;
	pthread_join(hog_thread, NULL);

	expected = want_rseq ? SI_KERNEL : SEGV_MAPERR;
	printf("SIGSEGV si_code %d (%s)\n", (int)seen_code,
	       seen_code == SEGV_MAPERR ? "SEGV_MAPERR: the NULL store"
	       : seen_code == SI_KERNEL ? "SI_KERNEL: forced by the kernel's rseq update"
					: "unexpected");
	printf("%s\n", seen_code == expected ? "PASS" : "FAIL");
	return seen_code == expected ? 0 : 1;
}
