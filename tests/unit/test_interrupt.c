/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_interrupt_resolve: a signal that interrupted a secure_call or an RTM
 * append, at each window of the gate (ara/gate.h) and inside the call,
 * leaves the App state, the stack to give back, the RTM slot to write and
 * the waiting call that the design says (libara/src/dom0/interrupted.c);
 * ara_interrupt_resolve_service, a service domain's copy fault. The DOM0
 * stacks are a host buffer here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "interrupt.h"

#define GATE UINT64_C(0x7f0000000000)
#define PAGE1 (GATE + ARA_GATE_DOM1_OFFSET)
#define SECURE_CALL (PAGE1 + ARA_GATE_SECURE_CALL)
#define RTM_APPEND (PAGE1 + ARA_GATE_RTM_APPEND)
#define ENTRY ((UINT64_C(2) << 56) | UINT64_C(0x400abc)) /* a return to 0x400abc */
#define DEFERRED_POINT UINT64_C(0x7f1000000040)
#define DEFERRED_RET UINT64_C(0x7f2000000124) /* in libara's text */
#define STRIDE (3 * ARA_PAGE_SIZE)
#define STACKS 2
#define APP_SP UINT64_C(0x7ffff000)
#define APP_X29 UINT64_C(0x7ffff100)
#define APP_X30 UINT64_C(0x400123)
#define APP_FID UINT64_C(0x20001)
#define APP_ARG UINT64_C(0x7fff0000)
#define SIGUSR1 10

static _Alignas(4096) uint8_t stacks[STACKS * STRIDE];
/* The RTM's open segment: a fill word, then the slots (ara/gate.h). */
static struct {
	uint64_t fill, pad[7], slot[64];
} segment;
static uint64_t rtm_open;
static struct ara_gate_layout g;
static struct ara_rt_sigframe f;
static struct ara_interrupt_outcome out;

static struct ara_call_header *header(unsigned int i)
{
	return (struct ara_call_header *)(void *)(stacks + (i + 1) * STRIDE - ARA_CALL_HEADER_SIZE);
}

static uint64_t addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static int setup(void **state)
{
	(void)state;
	memset(stacks, 0, sizeof(stacks));
	memset(&f, 0, sizeof(f));
	memset(&segment, 0, sizeof(segment));
	rtm_open = addr(&segment);
	g = (struct ara_gate_layout){ .gate = GATE, .stack_base = addr(stacks), .stack_stride = STRIDE,
				      .stacks = STACKS, .deferred_point = DEFERRED_POINT,
				      .deferred_ret = DEFERRED_RET,
				      .rtm_open = &rtm_open };
	/* A call on stack 1, with the App's state in its header. */
	*header(1) = (struct ara_call_header){ .claim = GATE, .app_sp = APP_SP, .app_x29 = APP_X29,
					      .app_x30 = APP_X30, .state = ARA_CALL_ACTIVE,
					      .fid = APP_FID, .arg = APP_ARG, .status = 7 };
	for (unsigned int r = 0; r < 31; r++)
		f.uc.uc_mcontext.regs[r] = 0x1000 + r;
	f.uc.uc_sigmask = 0x5;
	f.info[0] = SIGUSR1;
	return 0;
}

/* The interrupted state: pc, and sp (the App's, or on stack 1). */
static enum ara_interrupt at(uint64_t pc, uint64_t sp)
{
	f.uc.uc_mcontext.pc = pc;
	f.uc.uc_mcontext.sp = sp;
	return ara_interrupt_resolve(&g, &f, SIGUSR1, &out);
}

static void assert_rolled_back(uint64_t fid, uint64_t arg, uint64_t sp, uint64_t x29, uint64_t x30)
{
	const struct ara_sigcontext *mc = &f.uc.uc_mcontext;

	assert_int_equal(mc->pc, SECURE_CALL);
	assert_int_equal(mc->sp, sp);
	assert_int_equal(mc->regs[29], x29);
	assert_int_equal(mc->regs[30], x30);
	assert_int_equal(mc->regs[0], fid);
	assert_int_equal(mc->regs[1], arg);
	for (unsigned int r = 12; r <= 17; r++)
		assert_int_equal(mc->regs[r], 0);
}

