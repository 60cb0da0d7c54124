/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the checks stand on: output, exit status, translation tables and
 * probes that turn one access into a struct outcome.
 *
 * The image targets QEMU's "virt" machine under TCG, which does not model
 * caches, so there is no cache maintenance around table updates.
 */
#include <stdarg.h>

#include "conformance.h"

/* PL011 UART of the virt machine (memory map in QEMU hw/arm/virt.c). */
#define UART_DR		((volatile uint32_t *)0x09000000)
#define UART_FR		((volatile uint32_t *)0x09000018)
#define UART_FR_TXFF	(1U << 5)

#define RAM_BASE	0x40000000UL
#define BLOCK_2M	0x200000UL
/* RAM the image does not use (link.ld ends the image below it). */
#define SCRATCH_PA	(RAM_BASE + 2 * BLOCK_2M)

/* Test aliases live outside the identity map of RAM. */
#define ALIAS_PAGES_VA	0x80000000UL	/* level 3 pages */
#define ALIAS_L2_VA	0x80200000UL	/* level 2 block of SCRATCH_PA */
#define ALIAS_HPD_VA	0x80400000UL	/* page under its own table */
#define ALIAS_L1_VA	0xc0000000UL	/* level 1 block of RAM_BASE */

static void uart_putc(char c)
{
	while (*UART_FR & UART_FR_TXFF)
		;
	*UART_DR = (unsigned char)c;
}

static void put_hex(uint64_t v)
{
	int shift = 60;

	uart_putc('0');
	uart_putc('x');
	while (shift > 0 && !(v >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		uart_putc("0123456789abcdef"[v >> shift & 0xf]);
}

static void put_dec(uint64_t v)
{
	char buf[20];
	int n = 0;

	do
		buf[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		uart_putc(buf[--n]);
}

/* %s, %u (unsigned) and %x (uint64_t, printed with 0x). */
void print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			uart_putc(*fmt);
			continue;
		}
		switch (*++fmt) {
		case 's':
			for (const char *s = va_arg(ap, const char *); *s; s++)
				uart_putc(*s);
			break;
		case 'u':
			put_dec(va_arg(ap, unsigned));
			break;
		case 'x':
			put_hex(va_arg(ap, uint64_t));
			break;
		default:
			uart_putc('?');
			break;
		}
	}
	va_end(ap);
}

/* Semihosting SYS_EXIT, AArch64 form: x1 points at {reason, status}. */
void sys_exit(unsigned status)
{
	static const uint64_t ADP_Stopped_ApplicationExit = 0x20026;
	uint64_t block[2] = { ADP_Stopped_ApplicationExit, status };
	register uint64_t x0 __asm__("x0") = 0x18;
	register uint64_t x1 __asm__("x1") = (uint64_t)block;

	__asm__ volatile("hlt #0xf000" : : "r"(x0), "r"(x1) : "memory");
	/* Only reached without -semihosting: the runner's timeout ends it. */
	for (;;)
		__asm__ volatile("wfi");
}

/*
 * Called at EL2, MMU off, before .bss is cleared. Leaves EL2 enabled but
 * out of the way of the checks at EL1: no stage 2, no traps that the
 * checks would hit, and TCR2_EL1 in effect.
 */
void el2_prepare(void)
{
	/* D24.2.73/75: nPIRE0_EL1, nPIR_EL1, nPOR_EL0, nPOR_EL1 (bits
	 * [60:57]) are traps when 0, so they must be set. */
	const uint64_t fgt_untrap = 0xfUL << 57;

	write_sysreg(hcr_el2, 1UL << 31);	/* RW: EL1 is AArch64 */
	/* CPTR_EL2 with E2H = 0: only the RES1 bits, so TCPAC = 0 leaves
	 * CPACR_EL1 (E0POE) to EL1 (D24.2.38). */
	write_sysreg(cptr_el2, 0x33ff);
	/* ID_AA64MMFR1_EL1.HCX, bits [43:40] (D24.2.89): HCRX_EL2.TCR2En
	 * (bit 14), without which TCR2_EL1 is treated as 0 (D24.2.190). */
	if (read_sysreg(id_aa64mmfr1_el1) >> 40 & 0xf)
		write_sysreg(HCRX_EL2, 1UL << 14);
	/* ID_AA64MMFR0_EL1.FGT, bits [59:56] (D24.2.88). */
	if (read_sysreg(id_aa64mmfr0_el1) >> 56 & 0xf) {
		write_sysreg(HFGRTR_EL2, fgt_untrap);
		write_sysreg(HFGWTR_EL2, fgt_untrap);
	}
	isb();
}

/* ---------------------------------------------------------------------- */
/* Exceptions                                                              */

