/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of the RTM's pass plugin (services/rtm/instrument/): this file is
 * compiled with it, and linked with the TEST DOUBLE runtime
 * (rtm_test_double.c), which records the entries instead of calling ARA.
 * It checks, for the code as the plugin instrumented it, that:
 *   - an indirect call logs the function pointer it calls;
 *   - a return logs the address it returns to (the one the callee saw at
 *     entry, __builtin_return_address(0), valid here: nothing corrupts it);
 *   - an indirect jump (computed goto) logs its label;
 *   - a musttail call logs the caller's return before it (its callee then
 *     logs the same return address);
 *   - every return of a run is logged: a recursion through a function
 *     pointer logs exactly one call and one return per activation;
 *   - a frame pointer corrupted by a callee (its saved copy overwritten)
 *     makes the caller's return go where the caller's log says, the slot
 *     at that frame pointer + 8, not to its own saved return address;
 *   - a saved return address corrupted in the frame record is logged as
 *     the corrupted value, and the return indeed goes there.
 * On x86-64 and AArch64 alike: both keep the saved return address at frame
 * pointer + 8. Prints "rtm_pass_test: PASS" or FAIL lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "ara/rtm.h"
#include "rtm_test_double.h"

static int failures;

#define CHECK(cond, ...)                              \
	do {                                          \
		if (!(cond)) {                        \
			printf("FAIL: " __VA_ARGS__); \
			printf("\n");                 \
			failures++;                   \
		}                                     \
	} while (0)

/* Checks the i-th recorded entry; what names it in a failure. */
#define CHECK_ENTRY(i, kind, dest, what)                                                   \
	CHECK(rtm_double_entry(i) == ara_rtm_entry(kind, dest),                            \
	      "%s: entry %zu is %#llx, expected kind %d to %p", what, (size_t)(i),         \
	      (unsigned long long)rtm_double_entry(i), (int)(kind), (const void *)(dest))

/* The return address the last probe saw at its entry. */
static void *volatile seen_ra;

__attribute__((noinline)) static int probe(int x)
{
	seen_ra = __builtin_return_address(0);
	return x + 1;
}

static void check_icall(void)
{
	int (*volatile fp)(int) = probe;

	rtm_double_reset();
	int r = fp(41);
	size_t n = rtm_double_count();
	CHECK(r == 42, "icall: probe returned %d", r);
	CHECK(n == 2, "icall: %zu entries, expected the call and probe's return", n);
	CHECK_ENTRY(0, ARA_RTM_ICALL, (void *)probe, "icall");
	CHECK_ENTRY(1, ARA_RTM_RET, seen_ra, "icall's return");
}

static void *volatile jumped_to;

__attribute__((noinline)) static int jump(int i)
{
	static void *const labels[] = {&&zero, &&one};

	jumped_to = labels[i];
	goto *labels[i];
zero:
	return 10;
one:
	return 11;
}

static void check_ijmp(void)
{
	int (*volatile fp)(int) = jump;

	rtm_double_reset();
	int r = fp(1);
	size_t n = rtm_double_count();
	CHECK(r == 11, "ijmp: jump returned %d", r);
	CHECK(n == 3, "ijmp: %zu entries, expected call, jump and return", n);
	CHECK_ENTRY(1, ARA_RTM_IJMP, jumped_to, "ijmp");
}

__attribute__((noinline)) static int tail_callee(int x)
{
	seen_ra = __builtin_return_address(0);
	return 2 * x;
}

static int (*volatile tail_fp)(int) = tail_callee;

__attribute__((noinline)) static int tail_caller(int x)
{
	__attribute__((musttail)) return tail_fp(x);
}

static void check_musttail(void)
{
	int (*volatile fp)(int) = tail_caller;

	rtm_double_reset();
	int r = fp(21);
	size_t n = rtm_double_count();
	CHECK(r == 42, "musttail: returned %d", r);
	CHECK(n == 4, "musttail: %zu entries, expected 2 calls and 2 returns", n);
	CHECK_ENTRY(0, ARA_RTM_ICALL, (void *)tail_caller, "musttail: call of the caller");
	CHECK_ENTRY(1, ARA_RTM_ICALL, (void *)tail_callee, "musttail: the tail call");
	/* Both return to the caller's caller: tail_caller logs it before it jumps. */
	CHECK_ENTRY(2, ARA_RTM_RET, seen_ra, "musttail: tail_caller's return");
	CHECK_ENTRY(3, ARA_RTM_RET, seen_ra, "musttail: tail_callee's return");
}

static int (*volatile fib_fp)(int);

__attribute__((noinline)) static int fib(int n)
{
	return n < 2 ? n : fib_fp(n - 1) + fib_fp(n - 2);
}

