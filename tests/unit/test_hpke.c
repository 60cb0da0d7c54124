/* SPDX-License-Identifier: Apache-2.0 */
/*
 * services/provision/hpke.c against RFC 9180's test vectors, appendix A.3.1:
 * DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode. Plus what
 * the vectors do not cover: a wrong tag, aad or key does not open, and bad
 * points and lengths are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ara/hex.h"
#include "hpke.h"

/* hpke.c takes at most 512 bytes of keying material, info or context. */
#define INPUT_BYTES_OVER 513

/* RFC 9180 A.3.1 */
#define INFO "4f6465206f6e2061204772656369616e2055726e"
#define IKM_E "80fdbddefe3f492781744066e5dc6de5d45fe13733894417a5db66c755f8f7f1"
#define PK_E                                                                       \
	"04987cd3d8ca7b11f4c05688b9ccc569210ee5ed3ec3629e1615ba2b6f4834ced3"       \
	"5da40bdcc786e1c523e4dab1794d540cae4a565aceef24685e64d646a067b385"
#define SK_E "c13f314da45f296215553cb08736cc542aeb13f211c9632f232a82ec843a78cc"
#define IKM_R "e8c888795334a26f9d31d2aad14827a8d585c04122daff292095497a00be953e"
#define PK_R                                                                       \
	"04e9d622b3112fe22a0f3c9e1fa6d020d61f3efb58652973a8f5c4656dcc2f63ee"       \
	"fbf14e6f9d7f7b7772a56ddebc13ad0b1a0a9f0483b2a1a8d6cae615d9be3ea9"
#define SK_R "6f14a20f859eb121acc2dd77b8718b2da5fa6a38674d93cfc74e57cd5d4ae51f"
#define KEY "d481191a63ab00c15e5944bf8f202673"
#define BASE_NONCE "d4f41cfeff8942fc569941f0"
#define EXPORTER_SECRET "1df76f92322234f75234ede58d20153265b95244be00a44a218ee45bb272180f"
#define PT "4265617574792069732074727574682c20747275746820626561757479"

struct encryption {
	uint64_t seq;
	const char *aad, *ct;
};

static const struct encryption encryptions[] = {
	{ 0, "436f756e742d30",
	  "d5b8fcd4d6ef4e70652130d0a976b699b94880714f9392cf818031e3a51dc938987504d6c12e91f4936ea039a2" },
	{ 1, "436f756e742d31",
	  "8d9e43d004e28895ee45637762922310e6ce97e1d57b6db9d7e3cc43f46c838159ad66ebff88e038ff56653161" },
	{ 2, "436f756e742d32",
	  "ae633e72bfe94cdf6ebcafcaa6e1741255846e4af714a56503dcc9da0c0cc066265750494130f4b81b571adda9" },
	{ 4, "436f756e742d34",
	  "3aa4fafa2b1bbfabdc66e5a34d362ea1bc933a1335d1075e0b6cef6c4c50994a40b6016101cb5b09510bd4fd3f" },
	{ 255, "436f756e742d323535",
	  "9766208db2eb7439bd7e8de13b230cfe18e7f51c0b35e51ee86646d54f4131d9ccf9cc346ad8a1eee7c33e2000" },
	{ 256, "436f756e742d323536",
	  "9fdc618980d7683137740e871d786a6ddeb444ea00cac7568bba7c23fc5ab5029faa5947b6329a03bfca53344a" },
};

static const struct {
	const char *context, *value;
} exports[] = {
	{ "", "2a5155420c36ba4d3fed081223fab445d57d0a33d85115dd0e9c44b021aa8de8" },
	{ "00", "e81e4a73608e3aeadba7409e3e161656308cf5869c6abbd37f8a0cd6b5d66a47" },
	{ "54657374436f6e74657874", "5a9bb18c06b8ae41361f517c4a51dc2321b62bcacae5a32c3f28bd03d2e9386d" },
};

/* hex into out (at most max bytes); returns the length. */
static size_t unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = strlen(hex) / 2;

	assert_true(n <= max);
	assert_int_equal(ara_hex_decode_lower(hex, strlen(hex), out, n), 0);
	return n;
}

static void assert_hex(const uint8_t *got, size_t len, const char *want)
{
	uint8_t w[256];

	assert_int_equal(unhex(want, w, sizeof(w)), len);
	assert_memory_equal(got, w, len);
}