struct frame {
	uint64_t x[31];
	uint64_t elr;
	uint64_t spsr;
	uint64_t pad;
};
_Static_assert(sizeof(struct frame) == FRAME_SIZE, "frame layout");

/* Vector slots (D1.4.1.6): 4 = current EL with SP_ELx, 8 = lower EL. */
enum { VEC_SAME_EL_SYNC = 4, VEC_LOWER_EL_SYNC = 8 };

extern char el0_return[];

/*
 * Only a probe expects an exception; anything else means the image is
 * broken, which must not look like a check result.
 */
static volatile bool probe_armed;
static volatile struct {
	unsigned count;
	uint64_t esr, far;
} fault_log;

__attribute__((noreturn))
static void fatal(const char *what, uint64_t a, uint64_t b)
{
	print("FATAL: %s (%x, %x)\n", what, a, b);
	sys_exit(STATUS_BROKEN);
}

void el2_exception(void)
{
	fatal("exception taken to EL2: ESR_EL2, ELR_EL2",
	      read_sysreg(esr_el2), read_sysreg(elr_el2));
}

static void resume_el1_after_el0(struct frame *f)
{
	f->elr = (uint64_t)el0_return;
	f->spsr = 0x3c5;	/* EL1h, DAIF masked */
}

void exc_handle(struct frame *f, unsigned vector)
{
	uint64_t esr = read_sysreg(esr_el1);
	unsigned ec = ESR_EC(esr);
	bool from_el0 = vector == VEC_LOWER_EL_SYNC;

	if (vector != VEC_SAME_EL_SYNC && vector != VEC_LOWER_EL_SYNC)
		fatal("asynchronous or SP_EL0 exception", vector, f->elr);
	if (from_el0 && ec == EC_SVC64) {
		resume_el1_after_el0(f);
		return;
	}
	if (!probe_armed)
		fatal("unexpected exception: ESR, ELR", esr, f->elr);
	if (fault_log.count++ == 0) {
		fault_log.esr = esr;
		fault_log.far = read_sysreg(far_el1);
	}
	if (ec == EC_IABT_SAME || ec == EC_IABT_LOWER) {
		/* Nothing to step over: give up the call (see probe_call). */
		f->x[0] = EXEC_FAULTED;
		if (from_el0)
			resume_el1_after_el0(f);
		else
			f->elr = f->x[30];
		return;
	}
	f->elr += 4;
}

static void probe_begin(void)
{
	fault_log.count = 0;
	probe_armed = true;
}

static struct outcome probe_end(void)
{
	struct outcome o = { 0 };
	uint64_t esr = fault_log.esr;

	probe_armed = false;
	o.faults = fault_log.count;
	if (!o.faults)
		return o;
	o.ec = ESR_EC(esr);
	switch (o.ec) {
	case EC_DABT_SAME:
	case EC_DABT_LOWER:
	case EC_IABT_SAME:
	case EC_IABT_LOWER:
		o.iss = esr & (ESR_WNR | ESR_FSC);
		o.overlay = esr & ESR_OVERLAY;
		o.far = fault_log.far;
		break;
	case EC_SYSREG:
		o.iss = esr & 0x3fffff;	/* Op0 ... Direction */
		break;
	default:
		o.iss = esr & 0x1ffffff;
		break;
	}
	return o;
}

uint64_t probe_ldr(uintptr_t va);
void probe_str(uintptr_t va, uint64_t v);
uint64_t probe_ldtr(uintptr_t va);
uint64_t probe_ldadd(uintptr_t va, uint64_t v);
void probe_dczva(uintptr_t va);
uint64_t probe_call(uintptr_t va);
uint64_t run_el0(uintptr_t entry, uint64_t x0, uint64_t x1);

struct outcome do_load(uintptr_t va, uint64_t *val)
{
	probe_begin();
	*val = probe_ldr(va);
	return probe_end();
}

struct outcome do_store(uintptr_t va, uint64_t val)
{
	probe_begin();
	probe_str(va, val);
	return probe_end();
}

struct outcome do_ldtr(uintptr_t va, uint64_t *val)
{
	probe_begin();
	*val = probe_ldtr(va);
	return probe_end();
}

struct outcome do_ldadd(uintptr_t va, uint64_t v, uint64_t *old)
{
	probe_begin();
	*old = probe_ldadd(va, v);
	return probe_end();
}

struct outcome do_dczva(uintptr_t va)
{
	probe_begin();
	probe_dczva(va);
	return probe_end();
}

struct outcome do_call(uintptr_t va, uint64_t *ret)
{
	probe_begin();
	*ret = probe_call(va);
	return probe_end();
}

struct outcome do_el0(uintptr_t entry, uint64_t x0, uint64_t x1,
		      uint64_t *ret)
{
	probe_begin();
	*ret = run_el0(entry, x0, x1);
	return probe_end();
}

