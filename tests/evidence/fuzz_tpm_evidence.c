/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the whole tpm evidence verifier (ara_tpm_verify), with
 * the policy of the genuine seed blob (corpus/tpm_evidence/genuine-swtpm.bin,
 * captured from swtpm by tpm-e2e.sh with ARA_TPM_E2E_CAPTURE): its AK, its
 * binding, the loader digest its log holds. Properties, for any bytes:
 *   - it reads only the len bytes it is given (ASan: an exact heap copy),
 *     and writes at most why_cap bytes of reason (an exact 8-byte buffer);
 *   - the verdict does not depend on the reason buffer;
 *   - a refusal says why on one line and leaves the claims zeroed;
 *   - an acceptance carries the genuine quote: the attest's bytes are the
 *     ones the AK signed (nothing else verifies), and the claims name the
 *     policy's loader.
 */
#include <mbedtls/sha256.h>
#include <string.h>

#include "ara/hex.h"
#include "fuzz_check.h"
#include "tpm_verify.h"

/* Captured with the seed; refreshed together with it. */
static const char ak_hex[] =
	"04232ec0aa1beea1f537779f29da02d330c44df054b58ff6cb4d95fa6a14f28b5740"
	"07639076a291f1c8776f1903bbafe0f33dcea97f1a58c0e23db3f7a0fb7e69";
static const char binding_hex[] =
	"906e173ab017ba4c570374fbd3b7a28c038fb166ec935f41257bfd815533228d";
static const char loader_hex[] =
	"a5a453810c7c038d44fe6701a9aac1cb98c6769d16269f0bb5ce3b716fc696a4";
/* SHA-256 of the seed's 145 attest bytes (at offset 12). */
static const char attest_sha256_hex[] =
	"c474f6c39beaad80b1f34d55ab1ea5183bad4669a97c6160e1184c5d3eeb2659";

static void unhex(const char *hex, uint8_t *out, size_t n)
{
	FUZZ_CHECK(ara_hex_decode_lower(hex, strlen(hex), out, n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ara_tpm_policy policy;
	static uint8_t binding[32], attest_sha256[32];
	static int ready;
	static const struct ara_tpm_claims zero;
	uint8_t *ev = malloc(size ? size : 1), h[32];
	char *small = malloc(8), why[256];
	struct ara_tpm_claims c, c2;
	int r, r2;

	if (!ready) {
		unhex(ak_hex, policy.ak_pub, sizeof(policy.ak_pub));
		unhex(loader_hex, policy.loader_sha256, sizeof(policy.loader_sha256));
		unhex(binding_hex, binding, sizeof(binding));
		unhex(attest_sha256_hex, attest_sha256, sizeof(attest_sha256));
		ready = 1;
	}
	FUZZ_CHECK(ev && small);
	memcpy(ev, data, size);
	memset(why, 'x', sizeof(why));
	r = ara_tpm_verify(&policy, ev, size, binding, &c, why, sizeof(why));
	r2 = ara_tpm_verify(&policy, ev, size, binding, &c2, small, 8);
	FUZZ_CHECK(r == 0 || r == -1);
	FUZZ_CHECK(r2 == r);
	if (r) {
		FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL);
		FUZZ_CHECK(why[0] != '\0' && !strchr(why, '\n'));
		FUZZ_CHECK(strlen(small) == 7 || strcmp(small, why) == 0);
		FUZZ_CHECK(strncmp(small, why, strlen(small)) == 0);
		FUZZ_CHECK(memcmp(&c, &zero, sizeof(c)) == 0);
	} else {
		uint32_t attest_len = (uint32_t)ev[8] << 24 | (uint32_t)ev[9] << 16 |
				      (uint32_t)ev[10] << 8 | ev[11];

		FUZZ_CHECK(attest_len <= size - 12);
		mbedtls_sha256(ev + 12, attest_len, h, 0);
		FUZZ_CHECK(memcmp(h, attest_sha256, 32) == 0);
		FUZZ_CHECK(memcmp(c.loader_sha256, policy.loader_sha256, 32) == 0);
		FUZZ_CHECK(c.loader_path[0] != '\0');
		FUZZ_CHECK(memchr(c.loader_path, '\0', sizeof(c.loader_path)) != NULL);
		FUZZ_CHECK(c.entries_replayed >= 1);
		FUZZ_CHECK(memcmp(&c, &c2, sizeof(c)) == 0);
	}
	free(small);
	free(ev);
	return 0;
}
