/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FEAT_S1POE conformance checks for the EL1&0 translation regime, for the
 * rules that Linux never exercises. Every check states the Arm ARM
 * (DDI 0487) rule or pseudocode it follows; each expectation is derived
 * from that text, not from what an implementation happens to do.
 *
 * Output: one "PASS: <name>" or "FAIL: <name> (expected ..., got ...)"
 * line per expectation and a final "N passed, M failed" line. The exit
 * status is STATUS_PASS only if nothing failed.
 */
#include "conformance.h"

static unsigned passed, failed;

static const struct outcome no_fault;

/* A Permission fault at the leaf level, as ESR_EL1 reports it (D24.2.45). */
static struct outcome perm_fault(unsigned ec, uintptr_t far, unsigned level,
				 bool wnr, bool overlay)
{
	return (struct outcome){
		.faults = 1,
		.ec = ec,
		.iss = FSC_PERM(level) | (wnr ? ESR_WNR : 0),
		.overlay = overlay,
		.far = far,
	};
}

static struct outcome load_fault(uintptr_t va, bool overlay)
{
	return perm_fault(EC_DABT_SAME, va, 3, false, overlay);
}

static struct outcome store_fault(uintptr_t va, bool overlay)
{
	return perm_fault(EC_DABT_SAME, va, 3, true, overlay);
}

static struct outcome el0_load_fault(uintptr_t va)
{
	return perm_fault(EC_DABT_LOWER, va, 3, false, true);
}

static struct outcome fetch_fault(uintptr_t va, bool overlay)
{
	return perm_fault(EC_IABT_SAME, va, 3, false, overlay);
}

static void describe(struct outcome o)
{
	if (!o.faults) {
		print("no exception");
		return;
	}
	if (o.faults > 1)
		print("%u exceptions, the first ", o.faults);
	switch (o.ec) {
	case EC_DABT_SAME:
	case EC_DABT_LOWER:
		print("Data Abort EC %x DFSC %x WnR %u Overlay %u FAR %x",
		      (uint64_t)o.ec, o.iss & ESR_FSC,
		      (unsigned)!!(o.iss & ESR_WNR),
		      (unsigned)o.overlay, o.far);
		break;
	case EC_IABT_SAME:
	case EC_IABT_LOWER:
		print("Instruction Abort EC %x IFSC %x Overlay %u FAR %x",
		      (uint64_t)o.ec, o.iss & ESR_FSC, (unsigned)o.overlay,
		      o.far);
		break;
	default:
		print("EC %x ISS %x", (uint64_t)o.ec, o.iss);
		break;
	}
}

static bool same(struct outcome a, struct outcome b)
{
	return a.faults == b.faults && a.ec == b.ec && a.iss == b.iss &&
	       a.overlay == b.overlay && a.far == b.far;
}

static void pass(const char *name)
{
	passed++;
	print("PASS: %s\n", name);
}

static bool report(const char *name, struct outcome want, struct outcome got)
{
	if (same(want, got))
		return true;
	failed++;
	print("FAIL: %s (expected ", name);
	describe(want);
	print(", got ");
	describe(got);
	print(")\n");
	return false;
}

static void expect(const char *name, struct outcome want, struct outcome got)
{
	if (report(name, want, got))
		pass(name);
}

static void report_value(const char *name, const char *what, uint64_t want,
			 uint64_t got)
{
	if (want == got) {
		pass(name);
		return;
	}
	failed++;
	print("FAIL: %s (expected %s %x, got %x)\n", name, what, want, got);
}

/* A read that does not fault must also return what is in memory. */
static void check_read(struct outcome (*read)(uintptr_t va, uint64_t *val),
		       const char *name, struct page p, struct outcome want)
{
	uint64_t val;
	struct outcome got = read(p.va, &val);

	if (!report(name, want, got))
		return;
	if (want.faults)
		pass(name);
	else
		report_value(name, "value", *(volatile uint64_t *)p.pa, val);
}

static void check_load(const char *name, struct page p, struct outcome want)
{
	check_read(do_load, name, p, want);
}

/* A store must change memory exactly when it does not fault. */
static void check_store(const char *name, struct page p, struct outcome want)
{
	volatile uint64_t *mem = (volatile uint64_t *)p.pa;
	uint64_t before = *mem, val = ~before;
	struct outcome got = do_store(p.va, val);

	if (report(name, want, got))
		report_value(name, "memory", want.faults ? before : val, *mem);
}

static void check_call(const char *name, uintptr_t va, struct outcome want)
{
	uint64_t ret;
	struct outcome got = do_call(va, &ret);

	if (report(name, want, got))
		report_value(name, "x0",
			     want.faults ? EXEC_FAULTED : EXEC_MAGIC, ret);
}

static uintptr_t el0_entry(struct page code, const char *fn)
{
	return code.va + (uintptr_t)(fn - el0_page);
}

