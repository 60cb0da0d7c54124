/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for every decoder of the provisioning wire format
 * (services/provision/wire.c): the provisioner's (ATTEST, REPORT), DOM0's
 * (CHALLENGE, DELIVER, REFUSE) and the App client's (the header,
 * VERDICT). For any
 * bytes: no read outside them (ASan: an exact heap copy), and whatever
 * decodes re-encodes to exactly the same bytes, so no two encodings of
 * one message exist.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "wire.h"

static uint8_t out[ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *m = malloc(size ? size : 1), type;
	const uint8_t *nonce;
	struct ara_wire_attest a;
	struct ara_wire_deliver d;
	struct ara_wire_refuse f;
	struct ara_wire_report r;
	struct ara_wire_verdict_msg v;
	size_t len, total;

	FUZZ_CHECK(m);
	memcpy(m, data, size);
	if (ara_wire_peek(m, size, &type, &total) == ARA_WIRE_OK)
		FUZZ_CHECK(total >= ARA_WIRE_HEADER &&
			   total <= ARA_WIRE_HEADER + (type == ARA_WIRE_REPORT ? ARA_WIRE_REPORT_BODY_MAX :
										ARA_WIRE_BODY_MAX));
	if (ara_wire_decode_challenge(m, size, &nonce) == ARA_WIRE_OK) {
		FUZZ_CHECK(ara_wire_encode_challenge(nonce, out, sizeof(out), &len) == ARA_WIRE_OK);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
	}
	if (ara_wire_decode_attest(m, size, &a) == ARA_WIRE_OK) {
		FUZZ_CHECK(a.signed_len + ARA_WIRE_SIG == size);
		FUZZ_CHECK(ara_wire_encode_attest(&a, out, sizeof(out), &len) == ARA_WIRE_OK);
		ara_wire_set_sig(out, len, a.sig);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
	}
	if (ara_wire_decode_deliver(m, size, &d) == ARA_WIRE_OK) {
		FUZZ_CHECK(ara_wire_encode_deliver(d.enc, d.ct, d.ct_len, d.sig != NULL, out,
						   sizeof(out), &len) == ARA_WIRE_OK);
		FUZZ_CHECK(d.signed_len + (d.sig ? ARA_WIRE_SIG : 0) == size);
		if (d.sig)
			ara_wire_set_sig(out, len, d.sig);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
	}
	if (ara_wire_decode_refuse(m, size, &f) == ARA_WIRE_OK) {
		char text[ARA_WIRE_TEXT_MAX + 1];

		memcpy(text, f.text, f.text_len);
		text[f.text_len] = '\0';
		FUZZ_CHECK(ara_wire_encode_refuse(f.code, text, out, sizeof(out), &len) == ARA_WIRE_OK);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
	}
	if (ara_wire_decode_report(m, size, &r) == ARA_WIRE_OK) {
		uint8_t *again = malloc(size);

		FUZZ_CHECK(again && ara_wire_encode_report(&r, again, size, &len) == ARA_WIRE_OK);
		FUZZ_CHECK(len == size && memcmp(again, m, size) == 0);
		free(again);
	}
	if (ara_wire_decode_verdict(m, size, &v) == ARA_WIRE_OK) {
		char text[ARA_WIRE_TEXT_MAX + 1], token[ARA_WIRE_TOKEN_MAX + 1];

		memcpy(text, v.text, v.text_len);
		text[v.text_len] = '\0';
		memcpy(token, v.token, v.token_len);
		token[v.token_len] = '\0';
		FUZZ_CHECK(ara_wire_encode_verdict(v.verdict, text, token, out, sizeof(out), &len) ==
			   ARA_WIRE_OK);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
	}
	free(m);
	return 0;
}
