/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the RTS costs per byte: one 4 KiB Common Encryption sample
 * (docs/rts.md), protected whole, decrypted
 *   rts_cenc    by ARA: RTS_CENC_DECRYPT through secure_call, in DOM0, on the
 *               CPU's AES instructions (the only AES DOM0 has);
 *   cenc_table  in App code by the same sample code (cenc_sample.c) on
 *               mbedtls's portable table AES;
 *   cenc_aesce  the same on mbedtls's aesce.c (the AES instructions): what
 *               rts_cenc would cost without the call and its copies.
 * The two App-side operations use the tools' mbedtls, which picks its AES
 * at run time from mbedtls_aesce_has_support_result (library/aesce.h):
 * each setup sets it before the key schedule is made. The key is the
 * benchmark's own, provisioned to its ARA instance by the App itself
 * (tests/rts/self_provision.h); ara_bench runs with ARA_EVIDENCE=dev-insecure.
 */
#include <stdio.h>
#include <string.h>

#include "ara/ara.h"
#include "ara/rts.h"
#include "bench_ops.h"
#include "cenc_sample.h"
#include "self_provision.h"

#define SAMPLE 4096u

/* mbedtls's cache of its AES-instruction check (library/aesce.c): 1 yes, 0 no. */
extern signed char mbedtls_aesce_has_support_result;

static const uint8_t key[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
static const uint8_t key_id[16] = { 'a', 'r', 'a', '-', 'b', 'e', 'n', 'c', 'h' };
static const uint8_t iv[16] = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7 };
static uint8_t sample[SAMPLE], clear[SAMPLE];
static uint32_t session;
static mbedtls_aes_context app_aes;

static int rts_setup(void)
{
	const int st = ara_test_cenc_session(key_id, key, &session);

	if (st != ARA_OK)
		fprintf(stderr, "ara_bench: a CENC session: %s (%d)%s\n", ara_strerror(st), st,
			st == ARA_E_NO_EVIDENCE ? ": run with ARA_EVIDENCE=dev-insecure" : "");
	return st == ARA_OK ? 0 : -1;
}

static int rts_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		struct ara_rts_cenc_decrypt_arg d = {
			.in = (uintptr_t)sample, .out = (uintptr_t)clear, .in_len = SAMPLE,
			.out_cap = SAMPLE, .iv_len = 16, .session = session,
		};
		int st;

		memcpy(d.iv, iv, sizeof(iv));
		st = secure_call(ARA_FID_RTS_CENC_DECRYPT, &d);
		if (st != ARA_OK || d.out_len != SAMPLE) {
			fprintf(stderr, "ara_bench: RTS_CENC_DECRYPT: %s (%d)\n", ara_strerror(st), st);
			return -1;
		}
	}
	return 0;
}

static int rts_teardown(void)
{
	struct ara_rts_cenc_close_arg c = { .session = session };

	return secure_call(ARA_FID_RTS_CENC_CLOSE, &c) == ARA_OK ? 0 : -1;
}

static int app_setup(signed char aesce)
{
	mbedtls_aesce_has_support_result = aesce;
	mbedtls_aes_init(&app_aes);
	return mbedtls_aes_setkey_enc(&app_aes, key, 128) == 0 ? 0 : -1;
}

static int table_setup(void)
{
	return app_setup(0);
}

static int aesce_setup(void)
{
	return app_setup(1);
}

static int app_run(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (ara_cenc_decrypt(&app_aes, iv, sizeof(iv), NULL, 0, sample, SAMPLE))
			return -1;
	return 0;
}

static int app_teardown(void)
{
	mbedtls_aes_free(&app_aes);
	mbedtls_aesce_has_support_result = -1;
	return 0;
}

const struct bench_op bench_op_rts_cenc = {
	.name = "rts_cenc",
	.what = "a 4 KiB CENC sample decrypted by ARA (RTS_CENC_DECRYPT, AES instructions)",
	.setup = rts_setup,
	.run = rts_run,
	.teardown = rts_teardown,
};

const struct bench_op bench_op_cenc_table = {
	.name = "cenc_table",
	.what = "the same sample decrypted in the App by mbedtls's portable (table) AES",
	.setup = table_setup,
	.run = app_run,
	.teardown = app_teardown,
};

const struct bench_op bench_op_cenc_aesce = {
	.name = "cenc_aesce",
	.what = "the same sample decrypted in the App by mbedtls's aesce.c (AES instructions)",
	.setup = aesce_setup,
	.run = app_run,
	.teardown = app_teardown,
};
