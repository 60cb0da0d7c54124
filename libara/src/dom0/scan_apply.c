/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IV1 at load time: no DOM2-executable page may hold an instruction that
 * writes POR_EL0. Every executable mapping of the process is scanned, minus
 * the DOM0 and DOM1 ranges (the gate's own writes are the only legitimate
 * ones); each match becomes a NOP (ara/scan.h).
 *
 * A mapping of a file is not patched in place: it is replaced by a scanned
 * copy that no file is behind (code_copy.c says why). What is left, the
 * vdso and any anonymous executable memory, is the kernel's or this
 * process's own, with no file to come back from: it is scanned in place,
 * its pages made writable only around a patch, and only when something
 * must be patched; in the vdso a match is fatal, since the kernel's pages
 * come back under a patched copy. Memory both writable and executable is
 * fatal: App code could write code there that no scan sees.
 */
#include "ara/scan.h"
#include "code_copy.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "maps_walk.h"
#include "sys.h"

struct scan_totals {
	uint64_t words, patched;
	uint64_t copies, copied; /* file ranges replaced by copies, and their bytes */
};

static int prot_of(unsigned int perms)
{
	return ((perms & ARA_MAP_R) ? PROT_READ : 0) | ((perms & ARA_MAP_W) ? PROT_WRITE : 0) |
	       ((perms & ARA_MAP_X) ? PROT_EXEC : 0);
}

static void set_prot(uint64_t start, uint64_t len, int prot)
{
	long r = ara_sys3(__NR_mprotect, start, len, prot);

	if (r != 0)
		ara_fatal("mprotect during the POR_EL0 scan failed", r);
}

static void report(const struct ara_mapping *m, uint64_t start, size_t n)
{
	struct ara_msg msg = { .len = 0 };

	ara_msg_str(&msg, "ara: neutralised ");
	ara_msg_dec(&msg, (long)n);
	ara_msg_str(&msg, " POR_EL0 write(s) in ");
	if (m->path_len)
		ara_msg_mem(&msg, m->path, m->path_len);
	else
		ara_msg_str(&msg, "[anonymous]");
	ara_msg_str(&msg, " at ");
	ara_msg_hex(&msg, start);
	ara_msg_str(&msg, "\n");
	ara_msg_emit(&msg);
}

static void scan_range(const struct ara_mapping *m, uint64_t start, uint64_t end,
		       struct scan_totals *t)
{
	const int prot = prot_of(m->perms);
	const uint64_t len = end - start;
	size_t found = 0, patched = 0;

	t->words += len / ARA_INSN_BYTES;
#ifndef ARA_TEST_VARIANT_NO_CODE_COPY
	if (m->inode != 0) {
		patched = ara_code_copy(m, start, end, prot);
		if (patched && ara_verbose)
			report(m, start, patched);
		t->patched += patched;
		t->copies++;
		t->copied += len;
		return;
	}
#endif
	if (!(prot & PROT_READ)) /* execute-only code must still be read to be scanned */
		set_prot(start, len, prot | PROT_READ);
	if (ara_scan_por_writes((const void *)(uintptr_t)start, len, NULL, 0, &found))
		ara_fatal("the POR_EL0 scan rejected a mapping", (long)start);
	/* The vdso's pages are the kernel's: MADV_DONTNEED on a patched copy brings them back. */
	if (found && ara_mapping_is(m, "[vdso]"))
		ara_fatal("the vdso holds a POR_EL0 write, which a patch could not keep out", (long)found);
	if (found) {
		set_prot(start, len, PROT_READ | PROT_WRITE);
		if (ara_patch_por_writes((void *)(uintptr_t)start, len, &patched) || patched != found)
			ara_fatal("patching POR_EL0 writes failed", (long)start);
		set_prot(start, len, prot | PROT_READ);
		if (ara_scan_por_writes((const void *)(uintptr_t)start, len, NULL, 0, &found) || found)
			ara_fatal("a POR_EL0 write survived patching", (long)start);
		if (ara_verbose)
			report(m, start, patched);
	}
	if (!(prot & PROT_READ))
		set_prot(start, len, prot);
	t->patched += patched;
}

/* Scans [m->start, m->end) minus every protected range. */
static void scan_mapping(const struct ara_mapping *m, void *ctx)
{
	uint64_t cur = m->start;

	if (!(m->perms & ARA_MAP_X))
		return;
#ifndef ARA_TEST_VARIANT_WX_KEPT /* test-only (tests/variants): such memory is scanned and kept */
	/*
	 * App code could write there code no scan ever sees. Nothing of ARA's
	 * is so mapped; an executable stack (a PT_GNU_STACK with PF_X in any
	 * object loaded, which ld.so honours) or a W+X segment is.
	 */
	if (m->perms & ARA_MAP_W)
		ara_fatal("memory both writable and executable, from an executable stack or a W+X "
			  "segment in the App or a library (its address)",
			  (long)m->start);
#endif
	while (cur < m->end) {
		uint64_t next = m->end;
		int inside = 0;

		for (size_t i = 0; i < ara_protected.n; i++) {
			const struct ara_region *r = &ara_protected.r[i];

			if (r->start <= cur && cur < r->end) {
				cur = r->end;
				inside = 1;
				break;
			}
			if (r->start > cur && r->start < next)
				next = r->start;
		}
		if (inside)
			continue;
		scan_range(m, cur, next, ctx);
		cur = next;
	}
}

static uint64_t counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

/* What the scan (and the copies) cost at start-up, under ARA_VERBOSE=1 (docs/performance.md). */
static void report_totals(const struct scan_totals *t, uint64_t ticks)
{
	uint64_t hz;
	struct ara_msg msg = { .len = 0 };

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	ara_msg_str(&msg, "ara: scanned ");
	ara_msg_dec(&msg, (long)t->words);
	ara_msg_str(&msg, " instruction words of DOM2 code, neutralised ");
	ara_msg_dec(&msg, (long)t->patched);
	ara_msg_str(&msg, " POR_EL0 write(s); ");
	ara_msg_dec(&msg, (long)t->copies);
	ara_msg_str(&msg, " file range(s), ");
	ara_msg_dec(&msg, (long)(t->copied >> 10));
	ara_msg_str(&msg, " KiB, replaced by sealed copies; ");
	ara_msg_dec(&msg, hz ? (long)(ticks * 1000000u / hz) : -1);
	ara_msg_str(&msg, " us\n");
	ara_msg_emit(&msg);
}

void ara_scan_dom2(void)
{
	const uint64_t t0 = counter();
	struct scan_totals t = { 0, 0, 0, 0 };

	ara_maps_foreach(scan_mapping, &t);
	if (t.words == 0)
		ara_fatal("the POR_EL0 scan found no executable DOM2 code", 0);
	ara_stats.scanned_words = t.words;
	ara_stats.patched_writes = t.patched;
	if (ara_verbose)
		report_totals(&t, counter() - t0);
}