/* Both sides' contexts for the vector's keys. */
static void setup_both(struct ara_hpke_ctx *s, struct ara_hpke_ctx *r)
{
	uint8_t ikm[32], sk_e[ARA_HPKE_NSK], pk_e[ARA_HPKE_NPK], sk_r[ARA_HPKE_NSK];
	uint8_t pk_r[ARA_HPKE_NPK], info[64], enc[ARA_HPKE_NPK];
	size_t info_len = unhex(INFO, info, sizeof(info));

	assert_int_equal(ara_hpke_derive_keypair(ikm, unhex(IKM_E, ikm, sizeof(ikm)), sk_e, pk_e), 0);
	assert_int_equal(ara_hpke_derive_keypair(ikm, unhex(IKM_R, ikm, sizeof(ikm)), sk_r, pk_r), 0);
	assert_int_equal(ara_hpke_setup_base_s(pk_r, sk_e, info, info_len, enc, s), 0);
	assert_hex(enc, sizeof(enc), PK_E);
	assert_int_equal(ara_hpke_setup_base_r(enc, sk_r, info, info_len, r), 0);
}

static void derives_the_vectors_key_pairs(void **state)
{
	uint8_t ikm[32], sk[ARA_HPKE_NSK], pk[ARA_HPKE_NPK];

	(void)state;
	assert_int_equal(ara_hpke_derive_keypair(ikm, unhex(IKM_E, ikm, sizeof(ikm)), sk, pk), 0);
	assert_hex(sk, sizeof(sk), SK_E);
	assert_hex(pk, sizeof(pk), PK_E);
	assert_int_equal(ara_hpke_derive_keypair(ikm, unhex(IKM_R, ikm, sizeof(ikm)), sk, pk), 0);
	assert_hex(sk, sizeof(sk), SK_R);
	assert_hex(pk, sizeof(pk), PK_R);
}

static void key_schedule_matches(void **state)
{
	struct ara_hpke_ctx s, r;

	(void)state;
	setup_both(&s, &r);
	assert_hex(s.key, sizeof(s.key), KEY);
	assert_hex(s.base_nonce, sizeof(s.base_nonce), BASE_NONCE);
	assert_hex(s.exporter_secret, sizeof(s.exporter_secret), EXPORTER_SECRET);
	/* The receiver derived the same. */
	assert_memory_equal(s.key, r.key, sizeof(s.key));
	assert_memory_equal(s.base_nonce, r.base_nonce, sizeof(s.base_nonce));
	assert_memory_equal(s.exporter_secret, r.exporter_secret, sizeof(s.exporter_secret));
	assert_true(s.seq == 0 && r.seq == 0);
}

static void seals_and_opens_the_vectors_messages(void **state)
{
	struct ara_hpke_ctx s, r;
	uint8_t pt[64], aad[16], ct[128], want[128], out[64];
	const size_t pt_len = unhex(PT, pt, sizeof(pt));

	(void)state;
	setup_both(&s, &r);
	for (size_t i = 0; i < sizeof(encryptions) / sizeof(encryptions[0]); i++) {
		const struct encryption *e = &encryptions[i];
		size_t aad_len = unhex(e->aad, aad, sizeof(aad));

		/* Messages between the vector's sequence numbers, to get there. */
		while (s.seq < e->seq) {
			assert_int_equal(ara_hpke_seal(&s, aad, 0, pt, pt_len, ct), 0);
			assert_int_equal(ara_hpke_open(&r, aad, 0, ct, pt_len + ARA_HPKE_NT, out), 0);
		}
		assert_int_equal(ara_hpke_seal(&s, aad, aad_len, pt, pt_len, ct), 0);
		assert_int_equal(unhex(e->ct, want, sizeof(want)), pt_len + ARA_HPKE_NT);
		assert_memory_equal(ct, want, pt_len + ARA_HPKE_NT);
		assert_int_equal(ara_hpke_open(&r, aad, aad_len, ct, pt_len + ARA_HPKE_NT, out), 0);
		assert_memory_equal(out, pt, pt_len);
	}
	ara_hpke_ctx_wipe(&s);
	ara_hpke_ctx_wipe(&r);
}

