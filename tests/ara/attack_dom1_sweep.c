/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IV3: entering the gate at any of its instruction addresses, with hostile
 * register values, never runs App-chosen code with DOM0's permissions.
 *
 * For every word of each gate page (page 0, DOM0's landing and way out;
 * page 1, DOM1's secure_call; page 2, the signal entry on DOM2's key) and
 * each register set below, a child sets
 * every general register (x16 to the set's POR_EL0 candidate, x30 to the
 * probe, sp as given) and branches there. The probe is the App-chosen code:
 * if it ever runs, it checks POR_EL0 and then tries to read DOM0. Faults and
 * runs of the probe under DOM2's row are fine; so is the end of a child
 * whose fault handler had no App memory at sp for its frame (sp in DOM0):
 * like the kernel, ARA then kills it with SIGSEGV. Anything else is a
 * breach.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "attack.h"

struct regset {
	const char *name;
	uint64_t fill, x16, sp;
};

static uint64_t target;
static const struct regset *set;

static void enter(uint64_t addr)
{
	ara_test_hostile_jump(addr, set->fill, set->x16, set->sp,
			      (uint64_t)(uintptr_t)ara_test_probe_entry);
}

int main(void)
{
	static uint8_t app_stack[64 * 1024] __attribute__((aligned(16)));
	struct range dom0[512], dom1[16];
	uint64_t page1 = (uint64_t)(uintptr_t)secure_call & ~(uint64_t)(ARA_PAGE_SIZE - 1);
	unsigned int count[128] = { 0 }, tried = 0, breaches = 0, no_frame = 0;
	const uint64_t gate = page1 - ARA_GATE_DOM1_OFFSET;
	size_t n0, n1, n_exec = 0;
	uint64_t dom0_rw = 0;

	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA (POR_EL0 0x%llx)\n",
		       (unsigned long long)por_el0_read());
		return 1;
	}
	attack_install_handlers();
	n0 = attack_ranges(ARA_PKEY_DOM0, dom0, 512);
	n1 = attack_ranges(ARA_PKEY_DOM1, dom1, 16);
	/* DOM1's key: the gate's page, its one executable range, and libara's read-only data. */
	for (size_t i = 0; i < n1; i++) {
		if (dom1[i].perms[2] != 'x')
			continue;
		n_exec++;
		if (dom1[i].start != page1 || dom1[i].end != page1 + ARA_PAGE_SIZE) {
			printf("FAIL: DOM1's executable range 0x%llx-0x%llx is not secure_call's page 0x%llx\n",
			       (unsigned long long)dom1[i].start, (unsigned long long)dom1[i].end,
			       (unsigned long long)page1);
			return 1;
		}
	}
	if (n_exec != 1) {
		printf("FAIL: %zu executable DOM1 ranges, not 1 (secure_call's page)\n", n_exec);
		return 1;
	}
	for (size_t i = 0; i < n0; i++)
		if (dom0[i].perms[0] == 'r' && dom0[i].perms[1] == 'w' && !dom0_rw)
			dom0_rw = dom0[i].end - 64; /* a DOM0 stack pointer candidate */
	if (!dom0_rw) {
		printf("FAIL: no writable DOM0 range found\n");
		return 1;
	}
	/* The probe reads the gate's DOM0 page: readable under DOM0's row. */
	attack_set_probe_target(page1 - ARA_PAGE_SIZE);

	const struct regset sets[] = {
		{ "all keys RWX", 0x77777777, 0x77777777, (uint64_t)(uintptr_t)(app_stack + sizeof(app_stack)) },
		{ "DOM0's row, sp in DOM0", ARA_POR_DOM0, ARA_POR_DOM0, dom0_rw },
		{ "no access", 0, 0, (uint64_t)(uintptr_t)(app_stack + sizeof(app_stack)) },
	};
	for (uint64_t page = 0; page < ARA_GATE_TEXT_SIZE / ARA_PAGE_SIZE; page++)
		for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
			set = &sets[s];
			for (uint64_t off = 0; off < ARA_PAGE_SIZE; off += 4) {
				int out;

				target = gate + page * ARA_PAGE_SIZE + off;
				out = attack_run(enter, target);
				tried++;
				if (out == 128 + SIGSEGV)
					no_frame++;
				else
					count[out & 127]++;
				if (out != OUT_PKUERR && out != OUT_SIGILL && out != OUT_PROBE_DOM2 &&
				    out != OUT_SEGV_OTHER && out != OUT_ARA_STOPPED && out != 128 + SIGSEGV) {
					breaches++;
					printf("BREACH: gate page %llu +0x%03llx with %s: %s (%d)\n",
					       (unsigned long long)page, (unsigned long long)off, set->name,
					       attack_outcome_name(out), out);
				}
			}
		}
	printf("ara-evidence: dom1-sweep: %u entries (%u gate pages x %u offsets x %zu register sets): "
	       "%u SEGV_PKUERR, %u SIGILL, %u other SIGSEGV, %u stopped by ARA (a fault with "
	       "the row the App chose), %u killed by SIGSEGV (no App memory at sp for the handler's "
	       "frame), %u reached App code with DOM2's row, %u breaches\n",
	       tried, ARA_GATE_TEXT_SIZE / ARA_PAGE_SIZE, ARA_PAGE_SIZE / 4,
	       sizeof(sets) / sizeof(sets[0]), count[OUT_PKUERR],
	       count[OUT_SIGILL], count[OUT_SEGV_OTHER], count[OUT_ARA_STOPPED], no_frame,
	       count[OUT_PROBE_DOM2], breaches);
	/* The legitimate entry must work: the probe runs, under DOM2's row. */
	if (count[OUT_PROBE_DOM2] == 0) {
		printf("FAIL: no entry ever returned to App code: the sweep proves nothing\n");
		return 1;
	}
	return breaches ? 1 : 0;
}