/* Rolled back with the App's state from the registers (0x1000 + n in xn). */
static void assert_back_from_regs(void)
{
	assert_rolled_back(0x1000, 0x1001, APP_SP, 0x101d, 0x101e);
}

static void assert_rolled_forward(uint64_t status, uint64_t sp, uint64_t x29, uint64_t x30)
{
	const struct ara_sigcontext *mc = &f.uc.uc_mcontext;

	assert_int_equal(mc->pc, x30);
	assert_int_equal(mc->sp, sp);
	assert_int_equal(mc->regs[0], status);
	for (unsigned int r = 1; r <= 17; r++)
		assert_int_equal(mc->regs[r], 0);
	assert_int_equal(mc->regs[19], 0x1013); /* the App's callee-saved registers */
	assert_int_equal(mc->regs[29], x29);
	assert_int_equal(mc->regs[30], x30);
}

static void on_the_way_in_the_call_is_rolled_back(void **state)
{
	(void)state;
	assert_int_equal(at(PAGE1 + ARA_GATE_DOM1_ENTERED, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_back_from_regs();
	assert_null(out.release);

	/* The landing, before any stack is held, and the search for a free one. */
	for (uint64_t off = ARA_GATE_LANDING; off < ARA_GATE_CLAIM_CHECK; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_back_from_regs();
		assert_null(out.release);
	}
	for (uint64_t off = ARA_GATE_TAKEN; off < ARA_GATE_MISS; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_back_from_regs();
		assert_null(out.release);
	}

	setup(NULL);
	f.uc.uc_mcontext.regs[13] = addr(header(1));
	f.uc.uc_mcontext.regs[17] = GATE; /* the stack was another call's */
	assert_int_equal(at(GATE + ARA_GATE_CLAIM_CHECK, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_null(out.release);

	/* Claimed (x17 was 0 at the check), sp and the rest still the App's. */
	for (uint64_t off = ARA_GATE_CLAIM_CHECK; off < ARA_GATE_ON_STACK; off += 4) {
		setup(NULL);
		f.uc.uc_mcontext.regs[13] = addr(header(1));
		f.uc.uc_mcontext.regs[17] = 0;
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_back_from_regs();
		assert_ptr_equal(out.release, header(1));
	}

	/* sp on the header: the App's state, fid and arg are there. */
	for (uint64_t off = ARA_GATE_ON_STACK; off < ARA_GATE_EXIT; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, addr(header(1))), ARA_INTERRUPT_ROLLED_BACK);
		assert_rolled_back(APP_FID, APP_ARG, APP_SP, APP_X29, APP_X30);
		assert_ptr_equal(out.release, header(1));
	}
	for (uint64_t off = ARA_GATE_MISS; off < ARA_GATE_DEFERRED; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, addr(header(1))), ARA_INTERRUPT_ROLLED_BACK);
		assert_rolled_back(APP_FID, APP_ARG, APP_SP, APP_X29, APP_X30);
		assert_ptr_equal(out.release, header(1));
	}

	/* A side exit before its status is set. */
	for (uint64_t off = ARA_GATE_NULL; off < ARA_GATE_TAKEN; off += 4) {
		setup(NULL);
		if (off != ARA_GATE_NULL && off != ARA_GATE_WRONG_ROW && off != ARA_GATE_BUSY)
			continue;
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_back_from_regs();
		assert_null(out.release);
	}
}

