/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's checks (services/provision/server/check.c) on ATTEST
 * messages made here by a test double of the device (device_double_*: the
 * same wire, binding and signature code DOM0 runs, without DOM0), with the
 * dev-insecure backend. The real device side runs in the POE guest
 * (provision.sh); this covers every refusal's code and its order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "binding.h"
#include "check.h"
#include "device_double.h"
#include "hpke.h"
#include "p256.h"

#define NOW 1800000000u

static struct ara_policy policy;
static uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
static uint8_t msg[4096];
static size_t msg_len;

static void keypair(uint8_t seed, uint8_t sk[32], uint8_t pk[65])
{
	assert_int_equal(device_double_keypair(seed, sk, pk), 0);
}

/* The ATTEST a genuine instance makes for `challenge`, into msg. */
static void attest(struct device_double *d, uint64_t issued_at)
{
	assert_int_equal(device_double_attest(d, &policy.expect, "media-key", issued_at, challenge,
					      sizeof(challenge), msg, sizeof(msg), &msg_len),
			 0);
}

static int check(char *why, size_t cap)
{
	struct ara_wire_attest a;
	const struct ara_policy_secret *secret = NULL;

	return ara_check_attest(&policy, challenge, sizeof(challenge), msg, msg_len, NOW, &a,
				&secret, why, cap);
}

static int setup(void **state)
{
	uint8_t nonce[ARA_WIRE_NONCE] = { 0x5a };
	size_t len;

	(void)state;
	memset(&policy, 0, sizeof(policy));
	policy.backends = 1u << ARA_EVIDENCE_DEV_INSECURE;
	policy.max_age = 60;
	memset(policy.expect.loader, 1, 32);
	memset(policy.expect.libara, 2, 32);
	memset(policy.expect.entry, 3, 32);
	memset(policy.expect.app, 4, 32);
	memcpy(policy.secrets[0].name, "media-key", 10);
	policy.secrets[0].name_len = 9;
	memset(policy.secrets[0].value, 0x77, 32);
	policy.secrets[0].len = 32;
	policy.n_secrets = 1;
	assert_int_equal(ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &len), 0);
	return 0;
}

/* Accepted, and the secret sealed to the share opens only with the share's key. */
static void genuine_is_delivered(void **state)
{
	struct device_double d;
	struct ara_wire_attest a;
	const struct ara_policy_secret *secret = NULL;
	uint8_t info[ARA_HPKE_INFO_BYTES], sk_e[32], enc[65], ct[48], pt[32], other_sk[32],
		other_pk[65];
	struct ara_hpke_ctx s, r;
	char why[256] = "";

	(void)state;
	attest(&d, NOW - 5);
	assert_int_equal(ara_check_attest(&policy, challenge, sizeof(challenge), msg, msg_len, NOW,
					  &a, &secret, why, sizeof(why)),
			 0);
	assert_ptr_equal(secret, &policy.secrets[0]);
	keypair(9, sk_e, enc);
	assert_int_equal(ara_provision_hpke_info(challenge, sizeof(challenge), msg, msg_len, info), 0);
	assert_int_equal(ara_hpke_setup_base_s(a.share_pub, sk_e, info, sizeof(info), enc, &s), 0);
	assert_int_equal(ara_hpke_seal(&s, a.name, a.name_len, secret->value, 32, ct), 0);
	assert_int_equal(ara_hpke_setup_base_r(enc, d.share_sk, info, sizeof(info), &r), 0);
	assert_int_equal(ara_hpke_open(&r, a.name, a.name_len, ct, sizeof(ct), pt), 0);
	assert_memory_equal(pt, secret->value, 32);
	/* Someone else's key (the relay's) opens nothing. */
	keypair(3, other_sk, other_pk);
	assert_int_equal(ara_hpke_setup_base_r(enc, other_sk, info, sizeof(info), &r), 0);
	assert_int_not_equal(ara_hpke_open(&r, a.name, a.name_len, ct, sizeof(ct), pt), 0);
}

static void refused_with(int code, const char *phrase)
{
	char why[256] = "";

	assert_int_equal(check(why, sizeof(why)), code);
	if (!strstr(why, phrase))
		fail_msg("reason '%s' lacks '%s'", why, phrase);
}

static void backend_not_in_policy(void **state)
{
	struct device_double d;

	(void)state;
	policy.backends = 1u << ARA_EVIDENCE_TPM;
	attest(&d, NOW);
	refused_with(ARA_REFUSE_BACKEND, "dev-insecure backend");
}

