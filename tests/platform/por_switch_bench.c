/* SPDX-License-Identifier: Apache-2.0 */
/*
 * por_switch_bench: the cost of a POE domain switch on this platform.
 *
 * A secure_call enters the trust anchor's domain and leaves it again: one
 * POR_EL0 write that grants access to the anchor's pkey, work on its memory,
 * one POR_EL0 write that revokes it, each write followed by an ISB.  This
 * program times ROUND_TRIPS such round trips, then the same loop without the
 * two POR_EL0 writes (the baseline), in the same run, and prints both and
 * their ratio.  Under QEMU the numbers measure the emulator's handling of
 * the writes (helper call, end of TB, TLB flush on revoke), not hardware.
 *
 * It fails (exit status 1) if the kernel offers no pkeys, and also if the
 * revoked page is still accessible afterwards: a benchmark of switches that
 * switch nothing would be meaningless.
 *
 * Needs nothing beyond libc and the header next to it:
 *   aarch64-linux-gnu-gcc -O2 -static -o por_switch_bench por_switch_bench.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "por_sysreg.h"

#define ROUND_TRIPS 1000000L

/* From the Linux UAPI; not in every libc's headers. */
#define HWCAP2_POE (1UL << 63)
#ifndef SEGV_PKUERR
#define SEGV_PKUERR 4
#endif

static inline void isb(void)
{
	__asm__ volatile("isb" : : : "memory");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double run_switches(volatile uint64_t *page, uint64_t open, uint64_t closed)
{
	double t0 = now();

	for (long i = 0; i < ROUND_TRIPS; i++) {
		por_el0_write(open);
		*page += 1;
		por_el0_write(closed);
	}
	return now() - t0;
}

static double run_baseline(volatile uint64_t *page)
{
	double t0 = now();

	for (long i = 0; i < ROUND_TRIPS; i++) {
		isb();
		*page += 1;
		isb();
	}
	return now() - t0;
}

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_code, fault_pkey;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_code = si->si_code;
	fault_pkey = si->si_pkey;
	siglongjmp(fault_jmp, 1);
}

/* Returns 1 if reading @page faults with SEGV_PKUERR for @pkey. */
static int read_faults_on_pkey(volatile uint64_t *page, int pkey)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	struct sigaction old;
	int faulted = 0;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(fault_jmp, 1)) {
		faulted = fault_code == SEGV_PKUERR && fault_pkey == pkey;
	} else {
		(void)*page;
	}
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

int main(void)
{
	volatile uint64_t *page;
	uint64_t open, closed, mask;
	double t_switch, t_base;
	int pkey;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_POE)) {
		fprintf(stderr, "por_switch_bench: FAIL: no HWCAP2_POE, the CPU or kernel lacks POE\n");
		return 1;
	}
	pkey = syscall(SYS_pkey_alloc, 0, 0);
	if (pkey < 0) {
		fprintf(stderr, "por_switch_bench: FAIL: pkey_alloc: %s\n", strerror(errno));
		return 1;
	}
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED ||
	    syscall(SYS_pkey_mprotect, page, 4096, PROT_READ | PROT_WRITE, pkey)) {
		fprintf(stderr, "por_switch_bench: FAIL: mmap/pkey_mprotect: %s\n", strerror(errno));
		return 1;
	}

	/* Perm field of this pkey: 0b0101 read+write when open, 0 when closed. */
	mask = 0xfUL << (4 * pkey);
	open = (por_el0_read() & ~mask) | (0x5UL << (4 * pkey));
	closed = open & ~mask;

	t_switch = run_switches(page, open, closed);
	/* The baseline touches the page without switching: leave it open. */
	por_el0_write(open);
	t_base = run_baseline(page);

	if (*page != 2 * ROUND_TRIPS) {
		fprintf(stderr, "por_switch_bench: FAIL: page counter %lu, expected %ld\n",
			(unsigned long)*page, 2 * ROUND_TRIPS);
		return 1;
	}
	por_el0_write(closed);
	if (!read_faults_on_pkey(page, pkey)) {
		fprintf(stderr, "por_switch_bench: FAIL: the revoked page is still readable\n");
		return 1;
	}
	por_el0_write(open);

	printf("por_switch_bench: %ld round trips (grant, touch, revoke), pkey %d\n",
	       ROUND_TRIPS, pkey);
	printf("  with POR_EL0 writes: %.3f s total, %.1f ns per round trip\n",
	       t_switch, t_switch * 1e9 / ROUND_TRIPS);
	printf("  baseline (no writes): %.3f s total, %.1f ns per round trip\n",
	       t_base, t_base * 1e9 / ROUND_TRIPS);
	printf("  ratio: %.1f\n", t_switch / t_base);
	return 0;
}
