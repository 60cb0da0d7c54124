/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App races a service's argument (IV6, argument copy-in).
 * One thread calls the double-fetch service of the race-target variants
 * (tests/variants/double_fetch_service.c) CALLS times; another flips the
 * argument's len between the public length and the whole buffer, each held
 * for a few dozen loads. A service that reads len again after its check
 * copies the secret that follows the public part in DOM0 into out: the
 * program then prints it (the leak the ctest looks for) and fails.
 *
 * Against race-target the service gets a DOM0 copy of the argument: a call
 * returns ARA_OK (the copy held the public length) or ARA_E_INVAL (it held
 * the large one and the check refused it), nothing leaks, and both statuses
 * must occur, which shows that the racer did change len during the calls.
 * Against race-target-no-copy the service reads the App's memory and the
 * race must win.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "double_fetch.h"

#define CALLS 20000
#define CANARY "ARA-DOM0-CANARY"

static struct double_fetch_arg arg;
static int done;

/*
 * Keeps the value just stored for a while: back-to-back stores would leave
 * the large len in memory for one instruction, which another vCPU's reads
 * almost never see.
 */
static void hold(void)
{
	for (int i = 0; i < 64 && !__atomic_load_n(&done, __ATOMIC_RELAXED); i++)
		;
}

/* The second thread: an allowed len, then a disallowed one, until done. */
static void *racer(void *unused)
{
	(void)unused;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		__atomic_store_n(&arg.len, DOUBLE_FETCH_OUT_LEN, __ATOMIC_RELAXED);
		hold();
		__atomic_store_n(&arg.len, DOUBLE_FETCH_PUBLIC_LEN, __ATOMIC_RELAXED);
		hold();
	}
	return NULL;
}

/* Prints the secret if out holds it (the format of attack_kernel.c's leaks). */
static int leaked(void)
{
	for (size_t i = 0; i + sizeof(CANARY) - 1 <= sizeof(arg.out); i++)
		if (memcmp(arg.out + i, CANARY, sizeof(CANARY) - 1) == 0) {
			/* The address is where the service copied it: App memory. */
			printf("LEAK at 0x%llx: %.*s\n", (unsigned long long)(uintptr_t)(arg.out + i),
			       (int)(sizeof(arg.out) - i), (const char *)arg.out + i);
			return 1;
		}
	return 0;
}

int main(void)
{
	unsigned long ok = 0, refused = 0;
	pthread_t thread;
	int calls, failed = 0, rc;

	arg.len = DOUBLE_FETCH_PUBLIC_LEN;
	rc = pthread_create(&thread, NULL, racer, NULL);
	if (rc) {
		fprintf(stderr, "attack_race: pthread_create: %s\n", strerror(rc));
		return 2;
	}
	for (calls = 1; calls <= CALLS && !failed; calls++) {
		int st;

		memset(arg.out, 0, sizeof(arg.out));
		st = secure_call(DOUBLE_FETCH_FID, &arg);
		if (st == ARA_OK) {
			ok++;
		} else if (st == ARA_E_INVAL) {
			refused++;
		} else {
			printf("FAIL: call %d returned %d (%s)\n", calls, st, ara_strerror(st));
			failed = 1;
		}
		if (leaked()) {
			printf("FAIL: call %d: the service read len again after its check\n", calls);
			failed = 1;
		}
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	printf("arg race: %d calls while another thread flipped len: %lu ARA_OK, %lu ARA_E_INVAL\n",
	       calls - 1, ok, refused);
	if (failed)
		return 1;
	if (ok == 0 || refused == 0) {
		printf("FAIL: every copy-in saw the same len: the racer did not race\n");
		return 1;
	}
	printf("ara-evidence: arg race: the service saw only DOM0's copy of len; nothing leaked\n");
	return 0;
}
