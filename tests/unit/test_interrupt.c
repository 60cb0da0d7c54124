/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_interrupt_resolve: a signal that interrupted a secure_call, at each
 * window of the gate (ara/gate.h) and inside the call, leaves the App
 * state, the stack to give back and the waiting call that the design says
 * (libara/src/dom0/interrupted.c). The DOM0 stacks are a host buffer here.
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
#define DEFERRED_POINT UINT64_C(0x7f1000000040)
#define STRIDE (3 * ARA_PAGE_SIZE)
#define STACKS 2
#define APP_SP UINT64_C(0x7ffff000)
#define APP_X29 UINT64_C(0x7ffff100)
#define APP_X30 UINT64_C(0x400123)
#define SIGUSR1 10

static _Alignas(4096) uint8_t stacks[STACKS * STRIDE];
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
	g = (struct ara_gate_layout){ GATE, addr(stacks), STRIDE, STACKS, DEFERRED_POINT };
	/* A call on stack 1, with the App's state in its header. */
	*header(1) = (struct ara_call_header){ .app_sp = APP_SP, .stack_index = 1, .app_x29 = APP_X29,
					      .app_x30 = APP_X30, .state = ARA_CALL_ACTIVE, .status = 7 };
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

static void assert_rolled_back(uint64_t sp, uint64_t x29, uint64_t x30)
{
	const struct ara_sigcontext *mc = &f.uc.uc_mcontext;

	assert_int_equal(mc->pc, SECURE_CALL);
	assert_int_equal(mc->sp, sp);
	assert_int_equal(mc->regs[29], x29);
	assert_int_equal(mc->regs[30], x30);
	assert_int_equal(mc->regs[0], 0x1000); /* fid and arg kept */
	assert_int_equal(mc->regs[1], 0x1001);
	for (unsigned int r = 12; r <= 17; r++)
		assert_int_equal(mc->regs[r], 0);
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
	const uint64_t regs_x29 = 0x101d, regs_x30 = 0x101e;

	(void)state;
	assert_int_equal(at(PAGE1 + ARA_GATE_DOM1_ENTERED, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_rolled_back(APP_SP, regs_x29, regs_x30);
	assert_int_equal(out.release, -1);

	setup(NULL);
	assert_int_equal(at(GATE + 0x18, APP_SP), ARA_INTERRUPT_ROLLED_BACK); /* claiming */
	assert_int_equal(out.release, -1);

	setup(NULL);
	f.uc.uc_mcontext.regs[14] = 1; /* the store failed: not claimed */
	assert_int_equal(at(GATE + ARA_GATE_CLAIM_CHECK, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_int_equal(out.release, -1);

	setup(NULL);
	f.uc.uc_mcontext.regs[14] = 0; /* the store succeeded: stack x15 is the call's */
	assert_int_equal(at(GATE + ARA_GATE_CLAIM_CHECK, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_int_equal(out.release, 0x100f);

	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_HEADER_DONE, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_int_equal(out.release, 0x100f);
	assert_rolled_back(APP_SP, regs_x29, regs_x30);

	setup(NULL); /* sp on the header: the App's state is there */
	assert_int_equal(at(GATE + ARA_GATE_EXIT - 4, addr(header(1))), ARA_INTERRUPT_ROLLED_BACK);
	assert_int_equal(out.release, 1);
	assert_rolled_back(APP_SP, APP_X29, APP_X30);

	setup(NULL); /* no stack was free */
	assert_int_equal(at(GATE + ARA_GATE_BUSY + 4, APP_SP), ARA_INTERRUPT_ROLLED_BACK);
	assert_int_equal(out.release, -1);
}

static void on_the_way_out_the_call_is_rolled_forward(void **state)
{
	(void)state;
	assert_int_equal(at(GATE + ARA_GATE_EXIT, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(0x1000 /* x0, not stored yet */, APP_SP, APP_X29, APP_X30);
	assert_int_equal(out.release, 1);
	assert_int_equal(f.uc.uc_sigmask, 0x5);

	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_EXIT + 4, addr(header(1))), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(7 /* the header's */, APP_SP, APP_X29, APP_X30);

	setup(NULL); /* back in registers, the stack not given back yet */
	assert_int_equal(at(GATE + ARA_GATE_SP_RESTORED, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(0x1000, APP_SP, 0x101d, 0x101e);
	assert_int_equal(out.release, 0x100f);

	setup(NULL);
	f.uc.uc_mcontext.regs[13] = 0; /* the release's store succeeded */
	assert_int_equal(at(GATE + ARA_GATE_RELEASE_CHECK, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_int_equal(out.release, -1);

	setup(NULL);
	f.uc.uc_mcontext.regs[13] = 1;
	assert_int_equal(at(GATE + ARA_GATE_RELEASE_CHECK, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_int_equal(out.release, 0x100f);

	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_SCRUB + 8, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_int_equal(out.release, -1);

	setup(NULL);
	assert_int_equal(at(GATE + ARA_GATE_LEAVE_OFFSET + 12, APP_SP), ARA_INTERRUPT_ROLLED_FORWARD);
	assert_rolled_forward(0x1000, APP_SP, 0x101d, 0x101e);
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
	assert_int_equal(out.release, 1);

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
	header(1)->stack_index = 0; /* a header that is not its stack's */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(on_the_way_in_the_call_is_rolled_back, setup),
		cmocka_unit_test_setup(on_the_way_out_the_call_is_rolled_forward, setup),
		cmocka_unit_test_setup(waiting_signals_get_the_apps_mask_back, setup),
		cmocka_unit_test_setup(inside_the_call_the_signal_waits, setup),
		cmocka_unit_test_setup(anything_else_is_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
