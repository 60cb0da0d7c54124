/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioning wire format (services/provision/wire.c): every message
 * decodes to what was encoded, and every way of getting a message wrong is
 * refused with its own error, before any field is used.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

static uint8_t buf[ARA_WIRE_HEADER + 4096];
static const uint8_t evidence[100] = { 1, 2, 3 };

static size_t make_attest(void)
{
	static uint8_t inst[ARA_WIRE_POINT] = { 4, 1 }, share[ARA_WIRE_POINT] = { 4, 2 };
	struct ara_wire_attest a = {
		.backend = ARA_EVIDENCE_DEV_INSECURE, .issued_at = 0x0102030405060708u,
		.instance_pub = inst, .share_pub = share, .name = (const uint8_t *)"media-key",
		.name_len = 9, .evidence = evidence, .evidence_len = sizeof(evidence),
	};
	static const uint8_t sig[ARA_WIRE_SIG] = { 9, 9, 9 };
	size_t len;

	memset(a.digests.app, 0xaa, sizeof(a.digests.app));
	assert_int_equal(ara_wire_encode_attest(&a, buf, sizeof(buf), &len), ARA_WIRE_OK);
	assert_int_equal(a.signed_len, len - ARA_WIRE_SIG);
	ara_wire_set_sig(buf, len, sig);
	return len;
}

static void attest_round_trip(void **state)
{
	struct ara_wire_attest a;
	size_t len = make_attest();

	(void)state;
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_OK);
	assert_int_equal(a.backend, ARA_EVIDENCE_DEV_INSECURE);
	assert_true(a.issued_at == 0x0102030405060708u);
	assert_int_equal(a.instance_pub[1], 1);
	assert_int_equal(a.share_pub[1], 2);
	assert_memory_equal(a.name, "media-key", 9);
	assert_int_equal(a.evidence_len, sizeof(evidence));
	assert_memory_equal(a.evidence, evidence, sizeof(evidence));
	assert_int_equal(a.digests.app[31], 0xaa);
	assert_int_equal(a.sig[0], 9);
	assert_int_equal(a.signed_len, len - ARA_WIRE_SIG);
}

/* Every proper prefix is short, one more byte is long. */
static void attest_lengths(void **state)
{
	struct ara_wire_attest a;
	size_t len = make_attest();

	(void)state;
	for (size_t n = 0; n < len; n++)
		assert_int_equal(ara_wire_decode_attest(buf, n, &a), ARA_WIRE_E_SHORT);
	assert_int_equal(ara_wire_decode_attest(buf, len + 1, &a), ARA_WIRE_E_LONG);
}

static void header_checks(void **state)
{
	struct ara_wire_attest a;
	uint8_t type;
	size_t len = make_attest(), total;

	(void)state;
	buf[0] = 'X';
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_MAGIC);
	buf[0] = 'A';
	buf[4] = 2;
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_VERSION);
	buf[4] = 1;
	buf[5] = ARA_WIRE_DELIVER;
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_TYPE);
	buf[5] = ARA_WIRE_ATTEST;
	buf[7] = 1;
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_FIELD);
	buf[7] = 0;
	/* A body one over the largest is refused from the header alone. */
	buf[8] = (uint8_t)((ARA_WIRE_BODY_MAX + 1) >> 24);
	buf[9] = (uint8_t)((ARA_WIRE_BODY_MAX + 1) >> 16);
	buf[10] = (uint8_t)((ARA_WIRE_BODY_MAX + 1) >> 8);
	buf[11] = (uint8_t)(ARA_WIRE_BODY_MAX + 1);
	assert_int_equal(ara_wire_peek(buf, ARA_WIRE_HEADER, &type, &total), ARA_WIRE_E_FIELD);
	buf[8] = 0xff;
	assert_int_equal(ara_wire_peek(buf, ARA_WIRE_HEADER, &type, &total), ARA_WIRE_E_FIELD);
	assert_int_equal(ara_wire_peek(buf, ARA_WIRE_HEADER - 1, &type, &total), ARA_WIRE_E_SHORT);
}

static void attest_fields(void **state)
{
	struct ara_wire_attest a;
	size_t len = make_attest();
	size_t name_at = ARA_WIRE_HEADER + 1 + 3 + 8 + ARA_WIRE_POINT + 5 * 32 + ARA_WIRE_POINT;

	(void)state;
	buf[ARA_WIRE_HEADER + 1] = 1; /* reserved */
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_FIELD);
	len = make_attest();
	buf[name_at + 1] = '/'; /* the name's first byte */
	assert_int_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_E_FIELD);
	len = make_attest();
	buf[name_at] = 0; /* an empty name: the rest then misaligns, still refused */
	assert_int_not_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_OK);
	/* An evidence length past the end. */
	len = make_attest();
	buf[name_at + 1 + 9] = 0x7f;
	assert_int_not_equal(ara_wire_decode_attest(buf, len, &a), ARA_WIRE_OK);
}

static void names(void **state)
{
	(void)state;
	assert_true(ara_wire_name_ok((const uint8_t *)"a.b_c-9", 7));
	assert_false(ara_wire_name_ok((const uint8_t *)"", 0));
	assert_false(ara_wire_name_ok((const uint8_t *)"a b", 3));
	assert_false(ara_wire_name_ok((const uint8_t *)"a\0b", 3));
	assert_false(ara_wire_name_ok((const uint8_t *)
		"0123456789012345678901234567890123456789012345678901234567890123x", 65));
}

