/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bad input to secure_call gets a documented status, never a crash of DOM0:
 * unknown function IDs, missing, unmapped, read-only, tagged and DOM0/DOM1
 * argument pointers. After all of them, ARA still serves a correct call.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "ara/ara.h"
#include "ara/gate.h"

static unsigned int checks, failures;

static void expect(const char *what, int got, int want)
{
	checks++;
	if (got != want) {
		failures++;
		printf("FAIL: %s: %s (%d), expected %s (%d)\n", what, ara_strerror(got), got,
		       ara_strerror(want), want);
	}
}

static const struct ara_echo_arg read_only_arg = { .in = 7, .out = 0 };

int main(void)
{
	struct ara_echo_arg ok = { .in = 42, .out = 0 };
	uintptr_t page1 = (uintptr_t)secure_call & ~(uintptr_t)(ARA_PAGE_SIZE - 1);
	void *unmapped = mmap(NULL, ARA_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t wide_fid = UINT64_C(0x100000000) | ARA_FID_NULL;
	/* secure_call as a compromised App may call it: a full 64-bit x0. */
	int (*volatile secure_call_wide)(uint64_t, void *) =
		(int (*)(uint64_t, void *))(void (*)(void))secure_call;

	if (unmapped == MAP_FAILED || munmap(unmapped, ARA_PAGE_SIZE))
		return 2;

	expect("fid 0", secure_call(0, NULL), ARA_E_NOFUNC);
	expect("unknown fid", secure_call(ARA_FID(0x7fff, 0x1234), &ok), ARA_E_NOFUNC);
	/* Only w0 is the fid: a wide x0 must not alias another service. */
	expect("fid with high bits", secure_call_wide(wide_fid, NULL), ARA_E_NOFUNC);
	expect("echo, NULL arg", secure_call(ARA_FID_ECHO, NULL), ARA_E_INVAL);
	expect("echo, unmapped arg", secure_call(ARA_FID_ECHO, unmapped), ARA_E_FAULT);
	expect("echo, read-only arg", secure_call(ARA_FID_ECHO, (void *)&read_only_arg), ARA_E_FAULT);
	expect("echo, arg in DOM1", secure_call(ARA_FID_ECHO, (void *)page1), ARA_E_FAULT);
	expect("echo, arg in DOM0", secure_call(ARA_FID_ECHO, (void *)(page1 - ARA_PAGE_SIZE)),
	       ARA_E_FAULT);
	expect("echo, arg straddling into DOM1",
	       secure_call(ARA_FID_ECHO, (void *)(page1 - sizeof(uint64_t))), ARA_E_FAULT);
	expect("echo, tagged pointer to App memory",
	       secure_call(ARA_FID_ECHO, (void *)((uintptr_t)&ok | (UINT64_C(0x5a) << 56))),
	       ARA_E_FAULT);
	expect("echo, kernel address", secure_call(ARA_FID_ECHO, (void *)UINT64_C(0xffff000000001000)),
	       ARA_E_FAULT);
	expect("echo, wrapping range", secure_call(ARA_FID_ECHO, (void *)UINT64_C(0xfffffffffffffff8)),
	       ARA_E_FAULT);

	expect("echo, good arg", secure_call(ARA_FID_ECHO, &ok), ARA_OK);
	expect("echo result", ok.out == ara_echo_expect(42) ? ARA_OK : ARA_E_INTERNAL, ARA_OK);
	expect("null after all that", secure_call(ARA_FID_NULL, NULL), ARA_OK);

	printf("ara-evidence: api-errors: %u checks, %u failed\n", checks, failures);
	return failures ? 1 : 0;
}
