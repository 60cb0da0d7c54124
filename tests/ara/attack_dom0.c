/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App tries plain loads, stores and branches into every DOM0
 * range it can find (/proc/self/smaps names their protection key), and
 * loads and stores on the DOM1 page. Each must die with SEGV_PKUERR; no
 * value read is ever printed, so no DOM0 byte can reach the output.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "attack.h"

#define MAX_RANGES 512

static void do_load(uint64_t addr)
{
	(void)*(volatile uint8_t *)(uintptr_t)addr;
}

static void do_store(uint64_t addr)
{
	*(volatile uint8_t *)(uintptr_t)addr = 0x41;
}

static void do_branch(uint64_t addr)
{
	((void (*)(void))(uintptr_t)addr)();
}

static unsigned int attempts, failures;

static void expect(const char *what, void (*fn)(uint64_t), uint64_t addr, int want)
{
	int got = attack_run(fn, addr);

	attempts++;
	if (got != want) {
		failures++;
		printf("FAIL: %s at 0x%llx: %s (%d), expected %s\n", what, (unsigned long long)addr,
		       attack_outcome_name(got), got, attack_outcome_name(want));
	}
}

int main(void)
{
	struct range dom0[MAX_RANGES], dom1[MAX_RANGES], service[MAX_RANGES];
	size_t n0, n1, ns = 0, dom1_exec = 0;
	unsigned int loads = 0, stores = 0, branches = 0;
	uint64_t page0 = ((uint64_t)(uintptr_t)secure_call & ~(uint64_t)(ARA_PAGE_SIZE - 1)) -
			 ARA_PAGE_SIZE;

	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA: POR_EL0 is 0x%llx, DOM2's row is 0x%x\n",
		       (unsigned long long)por_el0_read(), ARA_POR_DOM2);
		return 1;
	}
	attack_install_handlers();
	n0 = attack_ranges(ARA_PKEY_DOM0, dom0, MAX_RANGES);
	n1 = attack_ranges(ARA_PKEY_DOM1, dom1, MAX_RANGES);
	if (n0 == MAX_RANGES) {
		printf("FAIL: more than %d DOM0 ranges: raise MAX_RANGES\n", MAX_RANGES - 1);
		return 1;
	}
	for (size_t i = 0; i < n1; i++)
		dom1_exec += dom1[i].perms[2] == 'x';
	if (n0 < 4 || n1 < 2 || dom1_exec != 1) {
		printf("FAIL: expected at least 4 DOM0 ranges and 2 DOM1 ranges (the gate's page and libara's "
		       "read-only data), 1 of them executable; found %zu, %zu and %zu\n",
		       n0, n1, dom1_exec);
		return 1;
	}
	/* The service domains' keys: the counter's (extra) at least. */
	for (unsigned int key = ARA_PKEY_PROVISION; key < ARA_PKEY_COUNT; key++)
		ns += attack_ranges(key, service + ns, MAX_RANGES - ns);
	if (ns == 0 || ns == MAX_RANGES) {
		printf("FAIL: %zu ranges of the service domains' keys (the counter's domain has some)\n", ns);
		return 1;
	}
	for (size_t i = 0; i < n0; i++) {
		if (dom0[i].perms[0] == 'r')
			expect("load from DOM0", do_load, dom0[i].start, OUT_PKUERR), loads++;
		if (dom0[i].perms[1] == 'w')
			expect("store to DOM0", do_store, dom0[i].start, OUT_PKUERR), stores++;
		if (dom0[i].perms[2] == 'x')
			expect("branch into DOM0", do_branch, dom0[i].start, OUT_PKUERR), branches++;
	}
	/* The gate's DOM0 page: its landing, and its way out (the POR_EL0 write). */
	expect("branch to the gate's landing", do_branch, page0, OUT_PKUERR), branches++;
	expect("branch to the gate's way out", do_branch, page0 + ARA_GATE_LEAVE_OFFSET, OUT_PKUERR),
		branches++;
	expect("branch to the way out's msr", do_branch, page0 + ARA_PAGE_SIZE - 4, OUT_PKUERR),
		branches++;
	/* DOM1 is execute-only for the App: the gate's page, and libara's read-only data. */
	for (size_t i = 0; i < n1; i++)
		expect("load from DOM1", do_load, dom1[i].start, OUT_PKUERR), loads++;
	/* Nothing of a service domain. */
	for (size_t i = 0; i < ns; i++) {
		if (service[i].perms[0] == 'r')
			expect("load from a service domain", do_load, service[i].start, OUT_PKUERR), loads++;
		if (service[i].perms[1] == 'w')
			expect("store to a service domain", do_store, service[i].start, OUT_PKUERR), stores++;
	}

	printf("ara-evidence: dom0-access: %u loads, %u stores, %u branches into %zu DOM0 ranges, "
	       "%zu DOM1 ranges and %zu service-domain ranges: %u as expected (SEGV_PKUERR), %u not\n",
	       loads, stores, branches, n0, n1, ns, attempts - failures, failures);
	return failures ? 1 : 0;
}