static void challenge_and_deliver(void **state)
{
	uint8_t nonce[ARA_WIRE_NONCE] = { 7 }, enc[ARA_WIRE_POINT] = { 4 }, ct[48] = { 5 };
	const uint8_t *got;
	struct ara_wire_deliver d;
	size_t len;

	(void)state;
	assert_int_equal(ara_wire_encode_challenge(nonce, buf, sizeof(buf), &len), ARA_WIRE_OK);
	assert_int_equal(len, ARA_WIRE_HEADER + ARA_WIRE_NONCE);
	assert_int_equal(ara_wire_decode_challenge(buf, len, &got), ARA_WIRE_OK);
	assert_int_equal(got[0], 7);
	assert_int_equal(ara_wire_decode_challenge(buf, len - 1, &got), ARA_WIRE_E_SHORT);
	assert_int_equal(ara_wire_encode_challenge(nonce, buf, len - 1, &len), ARA_WIRE_E_SPACE);

	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 0, buf, sizeof(buf), &len),
			 ARA_WIRE_OK);
	assert_int_equal(ara_wire_decode_deliver(buf, len, &d), ARA_WIRE_OK);
	assert_int_equal(d.ct_len, sizeof(ct));
	assert_int_equal(d.ct[0], 5);
	assert_null(d.sig);
	assert_int_equal(d.signed_len, len);
	/* A ciphertext that is only a tag, or longer than the largest secret. */
	assert_int_equal(ara_wire_encode_deliver(enc, ct, 16, 0, buf, sizeof(buf), &len),
			 ARA_WIRE_E_FIELD);
	assert_int_equal(ara_wire_encode_deliver(enc, ct, ARA_WIRE_SECRET_MAX + 17, 1, buf,
						 sizeof(buf), &len),
			 ARA_WIRE_E_FIELD);
}

/*
 * A signed DELIVER carries the flag and the signature after the ciphertext;
 * without its signature it is short, and the flag on any other message, or
 * any other flag, is refused.
 */
static void signed_deliver(void **state)
{
	uint8_t enc[ARA_WIRE_POINT] = { 4 }, ct[48] = { 5 }, nonce[ARA_WIRE_NONCE] = { 0 };
	static const uint8_t sig[ARA_WIRE_SIG] = { 0x5a, [63] = 0xa5 };
	struct ara_wire_deliver d;
	size_t len, plain;

	(void)state;
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 0, buf, sizeof(buf), &plain),
			 ARA_WIRE_OK);
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 1, buf, sizeof(buf), &len),
			 ARA_WIRE_OK);
	assert_int_equal(len, plain + ARA_WIRE_SIG);
	assert_int_equal(buf[7], ARA_WIRE_F_SIGNED);
	ara_wire_set_sig(buf, len, sig);
	assert_int_equal(ara_wire_decode_deliver(buf, len, &d), ARA_WIRE_OK);
	assert_non_null(d.sig);
	assert_memory_equal(d.sig, sig, ARA_WIRE_SIG);
	assert_int_equal(d.signed_len, len - ARA_WIRE_SIG);
	assert_int_equal(d.ct_len, sizeof(ct));
	/* The body's length says there is no signature: the flag wants one. */
	buf[11] = (uint8_t)(buf[11] - ARA_WIRE_SIG);
	assert_int_equal(ara_wire_decode_deliver(buf, len - ARA_WIRE_SIG, &d), ARA_WIRE_E_SHORT);
	buf[11] = (uint8_t)(buf[11] + ARA_WIRE_SIG);
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 1, buf, len - 1, &len),
			 ARA_WIRE_E_SPACE);
	/* Any other flag on a DELIVER; the signed flag on a CHALLENGE. */
	assert_int_equal(ara_wire_encode_deliver(enc, ct, sizeof(ct), 1, buf, sizeof(buf), &len),
			 ARA_WIRE_OK);
	buf[7] = 0x02;
	assert_int_equal(ara_wire_decode_deliver(buf, len, &d), ARA_WIRE_E_FIELD);
	buf[6] = 0x80;
	buf[7] = ARA_WIRE_F_SIGNED;
	assert_int_equal(ara_wire_decode_deliver(buf, len, &d), ARA_WIRE_E_FIELD);
	assert_int_equal(ara_wire_encode_challenge(nonce, buf, sizeof(buf), &len), ARA_WIRE_OK);
	buf[7] = ARA_WIRE_F_SIGNED;
	assert_int_equal(ara_wire_decode_challenge(buf, len, &(const uint8_t *){ NULL }),
			 ARA_WIRE_E_FIELD);
}

static void refuse(void **state)
{
	struct ara_wire_refuse f;
	size_t len;

	(void)state;
	assert_int_equal(ara_wire_encode_refuse(ARA_REFUSE_STALE, "too old\n", buf, sizeof(buf), &len),
			 ARA_WIRE_OK);
	assert_int_equal(ara_wire_decode_refuse(buf, len, &f), ARA_WIRE_OK);
	assert_int_equal(f.code, ARA_REFUSE_STALE);
	/* The newline was sent as '?': the decoder takes printable ASCII only. */
	assert_memory_equal(f.text, "too old?", 8);
	buf[len - 1] = '\033';
	assert_int_equal(ara_wire_decode_refuse(buf, len, &f), ARA_WIRE_E_FIELD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(attest_round_trip), cmocka_unit_test(attest_lengths),
		cmocka_unit_test(header_checks),     cmocka_unit_test(attest_fields),
		cmocka_unit_test(names),	     cmocka_unit_test(challenge_and_deliver),
		cmocka_unit_test(signed_deliver),    cmocka_unit_test(refuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