static void on_the_way_out_the_call_is_rolled_forward(void **state)
{
	(void)state;
	/* Returned, the header holding the App's state; x0 filtered as the gate does. */
	for (uint64_t off = ARA_GATE_EXIT; off < ARA_GATE_RELEASED; off += 4) {
		setup(NULL);
		f.uc.uc_mcontext.regs[0] = 3;
		assert_int_equal(at(GATE + off, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(3, APP_SP, APP_X29, APP_X30);
		assert_ptr_equal(out.release, header(1));
		assert_int_equal(f.uc.uc_sigmask, 0x5);
	}
	setup(NULL);
	f.uc.uc_mcontext.regs[0] = UINT64_C(0xffffffff00000004); /* the upper half is not the status */
	assert_int_equal(at(GATE + ARA_GATE_EXIT, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(4, APP_SP, APP_X29, APP_X30);
	setup(NULL);
	f.uc.uc_mcontext.regs[0] = 0x77; /* undocumented */
	assert_int_equal(at(GATE + ARA_GATE_EXIT + 4, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(ARA_GATE_STATUS_INTERNAL, APP_SP, APP_X29, APP_X30);

	/* Given back: sp still the header's, the App's in x14. */
	setup(NULL);
	f.uc.uc_mcontext.regs[14] = APP_SP;
	assert_int_equal(at(GATE + ARA_GATE_RELEASED, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(0x1000, APP_SP, 0x101d, 0x101e);
	assert_null(out.release);
	for (uint64_t off = ARA_GATE_RELEASED + 4; off < ARA_PAGE_SIZE; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(0x1000, APP_SP, 0x101d, 0x101e);
		assert_null(out.release);
	}

	/* A side exit with its status set. */
	for (uint64_t off = ARA_GATE_NULL; off < ARA_GATE_TAKEN; off += 4) {
		setup(NULL);
		if (off == ARA_GATE_NULL || off == ARA_GATE_WRONG_ROW || off == ARA_GATE_BUSY)
			continue;
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(0x1000, APP_SP, 0x101d, 0x101e);
		assert_null(out.release);
	}

	/* The deferred way out: the status in x0 first, then in the header. */
	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_DEFERRED, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(0x1000, APP_SP, APP_X29, APP_X30);
	assert_ptr_equal(out.release, header(1));
	for (uint64_t off = ARA_GATE_DEFERRED + 4; off < ARA_GATE_SIG_LANDING; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(7, APP_SP, APP_X29, APP_X30);
		assert_ptr_equal(out.release, header(1));
	}
}

static void waiting_signals_get_the_apps_mask_back(void **state)
{
	(void)state;
	header(1)->state = ARA_CALL_DEFERRED;
	header(1)->mask = 0x3;
	f.uc.uc_sigmask = 0x3 | (UINT64_C(1) << (SIGUSR1 - 1));
	assert_int_equal(at(DEFERRED_POINT, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(7, APP_SP, APP_X29, APP_X30);
	assert_int_equal(f.uc.uc_sigmask, 0x3);
	assert_ptr_equal(out.release, header(1));

	setup(NULL); /* the return to the gate, after the point: the same */
	header(1)->state = ARA_CALL_DEFERRED;
	header(1)->mask = 0x3;
	f.uc.uc_sigmask = 0x3;
	assert_int_equal(at(DEFERRED_RET, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(7, APP_SP, APP_X29, APP_X30);
	assert_int_equal(f.uc.uc_sigmask, 0x3);
	assert_ptr_equal(out.release, header(1));

	setup(NULL);
	header(1)->state = ARA_CALL_DEFERRED;
	header(1)->mask = 0x3;
	assert_int_equal(at(GATE + ARA_GATE_DEFERRED + 4, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_int_equal(f.uc.uc_sigmask, 0x3);
}

static void inside_the_call_the_signal_waits(void **state)
{
	const uint64_t dom0_pc = UINT64_C(0x7f1000001234);

	(void)state;
	assert_int_equal(at(dom0_pc, addr(header(1)) - 512), ARA_INTERRUPT_WAIT);
	assert_ptr_equal(out.call, header(1));
	assert_int_equal(f.uc.uc_mcontext.pc, dom0_pc); /* left to resume */

	setup(NULL); /* ara_unblock_deferred before its system call */
	assert_int_equal(at(DEFERRED_POINT - 4, addr(header(1))), ARA_INTERRUPT_WAIT);
}

static void anything_else_is_refused(void **state)
{
	const uint64_t dom0_pc = UINT64_C(0x7f1000001234);

	(void)state;
	assert_int_equal(at(dom0_pc, addr(header(0)) - 512), ARA_INTERRUPT_REFUSED); /* no call on stack 0 */
	assert_int_equal(at(dom0_pc, addr(stacks) + STRIDE + 16), ARA_INTERRUPT_REFUSED); /* guard page */
	assert_int_equal(at(dom0_pc, APP_SP), ARA_INTERRUPT_REFUSED); /* not on a DOM0 stack */
	assert_int_equal(at(GATE + ARA_GATE_SIG_LANDING + 8, APP_SP), ARA_INTERRUPT_REFUSED);
	assert_int_equal(at(PAGE1 + ARA_GATE_DOM1_ENTERED_END, APP_SP), ARA_INTERRUPT_REFUSED);
	/* The header must be where the gate's sp is. */
	assert_int_equal(at(GATE + ARA_GATE_EXIT + 4, addr(header(1)) - 16), ARA_INTERRUPT_REFUSED);
	assert_int_equal(at(GATE + ARA_GATE_MISS, addr(header(1)) - 16), ARA_INTERRUPT_REFUSED);
	/* Claimed, per x17, but x13 is no call stack's header. */
	f.uc.uc_mcontext.regs[13] = addr(header(1)) - 16;
	f.uc.uc_mcontext.regs[17] = 0;
	assert_int_equal(at(GATE + ARA_GATE_CLAIMED, APP_SP), ARA_INTERRUPT_REFUSED);
	/* Between the landings: UDF. */
	assert_int_equal(at(GATE + ARA_GATE_LANDING - 4, APP_SP), ARA_INTERRUPT_REFUSED);
	header(1)->claim = 0; /* a header whose stack no call holds */
	assert_int_equal(at(dom0_pc, addr(header(1)) - 512), ARA_INTERRUPT_REFUSED);

	setup(NULL); /* a fault inside ARA */
	f.info[8] = 1; /* si_code SEGV_MAPERR */
	f.info[0] = 11;
	assert_int_equal(ara_interrupt_resolve(&g, &f, 11, &out), ARA_INTERRUPT_REFUSED);
	f.info[8] = 0; /* SI_USER: sent, not a fault */
	f.uc.uc_mcontext.pc = dom0_pc;
	f.uc.uc_mcontext.sp = addr(header(1)) - 512;
	assert_int_equal(ara_interrupt_resolve(&g, &f, 11, &out), ARA_INTERRUPT_WAIT);
}

/* About to call ara_rtm_append again with entry, the App's state from the registers. */
static void assert_append_again(uint64_t entry)
{
	const struct ara_sigcontext *mc = &f.uc.uc_mcontext;

	assert_int_equal(mc->pc, RTM_APPEND);
	assert_int_equal(mc->regs[0], entry);
	assert_int_equal(mc->sp, APP_SP);
	assert_int_equal(mc->regs[29], 0x101d);
	assert_int_equal(mc->regs[30], 0x101e);
	for (unsigned int r = 12; r <= 17; r++)
		assert_int_equal(mc->regs[r], 0);
	assert_null(out.release);
	assert_null(out.store);
}

/* The RTM append before its atomic add, and on its way to the regular path: again. */
static void an_append_not_reserved_is_rolled_back(void **state)
{
	(void)state;
	assert_int_equal(at(PAGE1 + ARA_GATE_RTM_ENTERED, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_append_again(0x1000);
	assert_int_equal(at(PAGE1 + ARA_GATE_RTM_ENTERED_END - 4, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	for (uint64_t off = ARA_GATE_RTM_LANDING; off < ARA_GATE_RTM_RESERVED; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_append_again(0x1000);
	}
	/* Reserved beyond the capacity (full): nothing taken, the regular path next. */
	for (uint64_t off = ARA_GATE_RTM_RESERVED; off < ARA_GATE_RTM_STORE - 4; off += 4) {
		setup(NULL);
		f.uc.uc_mcontext.regs[0] = ENTRY;
		f.uc.uc_mcontext.regs[16] = addr(&segment);
		f.uc.uc_mcontext.regs[17] = ARA_GATE_RTM_ENTRIES;
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_append_again(ENTRY);
	}
	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_RTM_REGULAR, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_append_again(0x1000);
	for (uint64_t off = ARA_GATE_RTM_REGULAR + 4; off < ARA_GATE_RTM_END; off += 4) {
		setup(NULL);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
		assert_append_again(0x1001); /* the entry is in x1 too by then */
	}
}

/* After the add: the slot is the append's, and the signal completes the store. */
static void a_reserved_slot_is_written(void **state)
{
	(void)state;
	for (uint64_t off = ARA_GATE_RTM_RESERVED; off < ARA_GATE_RTM_STORED; off += 4) {
		setup(NULL);
		f.uc.uc_mcontext.regs[0] = ENTRY;
		f.uc.uc_mcontext.regs[17] = 5;
		f.uc.uc_mcontext.regs[16] = addr(&segment) + (off == ARA_GATE_RTM_STORE ? 5 * 8 : 0);
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(ARA_GATE_STATUS_OK, APP_SP, 0x101d, 0x101e);
		assert_ptr_equal(out.store, &segment.slot[5]);
		assert_int_equal(out.entry, ENTRY);
		assert_null(out.release);
	}
	/* Stored: the append returned ARA_OK, whatever x0 still holds. */
	for (uint64_t off = ARA_GATE_RTM_STORED; off < ARA_GATE_RTM_REGULAR; off += 4) {
		setup(NULL);
		f.uc.uc_mcontext.regs[0] = ENTRY;
		assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
		assert_rolled_forward(ARA_GATE_STATUS_OK, APP_SP, 0x101d, 0x101e);
		assert_null(out.store);
	}
}

/* A reservation that does not add up is no append of the gate's. */
static void a_reservation_elsewhere_is_refused(void **state)
{
	const uint64_t off = ARA_GATE_RTM_RESERVED + 8; /* the add: the slot is reserved */

	(void)state;
	f.uc.uc_mcontext.regs[0] = ENTRY;
	f.uc.uc_mcontext.regs[17] = 5;
	f.uc.uc_mcontext.regs[16] = addr(&segment) + 64; /* not the open segment */
	assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_REFUSED);
	assert_null(out.store);
	f.uc.uc_mcontext.regs[16] = addr(&segment);
	rtm_open = 0; /* no log */
	assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_REFUSED);
	rtm_open = addr(&segment);
	f.uc.uc_mcontext.regs[0] = ENTRY | (UINT64_C(1) << 50); /* not an entry */
	assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_REFUSED);
	f.uc.uc_mcontext.regs[0] = ENTRY;
	f.uc.uc_mcontext.regs[17] = ARA_GATE_RTM_ENTRIES; /* past the b.hs: never there */
	assert_int_equal(at(GATE + off, APP_SP), ARA_INTERRUPT_REFUSED);
	/* Between the append's landing and secure_call's: UDF. */
	assert_int_equal(at(GATE + ARA_GATE_RTM_END, APP_SP), ARA_INTERRUPT_REFUSED);
	assert_int_equal(at(GATE + ARA_GATE_RTM_LANDING - 4, APP_SP), ARA_INTERRUPT_REFUSED);
	assert_int_equal(at(PAGE1 + ARA_GATE_RTM_ENTERED_END, APP_SP), ARA_INTERRUPT_REFUSED);
}

/* A fault of app_access.S's copy on App memory: resumed at its error, nowhere else. */
static void a_copy_fault_is_resumed(void **state)
{
	const uint64_t copy = UINT64_C(0x7f1000002000), fail = copy + 0x40;

	(void)state;
	g.access = copy;
	g.access_end = copy + 0x30;
	g.access_fault = fail;
	f.uc.uc_mcontext.sp = addr(header(1)) - 512;
	f.info[8] = 1; /* si_code SEGV_MAPERR */
	for (int sig = 1; sig <= 11; sig++) {
		const int resumed = sig == 7 || sig == 11; /* SIGBUS, SIGSEGV */

		f.info[0] = sig;
		f.uc.uc_mcontext.pc = copy + 0x10;
		assert_int_equal(ara_interrupt_resolve(&g, &f, sig, &out),
				 resumed ? ARA_INTERRUPT_ACCESS_FAULT
					 : (sig == 4 || sig == 5 || sig == 8) ? ARA_INTERRUPT_REFUSED
									      : ARA_INTERRUPT_WAIT);
		assert_true(f.uc.uc_mcontext.pc == (resumed ? fail : copy + 0x10));
	}
	f.info[0] = 11; /* just before and after the copy: a fault inside ARA */
	f.uc.uc_mcontext.pc = copy - 4;
	assert_int_equal(ara_interrupt_resolve(&g, &f, 11, &out), ARA_INTERRUPT_REFUSED);
	f.uc.uc_mcontext.pc = copy + 0x30;
	assert_int_equal(ara_interrupt_resolve(&g, &f, 11, &out), ARA_INTERRUPT_REFUSED);
	f.info[8] = 0; /* a SIGSEGV sent (SI_USER) while the copy runs: it waits */
	f.uc.uc_mcontext.pc = copy + 0x10;
	assert_int_equal(ara_interrupt_resolve(&g, &f, 11, &out), ARA_INTERRUPT_WAIT);
	assert_true(f.uc.uc_mcontext.pc == copy + 0x10);
}

/*
 * The same copy run by a service domain (d 4): resumed at its error unless
 * the fault is a protection-key fault, which App memory cannot give that
 * row (the copy reached another domain: a fault of the service's).
 */
static void a_service_copy_fault_is_resumed_unless_a_key_refused_it(void **state)
{
	const uint64_t copy = UINT64_C(0x7f1000002000), fail = copy + 0x40;

	(void)state;
	g.access = copy;
	g.access_end = copy + 0x30;
	g.access_fault = fail;
	f.uc.uc_mcontext.sp = addr(header(1)) - 512;
	f.info[0] = 11;
	f.info[8] = 1; /* si_code SEGV_MAPERR */
	f.uc.uc_mcontext.pc = copy + 0x10;
	assert_int_equal(ara_interrupt_resolve_service(&g, &f, 11, 4, &out), ARA_INTERRUPT_ACCESS_FAULT);
	assert_true(f.uc.uc_mcontext.pc == fail);
	f.info[0] = 7; /* SIGBUS, BUS_ADRERR */
	f.info[8] = 2;
	f.uc.uc_mcontext.pc = copy + 0x10;
	assert_int_equal(ara_interrupt_resolve_service(&g, &f, 7, 4, &out), ARA_INTERRUPT_ACCESS_FAULT);
	assert_true(f.uc.uc_mcontext.pc == fail);
	f.info[0] = 11;
	f.info[8] = 4; /* si_code SEGV_PKUERR */
	f.uc.uc_mcontext.pc = copy + 0x10;
	assert_int_equal(ara_interrupt_resolve_service(&g, &f, 11, 4, &out), ARA_INTERRUPT_REFUSED);
	assert_true(f.uc.uc_mcontext.pc == copy + 0x10);
	f.info[8] = 1; /* outside the copy */
	f.uc.uc_mcontext.pc = copy + 0x30;
	assert_int_equal(ara_interrupt_resolve_service(&g, &f, 11, 4, &out), ARA_INTERRUPT_REFUSED);
	assert_true(f.uc.uc_mcontext.pc == copy + 0x30);
}

/* The service's rt_sigprocmask section: before its svc, a waiting signal makes it start again. */
static void the_sigmask_section_starts_again(void **state)
{
	const uint64_t section = DEFERRED_POINT + 20, svc = section + 8, stack = addr(header(1)) - 512;

	(void)state;
	g.sigmask = section;
	g.sigmask_svc = svc;
	for (uint64_t pc = section - 4; pc <= svc + 4; pc += 4) {
		assert_int_equal(at(pc, stack), ARA_INTERRUPT_WAIT);
		assert_ptr_equal(out.call, header(1));
		assert_true(f.uc.uc_mcontext.pc == (pc >= section && pc <= svc ? section : pc));
	}
	/* Off a call's stack it is refused, as anywhere else in DOM0. */
	assert_int_equal(at(section + 4, APP_SP), ARA_INTERRUPT_REFUSED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(on_the_way_in_the_call_is_rolled_back, setup),
		cmocka_unit_test_setup(on_the_way_out_the_call_is_rolled_forward, setup),
		cmocka_unit_test_setup(waiting_signals_get_the_apps_mask_back, setup),
		cmocka_unit_test_setup(inside_the_call_the_signal_waits, setup),
		cmocka_unit_test_setup(anything_else_is_refused, setup),
		cmocka_unit_test_setup(an_append_not_reserved_is_rolled_back, setup),
		cmocka_unit_test_setup(a_reserved_slot_is_written, setup),
		cmocka_unit_test_setup(a_reservation_elsewhere_is_refused, setup),
		cmocka_unit_test_setup(a_copy_fault_is_resumed, setup),
		cmocka_unit_test_setup(a_service_copy_fault_is_resumed_unless_a_key_refused_it, setup),
		cmocka_unit_test_setup(the_sigmask_section_starts_again, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