/* EL0 runs el0_ldr on p; a load that does not fault returns memory. */
static void check_el0_load(const char *name, struct page code, struct page p,
			   struct outcome want)
{
	uint64_t val;
	struct outcome got = do_el0(el0_entry(code, el0_ldr), p.va, 0, &val);

	if (!report(name, want, got))
		return;
	if (want.faults)
		pass(name);
	else
		report_value(name, "value", *(volatile uint64_t *)p.pa, val);
}

/* LDADD adds 1: memory changes exactly when it does not fault. */
static void check_ldadd(const char *name, struct page p, struct outcome want)
{
	volatile uint64_t *mem = (volatile uint64_t *)p.pa;
	uint64_t before = *mem, old;
	struct outcome got = do_ldadd(p.va, 1, &old);

	if (report(name, want, got))
		report_value(name, "memory", want.faults ? before : before + 1,
			     *mem);
}

/* p must be aligned to the DC ZVA block size; its first word is nonzero. */
static void check_dczva(const char *name, struct page p, struct outcome want)
{
	volatile uint64_t *mem = (volatile uint64_t *)p.pa;
	uint64_t before = *mem;
	struct outcome got = do_dczva(p.va);

	if (report(name, want, got))
		report_value(name, "memory", want.faults ? before : 0, *mem);
	*mem = before;
}

static struct page offset(struct page p, uint64_t off)
{
	return (struct page){ p.va + off, p.pa + off };
}

static void set_por_el1(uint64_t v)
{
	write_sysreg(POR_EL1, v);
	isb();
}

static void set_por_el0(uint64_t v)
{
	write_sysreg(POR_EL0, v);
	isb();
}

static void set_tcr2(uint64_t v)
{
	write_sysreg(TCR2_EL1, v);
	isb();
}

/*
 * State every check starts from, so that none depends on the previous one
 * having passed: POE on for EL1 and off for EL0, every overlay index RWX;
 * PAN, WXN, PIE and hardware Access flag and dirty state management off; EL0
 * access to POR_EL0 trapped; hierarchical permissions disabled by
 * TCR_EL1.HPD0 = 1, which makes toggling TCR2_EL1.POE without TLB
 * maintenance well defined (I_VCQZV).
 */
static void baseline(void)
{
	write_sysreg(POR_EL1, POR_ALL_RWX);
	write_sysreg(POR_EL0, POR_ALL_RWX);
	write_sysreg(TCR2_EL1, TCR2_POE);
	write_sysreg(tcr_el1, (read_sysreg(tcr_el1) | TCR_HPD0) &
		     ~(TCR_HA | TCR_HD));
	write_sysreg(sctlr_el1, read_sysreg(sctlr_el1) & ~SCTLR_WXN);
	write_sysreg(cpacr_el1, read_sysreg(cpacr_el1) & ~CPACR_E0POE);
	__asm__ volatile("msr pan, #0");
	tlb_sync();
}

/* ---------------------------------------------------------------------- */

/*
 * POR_EL1.Perm = 0b0000 removes all access (Table D8-74); the fault is a
 * stage 1 Permission fault due to Overlay (R_RPXZR) at the leaf level, with
 * ESR_EL1.ISS2.Overlay (bit 38) set (D24.2.45).
 */
static void check_no_access(void)
{
	struct page p = map_page(0, (uint64_t)scratch(0),
				 PAGE_RW_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_RW));
	check_load("Perm1=RW: load from a POIndex 1 page", p, no_fault);
	set_por_el1(POR_WITH(1, PO_NONE));
	check_load("Perm1=none: load faults with Overlay", p,
		   load_fault(p.va, true));
	check_store("Perm1=none: store faults with WnR and Overlay", p,
		    store_fault(p.va, true));
}

/*
 * Perm bit order is R = bit 0, X = bit 1, W = bit 2, and every 0b1xxx
 * encoding is reserved and treated as no access (Table D8-74).
 */
static void check_encodings(void)
{
	struct page p = map_page(0, (uint64_t)scratch(0),
				 PAGE_RW_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_R));
	check_load("Perm1=R: load", p, no_fault);
	check_store("Perm1=R: store faults with WnR and Overlay", p,
		    store_fault(p.va, true));
	set_por_el1(POR_WITH(1, PO_W));
	check_store("Perm1=W: store", p, no_fault);
	check_load("Perm1=W: load faults with Overlay", p,
		   load_fault(p.va, true));
	set_por_el1(POR_WITH(1, PO_X));
	check_load("Perm1=X: load faults with Overlay", p,
		   load_fault(p.va, true));
	check_store("Perm1=X: store faults with Overlay", p,
		    store_fault(p.va, true));
	set_por_el1(POR_WITH(1, 0xf));
	check_load("Perm1=0b1111 (reserved): load faults with Overlay", p,
		   load_fault(p.va, true));
	check_store("Perm1=0b1111 (reserved): store faults with Overlay", p,
		    store_fault(p.va, true));
	set_por_el1(POR_WITH(1, 0xd));
	check_load("Perm1=0b1101 (reserved): load faults with Overlay", p,
		   load_fault(p.va, true));
}

