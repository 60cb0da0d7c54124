/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the IMA binary log parser and replay
 * (services/evidence/ima_log.c), which the verifier runs on a log the
 * device sent. Properties, for any bytes:
 *   - it reads only the len bytes it is given (ASan: an exact heap copy);
 *   - every entry it returns lies inside the log, back to back, with a
 *     name NUL-terminated where it says and a digest of its algorithm's
 *     size, and template data of exactly d-ng and n-ng;
 *   - ara_ima_replay succeeds iff iterating ends cleanly, and its value is
 *     the SHA-256 chain recomputed here from the entries' template data;
 *   - a refusal always says why.
 */
#include <mbedtls/sha256.h>
#include <string.h>

#include "ara/bytes.h"
#include "fuzz_check.h"
#include "ima_log.h"

static int within(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
	return p >= base && (size_t)(p - base) <= len && n <= len - (size_t)(p - base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *log = malloc(size ? size : 1), chain[64], ff[32];
	struct ara_ima_pcr ref, got;
	struct ara_ima_iter it;
	struct ara_ima_entry e;
	size_t expect_at = 0;
	char why[160];
	int r, rr;

	FUZZ_CHECK(log);
	memcpy(log, data, size);
	memset(ff, 0xff, sizeof(ff));
	memset(&ref, 0, sizeof(ref));
	ara_ima_iter_init(&it, log, size);
	while ((r = ara_ima_next(&it, &e)) == 1) {
		size_t algo_len = strlen(e.algo);

		/* The entry starts where the previous one ended. */
		FUZZ_CHECK(e.template_digest == log + expect_at + 4);
		FUZZ_CHECK(within(e.data, e.data_len, log, size));
		FUZZ_CHECK(e.data_len == 4 + algo_len + 2 + e.digest_len + 4 + e.name_len + 1);
		FUZZ_CHECK(ara_get_le32(e.data) == algo_len + 2 + e.digest_len);
		FUZZ_CHECK(memcmp(e.data + 4, e.algo, algo_len) == 0);
		FUZZ_CHECK(e.digest == e.data + 4 + algo_len + 2);
		FUZZ_CHECK((const uint8_t *)e.name == e.digest + e.digest_len + 4);
		FUZZ_CHECK(e.name[e.name_len] == '\0' && strlen(e.name) == e.name_len);
		FUZZ_CHECK(e.name_len < ARA_IMA_FILE_NAME_MAX);
		FUZZ_CHECK(e.digest_len == (strcmp(e.algo, "sha1") == 0	 ? 20u
					    : strcmp(e.algo, "sha256") == 0 ? 32u
					    : strcmp(e.algo, "sha384") == 0 ? 48u
									    : 64u));
		FUZZ_CHECK(e.pcr < 24);
		FUZZ_CHECK(e.index != 0 || strcmp(e.name, "boot_aggregate") == 0);
		expect_at = (size_t)(e.data - log) + e.data_len;
		if (e.pcr == 10) {
			memcpy(chain, ref.value, 32);
			if (e.violation)
				memcpy(chain + 32, ff, 32);
			else
				mbedtls_sha256(e.data, e.data_len, chain + 32, 0);
			mbedtls_sha256(chain, sizeof(chain), ref.value, 0);
			ref.extends++;
		}
	}
	FUZZ_CHECK(r == 0 || (r == -1 && it.why[0] != '\0'));
	FUZZ_CHECK(r != 0 || expect_at == size);

	rr = ara_ima_replay(log, size, 10, &got, why, sizeof(why));
	FUZZ_CHECK(rr == (r == 0 ? 0 : -1));
	if (rr == 0) {
		FUZZ_CHECK(memcmp(got.value, ref.value, 32) == 0);
		FUZZ_CHECK(got.extends == ref.extends);
	} else {
		FUZZ_CHECK(strcmp(why, it.why) == 0);
	}
	free(log);
	return 0;
}