static void exports_the_vectors_values(void **state)
{
	struct ara_hpke_ctx s, r;
	uint8_t context[32], out[32];

	(void)state;
	setup_both(&s, &r);
	for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); i++) {
		size_t len = unhex(exports[i].context, context, sizeof(context));

		assert_int_equal(ara_hpke_export(&r, context, len, out, sizeof(out)), 0);
		assert_hex(out, sizeof(out), exports[i].value);
	}
}

static void refuses_what_does_not_verify(void **state)
{
	struct ara_hpke_ctx s, r, r2;
	uint8_t pt[64], ct[128], out[64], aad[] = { 1, 2, 3 };
	const size_t pt_len = unhex(PT, pt, sizeof(pt)), ct_len = pt_len + ARA_HPKE_NT;

	(void)state;
	setup_both(&s, &r);
	r2 = r;
	assert_int_equal(ara_hpke_seal(&s, aad, sizeof(aad), pt, pt_len, ct), 0);
	ct[ct_len - 1] ^= 1; /* the tag */
	assert_int_equal(ara_hpke_open(&r, aad, sizeof(aad), ct, ct_len, out), ARA_HPKE_E_OPEN);
	for (size_t i = 0; i < pt_len; i++)
		assert_int_equal(out[i], 0);
	ct[ct_len - 1] ^= 1;
	assert_int_equal(ara_hpke_open(&r, aad, 2, ct, ct_len, out), ARA_HPKE_E_OPEN); /* aad */
	assert_int_equal(r.seq, 0);					       /* nothing consumed */
	ct[0] ^= 0x80; /* the ciphertext */
	assert_int_equal(ara_hpke_open(&r, aad, sizeof(aad), ct, ct_len, out), ARA_HPKE_E_OPEN);
	ct[0] ^= 0x80;
	assert_int_equal(ara_hpke_open(&r, aad, sizeof(aad), ct, ARA_HPKE_NT - 1, out),
			 ARA_HPKE_E_INPUT);
	assert_int_equal(ara_hpke_open(&r2, aad, sizeof(aad), ct, ct_len, out), 0);
	assert_memory_equal(out, pt, pt_len);
	/* Replayed into the next sequence number, it does not open. */
	assert_int_equal(ara_hpke_open(&r2, aad, sizeof(aad), ct, ct_len, out), ARA_HPKE_E_OPEN);
}

static void refuses_bad_points_and_scalars(void **state)
{
	struct ara_hpke_ctx ctx;
	uint8_t sk[ARA_HPKE_NSK], pk[ARA_HPKE_NPK], enc[ARA_HPKE_NPK], zero[ARA_HPKE_NSK] = { 0 };
	uint8_t big[INPUT_BYTES_OVER];

	(void)state;
	memset(big, 0x5a, sizeof(big));
	assert_int_equal(ara_hpke_derive_keypair(big, 32, sk, pk), 0);
	assert_int_equal(ara_hpke_derive_keypair(big, sizeof(big), sk, pk), ARA_HPKE_E_INPUT);
	/* A point off the curve: the public key with its last byte changed. */
	pk[ARA_HPKE_NPK - 1] ^= 1;
	assert_int_equal(ara_hpke_setup_base_s(pk, sk, NULL, 0, enc, &ctx), ARA_HPKE_E_INPUT);
	pk[ARA_HPKE_NPK - 1] ^= 1;
	pk[0] = 0x02; /* compressed form: not what this suite serialises */
	assert_int_equal(ara_hpke_setup_base_r(pk, sk, NULL, 0, &ctx), ARA_HPKE_E_INPUT);
	pk[0] = 0x04;
	assert_int_equal(ara_hpke_setup_base_r(pk, zero, NULL, 0, &ctx), ARA_HPKE_E_INPUT);
	memset(sk, 0xff, sizeof(sk)); /* above the group order */
	assert_int_equal(ara_hpke_setup_base_r(pk, sk, NULL, 0, &ctx), ARA_HPKE_E_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(derives_the_vectors_key_pairs),
		cmocka_unit_test(key_schedule_matches),
		cmocka_unit_test(seals_and_opens_the_vectors_messages),
		cmocka_unit_test(exports_the_vectors_values),
		cmocka_unit_test(refuses_what_does_not_verify),
		cmocka_unit_test(refuses_bad_points_and_scalars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
