/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The way back from DOM0 leaves nothing of DOM0 in registers, and the App
 * resumes with DOM2's row (IV2), for every registered function ID, the
 * null call the landing answers, the RTM's append (ara_rtm_append) on both
 * its paths, value and pointer arguments, and calls
 * that fail in the gate or the dispatcher.
 */
#include <inttypes.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdio.h>

#include "ara/ara.h"
#include "ara/counter.h"
#include "ara/domains.h"
#include "ara/provision.h"
#include "ara/rtm.h"
#include "ara/rts.h"
#include "por_sysreg.h"

#define MARKER UINT64_C(0x5a5a) /* what exit_regs.S puts in x2-x17 before the call */

int ara_test_call_and_capture(uint64_t fid, void *arg, uint64_t out[20]);
int ara_test_append_and_capture(uint64_t entry, uint64_t x1, uint64_t out[20]);
int ara_test_call_and_capture_simd(uint64_t fid, void *arg, uint64_t out[64]);

static unsigned int failures, calls;

/*
 * x1-x17 and NZCV after the call: zero, but x16, which holds DOM2's row
 * (the App's own, public); after a call the gate answers without a stack
 * (untouched: the null call, and an RTM append the gate stores itself),
 * x1-x15 are the App's own values, untouched (x17 too after the null
 * call, x17_kept: secure_call's address, which the PLT stub left there;
 * an append's x17 held its slot), and NZCV is what the
 * gate's last compare gives, the same for every such call: the null
 * call's fid with ARA_FID_NULL (Z and C), an append's slot with the
 * capacity (N).
 */
static void check_regs(const char *what, const uint64_t r[20], int st, int want, uint64_t x1,
		       int untouched, int x17_kept, uint64_t nzcv)
{
	uint64_t por = por_el0_read();

	calls++;
	if (want >= 0 && st != want) {
		printf("FAIL: %s: status %d, expected %d\n", what, st, want);
		failures++;
	}
	for (int i = 0; i < 17; i++) {
		const int n = i + 1;
		uint64_t expect = 0;

		if (n == 16)
			expect = ARA_POR_DOM2;
		else if (untouched && n <= 15)
			expect = n == 1 ? x1 : MARKER;
		else if (x17_kept && n == 17) /* the App's: exit_regs.S's PLT stub branched through it */
			expect = (uint64_t)(uintptr_t)secure_call;
		if (r[i] != expect) {
			printf("FAIL: %s: x%d = 0x%" PRIx64 " after the call, expected 0x%" PRIx64 "\n",
			       what, n, r[i], expect);
			failures++;
		}
	}
	if (r[17] != (untouched ? nzcv : 0)) {
		printf("FAIL: %s: NZCV = 0x%" PRIx64 " after the call\n", what, r[17]);
		failures++;
	}
	if (r[19] != (uint64_t)(uint32_t)st) {
		printf("FAIL: %s: x0 = 0x%" PRIx64 ": more than the status\n", what, r[19]);
		failures++;
	}
	if (r[18] != 0x1818) {
		printf("FAIL: %s: x18 = 0x%" PRIx64 ", the App's was 0x1818\n", what, r[18]);
		failures++;
	}
	if (por != ARA_POR_DOM2) {
		printf("FAIL: %s: POR_EL0 = 0x%" PRIx64 " after the call\n", what, por);
		failures++;
	}
}

static void check(const char *what, uint64_t fid, void *arg, int want)
{
	uint64_t r[20] = { 0 };
	int st = ara_test_call_and_capture(fid, arg, r);

	check_regs(what, r, st, want, (uint64_t)(uintptr_t)arg, fid == ARA_FID_NULL,
		   fid == ARA_FID_NULL, UINT64_C(0x60000000));
}

/* ara_rtm_append: stored by the gate (untouched), or through secure_call's landing. */
static void check_append(const char *what, uint64_t entry, int want, int untouched)
{
	uint64_t r[20] = { 0 };
	int st = ara_test_append_and_capture(entry, 0x1111, r);

	check_regs(what, r, st, want, 0x1111, untouched, 0, UINT64_C(0x80000000));
}

/*
 * The vector registers: DOM0's AES code uses them (ARA_SVC_SIMD services),
 * and after those v0-v7 and v16-v31 are zero, and v8-v15 keep their low
 * halves (callee-saved) with the high halves zero
 * (libara/src/dom0/simd_scrub.S). After any other call they are the App's
 * own, untouched.
 */
static void check_simd(const char *what, uint64_t fid, void *arg, int want, int simd)
{
	uint64_t v[64];
	int st = ara_test_call_and_capture_simd(fid, arg, v);

	if (want >= 0 && st != want) {
		printf("FAIL: %s: status %d, expected %d\n", what, st, want);
		failures++;
	}
	for (int n = 0; n < 32; n++) {
		const uint64_t app = UINT64_C(0x5a5a5a5a5a5a5a00) | (uint64_t)n;
		const uint64_t low = simd ? ((n >= 8 && n <= 15) ? app : 0) : app;
		const uint64_t high = simd ? 0 : app;

		if (v[2 * n] != low || v[2 * n + 1] != high) {
			printf("FAIL: %s: v%d = 0x%016" PRIx64 "%016" PRIx64 " after the call, "
			       "expected 0x%016" PRIx64 "%016" PRIx64 "\n",
			       what, n, v[2 * n + 1], v[2 * n], high, low);
			failures++;
		}
	}
}

