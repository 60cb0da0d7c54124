/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live POE demonstration, and the guest's first platform test:
 *   1. the kernel reports POE (HWCAP2_POE);
 *   2. a page tagged with a freshly allocated pkey faults, with SEGV_PKUERR
 *      and si_pkey naming that key, once POR_EL0 denies the key;
 *   3. a read-only grant lets loads through and still stops stores;
 *   4. a read-write grant written to POR_EL0 lets both through.
 * Every step prints what it saw; the exit status is 0 only if every step saw
 * exactly what the architecture promises.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara/por.h"
#include "por_sysreg.h"

#ifndef HWCAP2_POE
#define HWCAP2_POE (1ul << 63) /* uapi/asm/hwcap.h, Linux >= 6.12 */
#endif

static const uint32_t canary = 0x41524121; /* "ARA!" */

/* What the SIGSEGV handler saw; written only by the handler. */
static sigjmp_buf recover;
static volatile sig_atomic_t fault_code;
static volatile sig_atomic_t fault_pkey;
static void *volatile fault_addr;

static void on_segv(int sig, siginfo_t *info, void *ucontext)
{
	(void)sig;
	(void)ucontext;
	fault_code = info->si_code;
	fault_pkey = (sig_atomic_t)info->si_pkey;
	fault_addr = info->si_addr;
	/* Leave the faulting access behind; POR_EL0 is set anew by the caller. */
	siglongjmp(recover, 1);
}

enum access { LOAD, STORE };

/* Performs one access to *word; returns true if it faulted. */
static bool access_faults(volatile uint32_t *word, enum access kind)
{
	fault_code = 0;
	fault_pkey = -1;
	fault_addr = NULL;
	if (sigsetjmp(recover, 1))
		return true;
	if (kind == LOAD)
		(void)*word;
	else
		*word = canary;
	return false;
}

static int failures;

static void check(bool ok, const char *what)
{
	printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
	failures += !ok;
}

static bool is_pkey_fault(volatile uint32_t *word, int pkey)
{
	return fault_code == SEGV_PKUERR && fault_pkey == pkey &&
	       fault_addr == (void *)word;
}

static void report_fault(void)
{
	printf("         signal: si_code=%d (SEGV_PKUERR=%d) si_pkey=%d si_addr=%p\n",
	       (int)fault_code, SEGV_PKUERR, (int)fault_pkey, fault_addr);
}

/* Writes pkey's permission into POR_EL0 and shows the register. */
static void grant(int pkey, enum ara_por_perm perm, const char *name)
{
	uint64_t por = por_el0_read();

	if (ara_por_set_perm(&por, (unsigned int)pkey, perm) != 0) {
		check(false, "encode POR_EL0 value");
		return;
	}
	por_el0_write(por);
	printf("POR_EL0 <- %#018llx (pkey %d: %s)\n", (unsigned long long)por, pkey, name);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	volatile uint32_t *word;
	void *page;
	int pkey;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ARA POE demonstration\n");

	check(getauxval(AT_HWCAP2) & HWCAP2_POE, "kernel reports POE (AT_HWCAP2 has HWCAP2_POE)");
	if (failures)
		return 1; /* nothing below means anything without POE */

	pkey = pkey_alloc(0, 0);
	check(pkey > 0, "pkey_alloc() returned a key");
	if (pkey <= 0) {
		perror("pkey_alloc");
		return 1;
	}
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(page != MAP_FAILED, "mmap() a page");
	if (page == MAP_FAILED)
		return 1;
	word = page;
	*word = canary;
	check(pkey_mprotect(page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, pkey) == 0,
	      "pkey_mprotect() tags the page with the key");
	printf("page %p tagged with pkey %d; POR_EL0 = %#018llx\n", page, pkey,
	       (unsigned long long)por_el0_read());

	if (sigaction(SIGSEGV, &sa, NULL) != 0) {
		perror("sigaction");
		return 1;
	}

	grant(pkey, ARA_POR_NONE, "no access");
	check(access_faults(word, LOAD) && is_pkey_fault(word, pkey),
	      "load faults with SEGV_PKUERR and si_pkey = our key");
	report_fault();
	check(access_faults(word, STORE) && is_pkey_fault(word, pkey),
	      "store faults with SEGV_PKUERR and si_pkey = our key");

	grant(pkey, ARA_POR_R, "read only");
	check(!access_faults(word, LOAD) && *word == canary, "load succeeds and reads the canary");
	check(access_faults(word, STORE) && is_pkey_fault(word, pkey),
	      "store still faults with SEGV_PKUERR");

	grant(pkey, ARA_POR_RW, "read/write");
	check(!access_faults(word, STORE), "store succeeds");
	check(!access_faults(word, LOAD) && *word == canary, "load succeeds and reads the canary");

	printf("%s: %d check(s) failed\n", failures ? "POE demonstration FAILED" : "POE works", failures);
	return failures ? 1 : 0;
}
