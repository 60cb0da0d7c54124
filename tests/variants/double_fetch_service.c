/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A service written the careless way, linked only into the race-target test
 * variants (never into libara.so). It checks arg->len, works a while, then
 * reads arg->len again and trusts it: a double fetch. Were arg the App's
 * memory, another App thread could raise len between the check and the use
 * and read past the public part of the buffer into the secret after it.
 * The dispatcher hands the handler a DOM0 copy of the argument, so both
 * reads see the same value; race-target-no-copy removes that copy
 * (ARA_TEST_VARIANT_NO_COPY_IN in dispatch.c) to show that the attack
 * (tests/ara/attack_race.c) wins where the copy is missing.
 */
#include "ara/service.h"
#include "double_fetch.h"

/* Iterations between the check and the use: the window the race must hit. */
#define WINDOW 4000u

/* DOM0 read-only data: the public part, then the secret right after it. */
static const struct {
	char public_part[DOUBLE_FETCH_PUBLIC_LEN];
	char secret[DOUBLE_FETCH_OUT_LEN - DOUBLE_FETCH_PUBLIC_LEN];
} buffer = { "public-part-16B", "ARA-DOM0-CANARY: race-target service's secret" };
_Static_assert(sizeof(buffer) == DOUBLE_FETCH_OUT_LEN, "out holds the whole buffer");

static enum ara_status double_fetch(void *arg)
{
	struct double_fetch_arg *a = arg;

	if (a->len > DOUBLE_FETCH_PUBLIC_LEN)
		return ARA_E_INVAL;
	/*
	 * Work between the check and the use. The barrier stands for code the
	 * compiler cannot see through: like such code, it makes the compiler
	 * read a->len again below instead of reusing the checked value.
	 */
	for (unsigned int i = 0; i < WINDOW; i++)
		__asm__ volatile("" ::: "memory");
	memcpy(a->out, &buffer, a->len); /* the bug: len fetched again, unchecked */
	return ARA_OK;
}

ARA_MODULE(double_fetch_module, .name = "double-fetch");

ARA_SERVICE(svc_double_fetch, .fid = DOUBLE_FETCH_FID, .flags = ARA_SVC_IN | ARA_SVC_OUT,
	    .arg_size = sizeof(struct double_fetch_arg), .name = "double-fetch",
	    .module = &double_fetch_module, .handler = double_fetch);