/*
 * POIndex is descriptor bits [62:60] (D8.3, I_JGCLT) and selects
 * POR_EL1[4*POIndex+3:4*POIndex] (R_BXJBV, Table D8-72). POIndex 2 and 4
 * test bits 61 and 62 alone, POIndex 7 all three.
 */
static void check_poindex(void)
{
	static const struct {
		unsigned idx;
		const char *allowed, *denied;
	} cases[] = {
		{ 2, "POIndex 2 uses Perm2: load allowed by Perm2 alone",
		     "POIndex 2 uses Perm2: load denied by Perm2 alone" },
		{ 4, "POIndex 4 uses Perm4: load allowed by Perm4 alone",
		     "POIndex 4 uses Perm4: load denied by Perm4 alone" },
		{ 7, "POIndex 7 uses Perm7: load allowed by Perm7 alone",
		     "POIndex 7 uses Perm7: load denied by Perm7 alone" },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned idx = cases[i].idx;
		struct page p = map_page(i, (uint64_t)scratch(i),
					 PAGE_RW_EL1 | DESC_POINDEX(idx));

		/* Perm0 stays RWX: it covers the image itself. */
		set_por_el1(POR(0, PO_RWX) | POR(idx, PO_R));
		check_load(cases[i].allowed, p, no_fault);
		set_por_el1(POR_WITH(idx, PO_NONE));
		check_load(cases[i].denied, p, load_fault(p.va, true));
	}
}

/*
 * POR_ELx, POE and E0POE are not permitted to be cached in a TLB
 * (I_SKPNZ, I_KPGBV, I_SDBKH): after MSR and ISB, the next access sees the
 * new value without any TLBI, in both directions, even for a translation
 * that was just used.
 */