static void stale_and_future(void **state)
{
	struct device_double d;

	(void)state;
	attest(&d, NOW - 61);
	refused_with(ARA_REFUSE_STALE, "61 s ago");
	attest(&d, NOW + ARA_POLICY_SKEW + 1);
	refused_with(ARA_REFUSE_STALE, "future");
}

static void each_digest(void **state)
{
	static const struct {
		size_t off;
		const char *what;
	} f[] = {
		{ offsetof(struct ara_wire_digests, loader), "ara-loader" },
		{ offsetof(struct ara_wire_digests, libara), "libara" },
		{ offsetof(struct ara_wire_digests, entry), "entry object" },
		{ offsetof(struct ara_wire_digests, app), "the App" },
	};
	struct device_double d;

	(void)state;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		((uint8_t *)&policy.expect)[f[i].off + 31] ^= 1;
		attest(&d, NOW);
		((uint8_t *)&policy.expect)[f[i].off + 31] ^= 1;
		refused_with(ARA_REFUSE_MEASUREMENT, f[i].what);
	}
	policy.expect_manifest = 1; /* the device double sends zero */
	policy.expect.manifest[0] = 1;
	attest(&d, NOW);
	policy.expect.manifest[0] = 0;
	refused_with(ARA_REFUSE_MEASUREMENT, "manifest");
}

/* Changed after signing: the share (the relay's), the challenge, a byte of evidence. */
static void after_signing(void **state)
{
	struct device_double d;
	struct ara_wire_attest a;
	uint8_t sk[32], pk[65];

	(void)state;
	attest(&d, NOW);
	assert_int_equal(ara_wire_decode_attest(msg, msg_len, &a), 0);
	keypair(7, sk, pk);
	memcpy((uint8_t *)a.share_pub, pk, 65);
	refused_with(ARA_REFUSE_SESSION, "not signed by the attested instance key");

	attest(&d, NOW);
	challenge[ARA_WIRE_HEADER] ^= 1;
	refused_with(ARA_REFUSE_SESSION, "not signed");
	challenge[ARA_WIRE_HEADER] ^= 1;

	attest(&d, NOW);
	assert_int_equal(ara_wire_decode_attest(msg, msg_len, &a), 0);
	((uint8_t *)a.evidence)[20] ^= 1;
	refused_with(ARA_REFUSE_EVIDENCE, "does not bind");
}

/* The relay's own instance key, signing for itself: the evidence binds the genuine one. */
static void other_instance(void **state)
{
	struct device_double d;
	struct ara_wire_attest a;
	uint8_t sk[32], pk[65], hash[32], sig[64];

	(void)state;
	attest(&d, NOW);
	assert_int_equal(ara_wire_decode_attest(msg, msg_len, &a), 0);
	keypair(8, sk, pk);
	memcpy((uint8_t *)a.instance_pub, pk, 65);
	assert_int_equal(ara_provision_session_hash(challenge, sizeof(challenge), msg, a.signed_len,
						    hash), 0);
	assert_int_equal(ara_p256_sign(sk, hash, sig), 0);
	ara_wire_attest_set_sig(msg, msg_len, sig);
	refused_with(ARA_REFUSE_EVIDENCE, "does not bind");
}

static void bad_points_and_names(void **state)
{
	struct device_double d;
	struct ara_wire_attest a;

	(void)state;
	attest(&d, NOW);
	assert_int_equal(ara_wire_decode_attest(msg, msg_len, &a), 0);
	((uint8_t *)a.share_pub)[64] ^= 1; /* off the curve */
	refused_with(ARA_REFUSE_MALFORMED, "not a P-256 point");

	policy.secrets[0].name[0] = 'x';
	attest(&d, NOW);
	refused_with(ARA_REFUSE_SECRET, "no secret named 'media-key'");
	policy.secrets[0].name[0] = 'm';

	msg_len--;
	refused_with(ARA_REFUSE_MALFORMED, "does not decode");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(genuine_is_delivered, setup),
		cmocka_unit_test_setup(backend_not_in_policy, setup),
		cmocka_unit_test_setup(stale_and_future, setup),
		cmocka_unit_test_setup(each_digest, setup),
		cmocka_unit_test_setup(after_signing, setup),
		cmocka_unit_test_setup(other_instance, setup),
		cmocka_unit_test_setup(bad_points_and_names, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
