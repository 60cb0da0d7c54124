/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared definitions of the bare-metal FEAT_S1POE conformance image.
 * Section and rule ids refer to the Arm ARM (DDI 0487).
 */
#ifndef POE_CONFORMANCE_H
#define POE_CONFORMANCE_H

/* Returned in x0 by exec_page; probe_call() returns EXEC_FAULTED instead. */
#define EXEC_MAGIC	0xe7ec
#define EXEC_FAULTED	(~0UL)
/* exec_page holds code below this offset and scratch data from it on. */
#define EXEC_PAGE_DATA	0x800

/* Exit status seen by QEMU through semihosting SYS_EXIT. */
#define STATUS_PASS		0
#define STATUS_FAIL		1
#define STATUS_NO_S1POE		2
#define STATUS_BROKEN		3	/* the image itself went wrong */

#define FRAME_SIZE	272	/* struct frame, 16-byte aligned */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

/*
 * Registers that binutils 2.40 cannot name, spelled as op0_op1_CRn_CRm_op2.
 * The two-level macros let read_sysreg(POR_EL1) expand the name first.
 */
#define ID_AA64MMFR3_EL1	s3_0_c0_c7_3	/* D24.2.91 */
#define TCR2_EL1		s3_0_c2_c0_3	/* D24.2.190 */
#define PIRE0_EL1		s3_0_c10_c2_2	/* D24.2.148 */
#define PIR_EL1			s3_0_c10_c2_3	/* D24.2.145 */
#define POR_EL0			s3_3_c10_c2_4	/* D24.2.150 */
#define POR_EL1			s3_0_c10_c2_4	/* D24.2.151 */
#define HFGRTR_EL2		s3_4_c1_c1_4	/* D24.2.73 */
#define HFGWTR_EL2		s3_4_c1_c1_5	/* D24.2.75 */
#define HCRX_EL2		s3_4_c1_c2_2	/* D24.2.63 */