static void check_every_ret(void)
{
	enum { N = 15 };
	size_t icalls = 0, rets = 0, other = 0;
	uint64_t sites[4];
	size_t distinct = 0;

	fib_fp = fib;
	rtm_double_reset();
	int r = fib_fp(N);
	size_t n = rtm_double_count();

	/* Activations of fib(N), counted without calls: a(k) = 1 + a(k-1) + a(k-2). */
	size_t a0 = 1, a1 = 1;
	for (int k = 2; k <= N; k++) {
		size_t a2 = 1 + a1 + a0;
		a0 = a1;
		a1 = a2;
	}
	CHECK(r == 610, "fib(%d) = %d", N, r);
	CHECK(n <= RTM_DOUBLE_CAPACITY, "fib: %zu entries overflow the test double", n);
	for (size_t i = 0; i < n && i < RTM_DOUBLE_CAPACITY; i++) {
		uint64_t e = rtm_double_entry(i);
		if (e == ara_rtm_entry(ARA_RTM_ICALL, (void *)fib)) {
			icalls++;
		} else if (e >> ARA_RTM_KIND_SHIFT == ARA_RTM_RET) {
			rets++;
			size_t j = 0;
			while (j < distinct && sites[j] != e)
				j++;
			if (j == distinct && distinct < 4)
				sites[distinct++] = e;
		} else {
			other++;
		}
	}
	CHECK(icalls == a1, "fib: %zu calls logged, %zu activations", icalls, a1);
	CHECK(rets == a1, "fib: %zu returns logged, %zu activations", rets, a1);
	CHECK(other == 0, "fib: %zu unexpected entries", other);
	/* Its two call sites in fib, and the one here. */
	CHECK(distinct == 3, "fib: returns to %zu distinct sites, expected 3", distinct);
}

/*
 * Where hijacked() returns to. Entered by a return, not a call: on x86-64
 * the stack is then 8 bytes off the call ABI's alignment.
 */
#if defined(__x86_64__)
__attribute__((force_align_arg_pointer))
#endif
__attribute__((noreturn, noinline)) static void landing(void)
{
	size_t n = rtm_double_count();

	CHECK(n == 1, "hijack: %zu entries, expected hijacked's return only", n);
	CHECK_ENTRY(0, ARA_RTM_RET, (void *)landing, "hijack: the corrupted return");
	printf("rtm_pass_test: %s\n", failures ? "FAIL" : "PASS");
	fflush(stdout);
	_exit(failures ? 1 : 0);
}

/*
 * The stack fp_hijacked() returns onto: a fake frame record {0, landing_fp}
 * at fake_stack + FAKE_RECORD, with room below for the stack of what runs
 * from there on (landing_fp, hijacked, landing).
 */
enum { FAKE_RECORD = 48 * 1024 };
static _Alignas(16) void *fake_stack[(FAKE_RECORD + 4096) / sizeof(void *)];

static void hijacked(void); /* the last test, below */

#if defined(__x86_64__)
__attribute__((force_align_arg_pointer))
#endif
__attribute__((noreturn, noinline)) static void landing_fp(void)
{
	size_t n = rtm_double_count();

	CHECK(n == 2, "fp hijack: %zu entries, expected 2 returns", n);
	CHECK_ENTRY(1, ARA_RTM_RET, (void *)landing_fp, "fp hijack: fp_hijacked's return");
	/* The last test, whose landing() ends the run. */
	rtm_double_reset();
	hijacked();
	CHECK(0, "hijack: hijacked() returned to its caller");
	printf("rtm_pass_test: FAIL\n");
	_exit(1);
}

/*
 * Test-only memory corruption: the caller's saved frame pointer, in this
 * function's frame record, becomes fake, which this function's epilogue
 * then hands back to its caller (as one whose record an overflow rewrote).
 */
__attribute__((noinline)) static void corrupt_caller_fp(void *fake)
{
	*(void *volatile *)__builtin_frame_address(0) = fake;
}

/*
 * Its ret hook reads the return address through its frame pointer, which
 * its callee corrupted: it logs landing_fp. Its return must go there too,
 * not to its caller (whose return address its frame record still holds).
 */
__attribute__((noinline)) static void fp_hijacked(void)
{
	void **fake = &fake_stack[FAKE_RECORD / sizeof(void *)];

	fake[0] = NULL; /* the fake record's saved frame pointer: none */
	fake[1] = (void *)landing_fp;
	corrupt_caller_fp(fake);
}

/* Test-only memory corruption: overwrites its own saved return address. */
__attribute__((noinline)) static void hijacked(void)
{
	void *volatile *slot = (void *volatile *)((char *)__builtin_frame_address(0) + 8);

	*slot = (void *)landing;
}

int main(void)
{
	check_icall();
	check_ijmp();
	check_musttail();
	check_every_ret();

	/*
	 * Direct calls: the only entries after the reset are the returns of
	 * corrupt_caller_fp and fp_hijacked; landing_fp then runs the last
	 * test, hijacked(), whose return goes to landing(), which ends the run.
	 */
	rtm_double_reset();
	fp_hijacked();
	CHECK(0, "fp hijack: fp_hijacked() returned to its caller, not where its log says");
	printf("rtm_pass_test: FAIL\n");
	return 1;
}