/* Every registered function ID, on whichever path the gate takes it. */
static const struct {
	const char *name;
	uint64_t fid;
	int simd; /* ARA_SVC_SIMD: the vector registers are cleared after it */
} fids[] = {
	{ "info", ARA_FID_INFO, 0 },
	{ "value", ARA_FID_VALUE, 0 },
	{ "syscall", ARA_FID_SYSCALL, 0 },
	{ "provision_begin", ARA_FID_PROVISION_BEGIN, 1 },
	{ "provision_finish", ARA_FID_PROVISION_FINISH, 1 },
	{ "secret_info", ARA_FID_SECRET_INFO, 0 },
	{ "secret_hmac", ARA_FID_SECRET_HMAC, 0 },
	{ "secret_destroy", ARA_FID_SECRET_DESTROY, 0 },
	{ "rtm_export", ARA_FID_RTM_EXPORT, 0 },
	{ "rtm_report", ARA_FID_RTM_REPORT, 1 },
	{ "rtm_batch", ARA_FID_RTM_BATCH, 1 }, /* its internal call reaches a signature */
	{ "rts_stream_open", ARA_FID_RTS_STREAM_OPEN, 1 },
	{ "rts_stream_chunk", ARA_FID_RTS_STREAM_CHUNK, 1 },
	{ "rts_stream_close", ARA_FID_RTS_STREAM_CLOSE, 1 },
	{ "rts_cenc_open", ARA_FID_RTS_CENC_OPEN, 1 },
	{ "rts_cenc_decrypt", ARA_FID_RTS_CENC_DECRYPT, 1 },
	{ "rts_cenc_close", ARA_FID_RTS_CENC_CLOSE, 1 },
	{ "counter_increment", ARA_FID_COUNTER_INCREMENT, 0 },
	{ "counter_read", ARA_FID_COUNTER_READ, 0 },
};

int main(void)
{
	struct ara_echo_arg echo = { .in = 0x1234, .out = 0 };
	struct ara_info_arg info;
	const uint64_t nothing = 0;
	struct ara_syscall_arg blocks_nothing = {
		.nr = SYS_rt_sigprocmask, .args = { SIG_BLOCK, (uintptr_t)&nothing, 0, 8 }
	};
	void *const probe = (void *)(uintptr_t)ARA_VALUE_PROBE;
	uint64_t warm[20];

	/*
	 * exit_regs.S calls through its own PLT slot: its first call is bound
	 * lazily, by ld.so's resolver, which changes x9-x15 on the way.
	 */
	ara_test_call_and_capture(ARA_FID_NULL, NULL, warm);
	check("null call", ARA_FID_NULL, NULL, ARA_OK);
	check("null call with an argument", ARA_FID_NULL, probe, ARA_OK);
	check("echo", ARA_FID_ECHO, &echo, ARA_OK);
	check("info", ARA_FID_INFO, &info, ARA_OK);
	check("value", ARA_FID_VALUE, probe, ARA_OK);
	check("value, another value", ARA_FID_VALUE, NULL, ARA_E_INVAL);
	check("unknown fid", ARA_FID(0x7777, 1), NULL, ARA_E_NOFUNC);
	check("fid 0", 0, NULL, ARA_E_NOFUNC);
	check("null's fid in the upper half too", (UINT64_C(1) << 32) | ARA_FID_NULL, NULL,
	      ARA_E_NOFUNC);
	check("value's fid in the upper half too", (UINT64_C(1) << 32) | ARA_FID_VALUE, probe,
	      ARA_E_NOFUNC);
	check("bad pointer", ARA_FID_ECHO, (void *)8, ARA_E_FAULT);
	check("syscall: rt_sigprocmask", ARA_FID_SYSCALL, &blocks_nothing, ARA_OK);
	/* Pointer services with no argument fail before their handler; status not checked. */
	for (size_t i = 0; i < sizeof(fids) / sizeof(fids[0]); i++) {
		check(fids[i].name, fids[i].fid, fids[i].fid == ARA_FID_VALUE ? probe : NULL, -1);
		check_simd(fids[i].name, fids[i].fid, fids[i].fid == ARA_FID_VALUE ? probe : NULL, -1,
			   fids[i].simd);
	}
	/* Its first call binds its PLT slot (and makes the log): not checked. */
	ara_test_append_and_capture(ara_rtm_entry(ARA_RTM_RET, 0x400abc), 0, warm);
	check_append("RTM append", ara_rtm_entry(ARA_RTM_ICALL, 0x400abc), ARA_OK, 1);
	check_append("RTM append, not an entry", ara_rtm_entry(0, 0x400abc), ARA_E_INVAL, 0);
	check_append("RTM append, above user space", ara_rtm_entry(ARA_RTM_RET, UINT64_C(1) << 48),
		     ARA_E_INVAL, 0);
	check_simd("null call, vector registers", ARA_FID_NULL, NULL, ARA_OK, 0);
	check_simd("echo, vector registers", ARA_FID_ECHO, &echo, ARA_OK, 0);
	check_simd("unknown fid, vector registers", ARA_FID(0x7777, 1), NULL, ARA_E_NOFUNC, 0);
	printf("ara-evidence: exit-regs: %u calls, every registered fid and the RTM append among "
	       "them: x1-x17 zero but x16 (DOM2's row) and the untouched x1-x15 (and x17) of the "
	       "null call and x1-x15 of the gate's append, NZCV zero (theirs constant), x18 kept, POR_EL0 "
	       "DOM2's row after each; vector registers cleared after SIMD services, untouched "
	       "after the others: %s\n",
	       calls, failures ? "NO" : "yes");
	return failures ? 1 : 0;
}
