/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The way back from DOM0 leaves nothing of DOM0 in registers, and the App
 * resumes with DOM2's row (IV2): after secure_call returns, x1-x17 and NZCV
 * are zero, x18 is the App's own, and POR_EL0 is DOM2's row, for a
 * successful call, a call with an argument, and calls that fail in the
 * dispatcher.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "por_sysreg.h"

int ara_test_call_and_capture(uint32_t fid, void *arg, uint64_t out[19]);
int ara_test_call_and_capture_simd(uint32_t fid, void *arg, uint64_t out[64]);

static unsigned int failures;

static void check(const char *what, uint32_t fid, void *arg, int want)
{
	uint64_t r[19] = { 0 };
	int st = ara_test_call_and_capture(fid, arg, r);
	uint64_t por = por_el0_read();
	if (st != want) {
		printf("FAIL: %s: status %d, expected %d\n", what, st, want);
		failures++;
	}
	for (int i = 0; i < 17; i++)
		if (r[i] != 0) {
			printf("FAIL: %s: x%d = 0x%" PRIx64 " after the call\n", what, i + 1, r[i]);
			failures++;
		}
	if (r[17] != 0) {
		printf("FAIL: %s: NZCV = 0x%" PRIx64 " after the call\n", what, r[17]);
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

/*
 * DOM0's AES code uses the vector registers (libara/src/dom0/simd_scrub.S):
 * after any call, v0-v7 and v16-v31 are zero, and v8-v15 keep their low
 * halves (callee-saved) with the high halves zero.
 */
static void check_simd(const char *what, uint32_t fid, void *arg, int want)
{
	uint64_t v[64];
	int st = ara_test_call_and_capture_simd(fid, arg, v);

	if (st != want) {
		printf("FAIL: %s: status %d, expected %d\n", what, st, want);
		failures++;
	}
	for (int n = 0; n < 32; n++) {
		uint64_t low = (n >= 8 && n <= 15) ? (UINT64_C(0x5a5a5a5a5a5a5a00) | (uint64_t)n) : 0;

		if (v[2 * n] != low || v[2 * n + 1] != 0) {
			printf("FAIL: %s: v%d = 0x%016" PRIx64 "%016" PRIx64 " after the call, "
			       "expected 0x%016" PRIx64 "%016" PRIx64 "\n",
			       what, n, v[2 * n + 1], v[2 * n], (uint64_t)0, low);
			failures++;
		}
	}
}

int main(void)
{
	struct ara_echo_arg echo = { .in = 0x1234, .out = 0 };
	struct ara_info_arg info;

	check("null call", ARA_FID_NULL, NULL, ARA_OK);
	check("echo", ARA_FID_ECHO, &echo, ARA_OK);
	check("info", ARA_FID_INFO, &info, ARA_OK);
	check("unknown fid", ARA_FID(0x7777, 1), NULL, ARA_E_NOFUNC);
	check("bad pointer", ARA_FID_ECHO, (void *)8, ARA_E_FAULT);
	check_simd("null call, vector registers", ARA_FID_NULL, NULL, ARA_OK);
	check_simd("echo, vector registers", ARA_FID_ECHO, &echo, ARA_OK);
	check_simd("unknown fid, vector registers", ARA_FID(0x7777, 1), NULL, ARA_E_NOFUNC);
	printf("ara-evidence: exit-regs: 5 calls: x1-x17 and NZCV zero, x18 kept, POR_EL0 DOM2's "
	       "row after each; 3 calls: v0-v7, v16-v31 and v8-v15's high halves zero, "
	       "d8-d15 kept: %s\n",
	       failures ? "NO" : "yes");
	return failures ? 1 : 0;
}