static void check_no_tlbi(void)
{
	struct page p = map_page(0, (uint64_t)scratch(0),
				 PAGE_RW_EL1 | DESC_POINDEX(1));
	struct page x = map_page(1, (uint64_t)exec_page,
				 PAGE_RX_EL1 | DESC_POINDEX(1));

	/* Each revocation follows accesses that used the permission it
	 * removes, so a stale TLB entry would let the access through. */
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("no TLBI: load with Perm1=RW (warms the TLB)", p, no_fault);
	check_store("no TLBI: store with Perm1=RW (warms the TLB)", p,
		    no_fault);
	set_por_el1(POR_WITH(1, PO_W));
	check_load("no TLBI: revoke R, load faults", p, load_fault(p.va, true));
	check_store("no TLBI: W kept, store", p, no_fault);
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("no TLBI: grant R again, load", p, no_fault);
	check_store("no TLBI: RW again, store", p, no_fault);
	set_por_el1(POR_WITH(1, PO_R));
	check_store("no TLBI: revoke W, store faults", p,
		    store_fault(p.va, true));
	check_load("no TLBI: R kept, load", p, no_fault);
	set_por_el1(POR_WITH(1, PO_NONE));
	check_load("no TLBI: revoke all, load faults", p,
		   load_fault(p.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("no TLBI: grant RW, load", p, no_fault);
	check_store("no TLBI: grant RW, store", p, no_fault);

	set_por_el1(POR_WITH(1, PO_RX));
	check_call("no TLBI: execute with Perm1=RX (warms the TLB)", x.va,
		   no_fault);
	set_por_el1(POR_WITH(1, PO_R));
	check_call("no TLBI: revoke X, execute faults", x.va,
		   fetch_fault(x.va, true));
	set_por_el1(POR_WITH(1, PO_RX));
	check_call("no TLBI: grant X, execute", x.va, no_fault);

	set_por_el1(POR_WITH(1, PO_NONE));
	set_tcr2(0);
	check_load("no TLBI: TCR2_EL1.POE=0 disables the overlay", p,
		   no_fault);
	set_tcr2(TCR2_POE);
	check_load("no TLBI: TCR2_EL1.POE=1 enables it again", p,
		   load_fault(p.va, true));
}

/*
 * Overlay faults have priority over Base permission faults
 * (D8.15.5.1); a fault from the Base permissions has Overlay = 0.
 */
static void check_priority(void)
{
	struct page ro = map_page(0, (uint64_t)scratch(0),
				  PAGE_RO_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_NONE));
	check_store("base RO, overlay none: store faults with Overlay", ro,
		    store_fault(ro.va, true));
	set_por_el1(POR_WITH(1, PO_R));
	check_store("base RO, overlay R: store faults with Overlay", ro,
		    store_fault(ro.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("base RO, overlay RW: load", ro, no_fault);
	check_store("base RO, overlay RW: store faults without Overlay", ro,
		    store_fault(ro.va, false));
}

/*
 * An access that both reads and writes is checked for both together at
 * each priority step (D8.15.5.1): LDADD on a page whose overlay lacks R
 * faults on the overlay even though base W is missing as well, and its
 * WnR is 0 because a read alone would have faulted (D24.2.45, WnR). DC ZVA
 * behaves as a set of stores (D7.5.10) and is not a cache maintenance
 * instruction (D7.5.9.2), so WnR is 1; FAR_EL1 holds its register argument
 * (D24.2.48).
 */
static void check_rmw(void)
{
	struct page ro = map_page(0, (uint64_t)scratch(0),
				  PAGE_RO_EL1 | DESC_POINDEX(1));
	struct page rw = map_page(1, (uint64_t)scratch(1),
				  PAGE_RW_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_W));
	check_ldadd("base RO, overlay W: LDADD faults with Overlay, WnR 0", ro,
		    load_fault(ro.va, true));
	set_por_el1(POR_WITH(1, PO_R));
	check_ldadd("base RW, overlay R: LDADD faults with Overlay, WnR 1", rw,
		    store_fault(rw.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_ldadd("base RO, overlay RW: LDADD faults without Overlay", ro,
		    store_fault(ro.va, false));
	check_ldadd("base RW, overlay RW: LDADD", rw, no_fault);

	set_por_el1(POR_WITH(1, PO_R));
	check_dczva("overlay R: DC ZVA faults with WnR and Overlay", rw,
		    store_fault(rw.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_dczva("overlay RW: DC ZVA", rw, no_fault);
}

/*
 * Instruction fetch: the overlay X permission is checked first, then the
 * base X permission (J1.1.4.26 AArch64.S1CheckPermissions, IFETCH case);
 * fetch needs no R.
 */
static void check_fetch(void)
{
	struct page x = map_page(1, (uint64_t)exec_page,
				 PAGE_RX_EL1 | DESC_POINDEX(1));
	struct page nx = map_page(2, (uint64_t)exec_page,
				  PAGE_RO_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_RX));
	check_call("Perm1=RX: execute", x.va, no_fault);
	set_por_el1(POR_WITH(1, PO_X));
	check_call("Perm1=X: execute", x.va, no_fault);
	check_load("Perm1=X: load from the same page faults with Overlay", x,
		   load_fault(x.va, true));
	set_por_el1(POR_WITH(1, PO_R));
	check_call("Perm1=R: execute faults with Overlay", x.va,
		   fetch_fault(x.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_call("Perm1=RW: execute faults with Overlay", x.va,
		   fetch_fault(x.va, true));
	set_por_el1(POR_WITH(1, PO_RX));
	check_call("base PXN, Perm1=RX: execute faults without Overlay",
		   nx.va, fetch_fault(nx.va, false));
}

/*
 * SCTLR_EL1.WXN with the overlay (R_QXXPC; J1.1.4.27
 * AArch64.S1ComputePermissions, J1.1.4.28 AArch64.S1DirectBasePermissions):
 * wxn = SCTLR.WXN AND base W AND base X. With the overlay applied, wxn
 * removes overlay W when overlay X is present and keeps base X; without it,
 * wxn removes base X. A store then fails on overlay W, so it reports
 * Overlay = 1. WXN may be cached in a TLB (R_NHNQC), hence the TLBI after
 * changing it; its effect on overlay permissions may not (I_XGFTP), hence
 * no TLBI between the POR_EL1 changes.
 */
static void check_wxn(void)
{
	struct page w = map_page(1, (uint64_t)exec_page,
				 PAGE_RWX_EL1 | DESC_POINDEX(1));
	struct page r = map_page(2, (uint64_t)exec_page,
				 PAGE_RX_EL1 | DESC_POINDEX(1));
	struct page wd = offset(w, EXEC_PAGE_DATA);
	struct page rd = offset(r, EXEC_PAGE_DATA);

	write_sysreg(sctlr_el1, read_sysreg(sctlr_el1) | SCTLR_WXN);
	tlb_sync();

	set_por_el1(POR_WITH(1, PO_RWX));
	check_call("WXN, base RWX, overlay RWX: execute (base X kept)", w.va,
		   no_fault);
	check_load("WXN, base RWX, overlay RWX: load", wd, no_fault);
	check_store("WXN, base RWX, overlay RWX: store faults with Overlay",
		    wd, store_fault(wd.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_store("WXN, base RWX, overlay RW: store", wd, no_fault);
	check_call("WXN, base RWX, overlay RW: execute faults with Overlay",
		   w.va, fetch_fault(w.va, true));
	set_por_el1(POR_WITH(1, PO_RWX));
	check_store("WXN, base RX, overlay RWX: store faults without Overlay",
		    rd, store_fault(rd.va, false));
	check_call("WXN, base RX, overlay RWX: execute", r.va, no_fault);

	/* Whether WXN removes base X depends on POE, and that effect on the
	 * Base permissions may be cached (I_XGFTP). */
	set_tcr2(0);
	tlb_sync();
	check_store("WXN, base RWX, no overlay: store", wd, no_fault);
	check_call("WXN, base RWX, no overlay: execute faults without Overlay",
		   w.va, fetch_fault(w.va, false));
}

/*
 * With TCR2_EL1.PIE = 1 the overlay applies only to PIR_EL1 and PIRE0_EL1
 * encodings with bit 3 = 0 (Table D8-68, R_DPZHF, R_GDVJK). 0b0110 is RWX
 * with PrivWXN (Table D8-69), which with the overlay removes overlay W
 * when overlay X is present (R_QXXPC).
 */
static void check_pie(void)
{
	/* PIIndex 8 and 12 are what the image's own RX and RW mappings
	 * become under PIE (DESC_PIINDEX); they stay outside the overlay. */
	const uint64_t pir = POR(8, 0xa) | POR(12, 0xc) |
			     POR(1, 0x5) | POR(2, 0xc) | POR(3, 0x6);
	/* PIIndex 5 is the EL0 code below: UnprivRead and UnprivExecute. No
	 * PIRE0 entry grants write where PIR grants execute (R_VFPJF). */
	const uint64_t pire0 = POR(5, 0xa) | POR(1, 0x5) | POR(2, 0xc);
	struct page a, b, c, cd, code;

	if (!(read_sysreg(ID_AA64MMFR3_EL1) >> 8 & 0xf)) {
		failed++;
		print("FAIL: S1PIE checks (expected FEAT_S1PIE, "
		      "got ID_AA64MMFR3_EL1.S1PIE = 0)\n");
		return;
	}
	write_sysreg(PIRE0_EL1, pire0);
	write_sysreg(PIR_EL1, pir);
	set_tcr2(TCR2_PIE | TCR2_POE);
	tlb_sync();

	a = map_page(0, (uint64_t)scratch(0),
		     DESC_PIINDEX(1) | DESC_POINDEX(1));
	b = map_page(3, (uint64_t)scratch(1),
		     DESC_PIINDEX(2) | DESC_POINDEX(1));
	c = map_page(1, (uint64_t)exec_page,
		     DESC_PIINDEX(3) | DESC_POINDEX(1));
	cd = offset(c, EXEC_PAGE_DATA);
	code = map_page(4, (uint64_t)el0_page, DESC_PIINDEX(5));

	set_por_el1(POR_WITH(1, PO_NONE));
	check_load("PIE, PIR 0b0101 (overlay applied), Perm1=none: load "
		   "faults with Overlay", a, load_fault(a.va, true));
	check_load("PIE, PIR 0b1100 (no overlay), Perm1=none: load", b,
		   no_fault);
	check_store("PIE, PIR 0b1100 (no overlay), Perm1=none: store", b,
		    no_fault);
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("PIE, PIR 0b0101 (overlay applied), Perm1=RW: load", a,
		   no_fault);

	set_por_el1(POR_WITH(1, PO_RWX));
	check_call("PIE, PIR 0b0110 (WXN), Perm1=RWX: execute", c.va,
		   no_fault);
	check_store("PIE, PIR 0b0110 (WXN), Perm1=RWX: store faults with "
		    "Overlay", cd, store_fault(cd.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_store("PIE, PIR 0b0110 (WXN), Perm1=RW: store", cd, no_fault);
	check_call("PIE, PIR 0b0110 (WXN), Perm1=RW: execute faults with "
		   "Overlay", c.va, fetch_fault(c.va, true));

	set_tcr2(TCR2_PIE | TCR2_POE | TCR2_E0POE);
	set_por_el0(POR_WITH(1, PO_NONE));
	check_el0_load("PIE, PIRE0 0b0101 (overlay applied), POR_EL0 "
		       "Perm1=none: EL0 load faults with Overlay", code, a,
		       el0_load_fault(a.va));
	check_el0_load("PIE, PIRE0 0b1100 (no overlay), POR_EL0 Perm1=none: "
		       "EL0 load", code, b, no_fault);
}

/* PAR_EL1 after AT, reduced to F, FST and Overlay, or to the PA (D24.2.142). */
#define PAR_F		1UL
#define PAR_FST		(0x3fUL << 1)
#define PAR_OVERLAY	(1UL << 14)
#define PAR_PA		0xfffffffff000UL

#define AT(op, va) ({ \
	__asm__ volatile("at " #op ", %0\n\tisb" : : "r"(va) : "memory"); \
	read_sysreg(par_el1); })

static void check_par(const char *name, uint64_t par, uint64_t want)
{
	uint64_t got = par & PAR_F ? par & (PAR_F | PAR_FST | PAR_OVERLAY)
				   : par & PAR_PA;

	if (got == want) {
		pass(name);
		return;
	}
	failed++;
	print("FAIL: %s (expected PAR_EL1 fields %x, got %x; F = bit 0, "
	      "FST = bits [6:1], Overlay = bit 14, else PA)\n",
	      name, want, got);
}

static uint64_t par_perm_fault(bool overlay)
{
	return PAR_F | FSC_PERM(3) << 1 | (overlay ? PAR_OVERLAY : 0);
}

/*
 * AT reports an overlay Permission fault in PAR_EL1 with Overlay = 1
 * (D24.2.142; D8.15.2 MMU faults generated by address translation
 * instructions).
 */
static void check_at(void)
{
	struct page p = map_page(0, (uint64_t)scratch(0),
				 PAGE_RW_EL1 | DESC_POINDEX(1));
	struct page ro = map_page(2, (uint64_t)scratch(2),
				  PAGE_RO_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_NONE));
	check_par("AT S1E1R, Perm1=none: PAR.F, permission, Overlay",
		  AT(s1e1r, p.va), par_perm_fault(true));
	set_por_el1(POR_WITH(1, PO_R));
	check_par("AT S1E1R, Perm1=R: PA", AT(s1e1r, p.va), p.pa);
	check_par("AT S1E1W, Perm1=R: PAR.F, permission, Overlay",
		  AT(s1e1w, p.va), par_perm_fault(true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_par("AT S1E1W, Perm1=RW: PA", AT(s1e1w, p.va), p.pa);
	check_par("AT S1E1W, base RO, Perm1=RW: PAR.F, permission, no Overlay",
		  AT(s1e1w, ro.va), par_perm_fault(false));
}

/*
 * EL0 accesses to POR_EL0 trap to EL1 with EC 0x18 while
 * CPACR_EL1.E0POE = 0 (D24.2.36, D24.2.150); the ISS names the register
 * (Op0 3, Op1 3, CRn 10, CRm 2, Op2 4), Rt and the direction (D24.2.45).
 */
static void check_el0_access(void)
{
	const uint64_t iss_por_el0 = 3UL << 20 | 4UL << 17 | 3UL << 14 |
				     10UL << 10 | 2UL << 1;
	const uint64_t value = 0x01234567;
	struct page code = map_page(4, (uint64_t)el0_page, PAGE_RX_EL0);
	struct outcome trap = { .faults = 1, .ec = EC_SYSREG };
	uint64_t ret;

	trap.iss = iss_por_el0 | 1;	/* Direction 1: read, Rt = x0 */
	expect("CPACR_EL1.E0POE=0: MRS POR_EL0 at EL0 traps", trap,
	       do_el0(el0_entry(code, el0_mrs_por), 0, 0, &ret));
	trap.iss = iss_por_el0;		/* Direction 0: write */
	expect("CPACR_EL1.E0POE=0: MSR POR_EL0 at EL0 traps", trap,
	       do_el0(el0_entry(code, el0_msr_por), value, 0, &ret));
	report_value("CPACR_EL1.E0POE=0: trapped MSR leaves POR_EL0 alone",
		     "POR_EL0", POR_ALL_RWX, read_sysreg(POR_EL0));

	write_sysreg(cpacr_el1, read_sysreg(cpacr_el1) | CPACR_E0POE);
	isb();
	if (report("CPACR_EL1.E0POE=1: MSR POR_EL0 at EL0", no_fault,
		   do_el0(el0_entry(code, el0_msr_por), value, 0, &ret)))
		report_value("CPACR_EL1.E0POE=1: MSR POR_EL0 at EL0",
			     "POR_EL0", value, read_sysreg(POR_EL0));
	if (report("CPACR_EL1.E0POE=1: MRS POR_EL0 at EL0", no_fault,
		   do_el0(el0_entry(code, el0_mrs_por), 0, 0, &ret)))
		report_value("CPACR_EL1.E0POE=1: MRS POR_EL0 at EL0", "x0",
			     value, ret);
}

/*
 * With TCR2_EL1.E0POE = 1, unprivileged accesses use POR_EL0 and
 * privileged ones POR_EL1 (Table D8-72, R_GDVJK). LDTR from EL1 is an
 * unprivileged access (AccessDescriptor el = EL0 in J1.1.4.27), so POR_EL0
 * governs it; Linux's uaccess relies on this.
 */
static void check_el0_overlay(void)
{
	struct page code = map_page(4, (uint64_t)el0_page, PAGE_RX_EL0);
	struct page d = map_page(5, (uint64_t)scratch(3),
				 PAGE_RW_EL0 | DESC_POINDEX(1));
	uintptr_t ldr = el0_entry(code, el0_ldr);
	uintptr_t str = el0_entry(code, el0_str);
	volatile uint64_t *mem = (volatile uint64_t *)d.pa;
	uint64_t ret, before;

	set_tcr2(TCR2_POE | TCR2_E0POE);
	set_por_el0(POR_WITH(1, PO_NONE));
	check_el0_load("E0POE, POR_EL0 Perm1=none: EL0 load faults with "
		       "Overlay", code, d, el0_load_fault(d.va));
	set_por_el0(POR_WITH(1, PO_R));
	check_el0_load("E0POE, POR_EL0 Perm1=R: EL0 load", code, d, no_fault);
	before = *mem;
	if (report("E0POE, POR_EL0 Perm1=R: EL0 store faults with WnR and "
		   "Overlay", perm_fault(EC_DABT_LOWER, d.va, 3, true, true),
		   do_el0(str, d.va, ~before, &ret)))
		report_value("E0POE, POR_EL0 Perm1=R: EL0 store faults with "
			     "WnR and Overlay", "memory", before, *mem);

	set_por_el0(POR_WITH(1, PO_NONE));
	set_por_el1(POR_ALL_RWX);
	check_read(do_ldtr, "E0POE, POR_EL0 Perm1=none: LDTR at EL1 faults "
		   "with Overlay", d, load_fault(d.va, true));
	check_load("E0POE, POR_EL0 Perm1=none, POR_EL1 RWX: LDR at EL1", d,
		   no_fault);
	set_por_el0(POR_ALL_RWX);
	set_por_el1(POR_WITH(1, PO_NONE));
	check_read(do_ldtr, "E0POE, POR_EL1 Perm1=none, POR_EL0 RWX: LDTR at "
		   "EL1", d, no_fault);
	check_load("E0POE, POR_EL1 Perm1=none: LDR at EL1 faults with "
		   "Overlay", d, load_fault(d.va, true));
	set_por_el1(POR_ALL_RWX);

	set_por_el0(POR_WITH(1, PO_NONE));
	check_par("E0POE, POR_EL0 Perm1=none: AT S1E0R gives Overlay",
		  AT(s1e0r, d.va), par_perm_fault(true));
	check_par("E0POE, POR_EL0 Perm1=none: AT S1E1R gives the PA",
		  AT(s1e1r, d.va), d.pa);

	set_por_el0(POR_WITH(0, PO_R));
	expect("E0POE, POR_EL0 Perm0=R: EL0 execute faults with Overlay",
	       perm_fault(EC_IABT_LOWER, ldr, 3, false, true),
	       do_el0(ldr, d.va, 0, &ret));

	set_tcr2(TCR2_E0POE);
	set_por_el0(POR_WITH(1, PO_NONE));
	check_el0_load("E0POE without POE, POR_EL0 Perm1=none: EL0 load "
		       "faults with Overlay", code, d, el0_load_fault(d.va));

	set_tcr2(TCR2_POE);
	check_el0_load("no E0POE, POR_EL0 Perm1=none: EL0 load", code, d,
		       no_fault);
	check_read(do_ldtr, "no E0POE, POR_EL0 Perm1=none: LDTR at EL1", d,
		   no_fault);
}

/*
 * POE = 1 or E0POE = 1 disables hierarchical permissions as if
 * TCR_EL1.HPD0 were 1 (R_BVXDG; J1.1.4.102 AArch64.S1TTWParamsEL10), for
 * privileged accesses too. The page is RW, its table descriptor says
 * APTable = read-only (Table D8-64). HPD may be cached in a TLB, so each
 * change is followed by a TLBI.
 */
static void check_hpd(void)
{
	struct page p = map_hpd_page(TABLE_AP_RO);

	write_sysreg(tcr_el1, read_sysreg(tcr_el1) & ~TCR_HPD0);
	set_tcr2(0);
	tlb_sync();
	check_store("HPD0=0, no POE: APTable read-only, store faults", p,
		    store_fault(p.va, false));
	set_tcr2(TCR2_POE);
	tlb_sync();
	check_store("HPD0=0, POE=1: APTable ignored, store", p, no_fault);
	set_tcr2(TCR2_E0POE);
	tlb_sync();
	check_store("HPD0=0, E0POE=1: APTable ignored, store", p, no_fault);
}

/*
 * PSTATE.PAN = 1 removes the base PrivRead and PrivWrite of EL0-accessible
 * pages (J1.1.4.28), and the overlay still outranks that base fault
 * (D8.15.5.1). EL1 accesses with PAN set may use translations of their own
 * (in QEMU a separate TLB index), so the no-TLBI revocation is checked
 * again with PAN set.
 */
static void check_pan(void)
{
	struct page p = map_page(0, (uint64_t)scratch(0),
				 PAGE_RW_EL1 | DESC_POINDEX(1));
	struct page u = map_page(5, (uint64_t)scratch(3),
				 PAGE_RW_EL0 | DESC_POINDEX(1));

	__asm__ volatile("msr pan, #1\n\tisb" : : : "memory");
	set_por_el1(POR_WITH(1, PO_RW));
	check_store("PAN: EL1 page, Perm1=RW: store (warms the TLB)", p,
		    no_fault);
	set_por_el1(POR_WITH(1, PO_R));
	check_store("PAN: EL1 page, revoke W without TLBI, store faults", p,
		    store_fault(p.va, true));
	set_por_el1(POR_WITH(1, PO_NONE));
	check_load("PAN: EL0 page, Perm1=none: load faults with Overlay", u,
		   load_fault(u.va, true));
	set_por_el1(POR_WITH(1, PO_RW));
	check_load("PAN: EL0 page, Perm1=RW: load faults without Overlay", u,
		   load_fault(u.va, false));
}

/*
 * With hardware dirty state management (TCR_EL1.HA/HD) a DBM page is
 * writable by its Base permissions (J1.1.4.28), so a store that the overlay
 * denies faults on the overlay, and a faulting access must not mark the
 * descriptor dirty (J1.1.4.62 AArch64.SettingDirtyStatePermitted). HA/HD
 * may be cached in a TLB, hence the TLBI.
 */
static void check_dirty(void)
{
	struct page p;

	write_sysreg(tcr_el1, read_sysreg(tcr_el1) | TCR_HA | TCR_HD);
	tlb_sync();
	p = map_page(0, (uint64_t)scratch(0),
		     PAGE_RO_EL1 | DESC_DBM | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_R));
	check_store("DBM page, Perm1=R: store faults with Overlay", p,
		    store_fault(p.va, true));
	report_value("DBM page, Perm1=R: the faulting store leaves it clean",
		     "AP[2]", 1, page_desc(0) >> 7 & 1);
	set_por_el1(POR_WITH(1, PO_RW));
	check_store("DBM page, Perm1=RW: store", p, no_fault);
	report_value("DBM page, Perm1=RW: the store marks it dirty", "AP[2]", 0,
		     page_desc(0) >> 7 & 1);
}

/*
 * POIndex is taken from Block descriptors as well (D8.3, I_JGCLT); the
 * Permission fault reports the level of the block.
 */
static void check_blocks(void)
{
	struct page l2 = map_l2_block(PAGE_RW_EL1 | DESC_POINDEX(1));
	struct page l1 = map_l1_block(PAGE_RW_EL1 | DESC_POINDEX(1));

	set_por_el1(POR_WITH(1, PO_NONE));
	check_load("level 2 block, Perm1=none: load faults at level 2", l2,
		   perm_fault(EC_DABT_SAME, l2.va, 2, false, true));
	check_load("level 1 block, Perm1=none: load faults at level 1", l1,
		   perm_fault(EC_DABT_SAME, l1.va, 1, false, true));
	set_por_el1(POR_WITH(1, PO_R));
	check_load("level 2 block, Perm1=R: load", l2, no_fault);
	check_store("level 2 block, Perm1=R: store faults at level 2", l2,
		    perm_fault(EC_DABT_SAME, l2.va, 2, true, true));
	check_load("level 1 block, Perm1=R: load", l1, no_fault);
}

int main(void)
{
	static void (*const checks[])(void) = {
		check_no_access, check_encodings, check_poindex,
		check_no_tlbi, check_priority, check_rmw, check_fetch,
		check_wxn,
		check_pie, check_at, check_el0_access, check_el0_overlay,
		check_pan, check_hpd, check_dirty, check_blocks,
	};
	uint64_t el = read_sysreg(CurrentEL) >> 2 & 3;
	uint64_t mmfr3;

	print("ARA FEAT_S1POE conformance image\n");
	if (el != 1) {
		print("FATAL: started at EL%u, expected EL1\n", (unsigned)el);
		sys_exit(STATUS_BROKEN);
	}
	mmfr3 = read_sysreg(ID_AA64MMFR3_EL1);
	print("ID_AA64MMFR3_EL1 = %x\n", mmfr3);
	/* D24.2.91: S1POE, bits [19:16]. */
	if (!(mmfr3 >> 16 & 0xf)) {
		print("S1POE not implemented by this CPU\n");
		sys_exit(STATUS_NO_S1POE);
	}

	for (unsigned n = 0; n < 8; n++)
		*scratch(n) = 0x5eed0000UL + n;
	mmu_init();
	for (unsigned i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		baseline();
		checks[i]();
	}
	print("%u passed, %u failed\n", passed, failed);
	sys_exit(failed || !passed ? STATUS_FAIL : STATUS_PASS);
}