#define read_sysreg_(r) ({ uint64_t v_; \
	__asm__ volatile("mrs %0, " #r : "=r"(v_)); v_; })
#define read_sysreg(r) read_sysreg_(r)
#define write_sysreg_(r, v) \
	__asm__ volatile("msr " #r ", %0" : : "r"((uint64_t)(v)) : "memory")
#define write_sysreg(r, v) write_sysreg_(r, v)
#define isb() __asm__ volatile("isb" : : : "memory")

/* ESR_EL1 (D24.2.45). */
#define ESR_EC(esr)		((unsigned)((esr) >> 26) & 0x3f)
#define ESR_WNR			(1UL << 6)	/* Data Abort ISS.WnR */
#define ESR_FSC			0x3fUL		/* DFSC / IFSC */
#define ESR_OVERLAY		(1UL << 38)	/* ISS2.Overlay, ISS2 bit 6 */
#define EC_SYSREG		0x18
#define EC_SVC64		0x15
#define EC_IABT_LOWER		0x20
#define EC_IABT_SAME		0x21
#define EC_DABT_LOWER		0x24
#define EC_DABT_SAME		0x25
#define FSC_PERM(level)		(0x0c | (level))	/* 0b0011LL */

/* Stage 1 translation descriptor bits, 4KB granule (D8.3). */
#define DESC_BLOCK		0x1UL
#define DESC_TABLE		0x3UL		/* also a level 3 page */
#define DESC_ATTR_DEVICE	(0UL << 2)	/* MAIR_EL1 Attr0 */
#define DESC_ATTR_NORMAL	(1UL << 2)	/* MAIR_EL1 Attr1 */
#define DESC_AP_EL0		(1UL << 6)	/* AP[1]: EL0 access */
#define DESC_AP_RO		(1UL << 7)	/* AP[2]: read-only */
#define DESC_SH_INNER		(3UL << 8)
#define DESC_AF			(1UL << 10)
#define DESC_DBM		(1UL << 51)
#define DESC_PXN		(1UL << 53)
#define DESC_UXN		(1UL << 54)
#define DESC_POINDEX(n)		((uint64_t)(n) << 60)	/* POIndex[2:0] */
#define TABLE_AP_RO		(1UL << 62)	/* APTable[1] */

/*
 * Under S1PIE the PIIndex is descriptor bits {54, 53, 51, 6}
 * (D8.3, Table D8-67).
 */
#define DESC_PIINDEX(n) \
	(((n) & 8 ? DESC_UXN : 0) | ((n) & 4 ? DESC_PXN : 0) | \
	 ((n) & 2 ? DESC_DBM : 0) | ((n) & 1 ? DESC_AP_EL0 : 0))

/* Base permissions of test pages (Direct permissions, Table D8-63). */
#define PAGE_RW_EL1	(DESC_PXN | DESC_UXN)
#define PAGE_RO_EL1	(DESC_AP_RO | DESC_PXN | DESC_UXN)
#define PAGE_RX_EL1	(DESC_AP_RO | DESC_UXN)
#define PAGE_RWX_EL1	DESC_UXN
#define PAGE_RW_EL0	(DESC_AP_EL0 | DESC_PXN | DESC_UXN)
#define PAGE_RX_EL0	(DESC_AP_EL0 | DESC_AP_RO | DESC_PXN)

/* POR_ELx Perm<m> encodings (Table D8-74): bit 0 R, bit 1 X, bit 2 W. */
#define PO_NONE		0x0UL
#define PO_R		0x1UL
#define PO_X		0x2UL
#define PO_RX		0x3UL
#define PO_W		0x4UL
#define PO_RW		0x5UL
#define PO_RWX		0x7UL
#define POR(idx, perm)	((uint64_t)(perm) << (4 * (idx)))
/* Every index RWX, then one index replaced. */
#define POR_ALL_RWX	0x77777777UL
#define POR_WITH(idx, perm) \
	((POR_ALL_RWX & ~POR(idx, 0xf)) | POR(idx, perm))

/* TCR2_EL1 (D24.2.190). */
#define TCR2_PIE	(1UL << 1)
#define TCR2_E0POE	(1UL << 2)
#define TCR2_POE	(1UL << 3)

#define SCTLR_WXN	(1UL << 19)
#define CPACR_E0POE	(1UL << 29)	/* D24.2.36 */
#define TCR_HA		(1UL << 39)
#define TCR_HD		(1UL << 40)
#define TCR_HPD0	(1UL << 41)

/* One faulting or non-faulting access, reduced to what the checks compare. */
struct outcome {
	unsigned faults;	/* exceptions taken during the probe */
	unsigned ec;
	uint64_t iss;		/* abort: WnR | FSC; trap: ISS[21:0] */
	bool overlay;		/* ESR_EL1 bit 38 */
	uint64_t far;		/* aborts only */
};

/* A test page: where the checks access it and where it really is. */
struct page {
	uintptr_t va;
	uint64_t pa;
};

/* platform.c */
void print(const char *fmt, ...);
__attribute__((noreturn)) void sys_exit(unsigned status);
void tlb_sync(void);
void mmu_init(void);
uint64_t *scratch(unsigned n);
struct page map_page(unsigned slot, uint64_t pa, uint64_t attrs);
uint64_t page_desc(unsigned slot);
struct page map_l2_block(uint64_t attrs);
struct page map_l1_block(uint64_t attrs);
struct page map_hpd_page(uint64_t table_attrs);
struct outcome do_load(uintptr_t va, uint64_t *val);
struct outcome do_store(uintptr_t va, uint64_t val);
struct outcome do_ldtr(uintptr_t va, uint64_t *val);
struct outcome do_ldadd(uintptr_t va, uint64_t v, uint64_t *old);
struct outcome do_dczva(uintptr_t va);
struct outcome do_call(uintptr_t va, uint64_t *ret);
struct outcome do_el0(uintptr_t entry, uint64_t x0, uint64_t x1,
		      uint64_t *ret);

/* boot.S */
extern char exec_page[], el0_page[];
extern char el0_ldr[], el0_str[], el0_mrs_por[], el0_msr_por[];
#endif /* __ASSEMBLER__ */
#endif /* POE_CONFORMANCE_H */