/* ---------------------------------------------------------------------- */
/* Translation tables: 4KB granule, 39-bit VA, walks start at level 1.    */

#define TABLE_ENTRIES 512
#define PAGE_SIZE 4096UL
typedef uint64_t table_t[TABLE_ENTRIES] __attribute__((aligned(PAGE_SIZE)));

static table_t l1, l2_ram, l2_alias, l3_alias, l3_hpd;

#define LEAF(pa, attrs) \
	((pa) | (attrs) | DESC_AF | DESC_SH_INNER | DESC_ATTR_NORMAL)

void tlb_sync(void)
{
	__asm__ volatile("dsb ishst\n\ttlbi vmalle1\n\tdsb ish\n\tisb"
			 : : : "memory");
}

uint64_t *scratch(unsigned n)
{
	return (uint64_t *)(SCRATCH_PA + n * PAGE_SIZE);
}

struct page map_page(unsigned slot, uint64_t pa, uint64_t attrs)
{
	l3_alias[slot] = LEAF(pa, attrs) | DESC_TABLE;
	tlb_sync();
	return (struct page){ ALIAS_PAGES_VA + slot * PAGE_SIZE, pa };
}

/* The descriptor of a map_page() slot, as hardware updates may leave it. */
uint64_t page_desc(unsigned slot)
{
	return ((volatile uint64_t *)l3_alias)[slot];
}

/* Maps SCRATCH_PA with a level 2 block; returns its first page. */
struct page map_l2_block(uint64_t attrs)
{
	l2_alias[1] = LEAF(SCRATCH_PA, attrs) | DESC_BLOCK;
	tlb_sync();
	return (struct page){ ALIAS_L2_VA, SCRATCH_PA };
}

/* Maps RAM with a level 1 block; returns the alias of SCRATCH_PA. */
struct page map_l1_block(uint64_t attrs)
{
	l1[3] = LEAF(RAM_BASE, attrs) | DESC_BLOCK;
	tlb_sync();
	return (struct page){ ALIAS_L1_VA + (SCRATCH_PA - RAM_BASE),
			      SCRATCH_PA };
}

/* Scratch page 0, RW at EL1, below a table descriptor with table_attrs. */
struct page map_hpd_page(uint64_t table_attrs)
{
	l3_hpd[0] = LEAF(SCRATCH_PA, PAGE_RW_EL1) | DESC_TABLE;
	l2_alias[2] = (uint64_t)l3_hpd | table_attrs | DESC_TABLE;
	tlb_sync();
	return (struct page){ ALIAS_HPD_VA, SCRATCH_PA };
}

/*
 * Identity map: device space below RAM, then RAM in 2MB blocks. The first
 * block holds text and rodata (read-only, EL1-executable); everything else
 * is read-write and execute-never, so that SCTLR_EL1.WXN never touches the
 * image itself.
 */
void mmu_init(void)
{
	const uint64_t tcr = 25		/* T0SZ: 39-bit VA */
		| 1UL << 8 | 1UL << 10	/* IRGN0, ORGN0: write-back */
		| 3UL << 12		/* SH0: inner shareable */
		| 1UL << 23		/* EPD1: no TTBR1 walks */
		| 1UL << 32		/* IPS: 36 bits */
		| TCR_HPD0;		/* see baseline() in checks.c */
	const uint64_t sctlr = 1UL << 0	/* M */
		| 1UL << 2 | 1UL << 12	/* C, I */
		| 1UL << 3		/* SA */
		| 1UL << 23		/* SPAN: exceptions leave PAN alone */
		/* RES1 in Armv8.0; EIS/EOS make exception entry and return
		 * context-synchronizing, which the probes rely on. */
		| 1UL << 11 | 1UL << 20 | 1UL << 22 | 1UL << 28 | 1UL << 29;

	l1[0] = 0 | DESC_BLOCK | DESC_AF | DESC_ATTR_DEVICE | DESC_PXN |
		DESC_UXN;
	l1[1] = (uint64_t)l2_ram | DESC_TABLE;
	for (unsigned i = 0; i < TABLE_ENTRIES; i++)
		l2_ram[i] = LEAF(RAM_BASE + i * BLOCK_2M,
				 i == 0 ? PAGE_RX_EL1 : PAGE_RW_EL1) |
			    DESC_BLOCK;
	l1[2] = (uint64_t)l2_alias | DESC_TABLE;
	l2_alias[0] = (uint64_t)l3_alias | DESC_TABLE;

	write_sysreg(mair_el1, 0xff00);	/* Attr0 Device-nGnRnE, Attr1 WB */
	write_sysreg(tcr_el1, tcr);
	write_sysreg(ttbr0_el1, (uint64_t)l1);
	tlb_sync();
	write_sysreg(sctlr_el1, sctlr);
	isb();
	__asm__ volatile("msr pan, #0");
}
