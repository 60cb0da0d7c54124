/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for ara-verify's document decoder (services/rtm/verify/
 * report_decode.c). For any bytes: no read outside them (ASan: an exact
 * heap copy); whatever decodes has the length ara_rtm_doc_length() says
 * and re-encodes (with the test double writer, doc_double.c) to exactly the
 * same bytes, so no two encodings of one document exist; and a decoded
 * document never verifies under another key than the one it names. (The
 * signature over every byte is unit-tested: an ECDSA signing per input
 * would leave the smoke run few inputs.)
 */
#include <stdlib.h>
#include <string.h>

#include "doc_double.h"
#include "fuzz_check.h"

static uint8_t out[ARA_RTM_REPORT_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *m = malloc(size ? size : 1), other[ARA_RTM_PUB_BYTES];
	struct ara_rtm_doc d;
	size_t len;

	FUZZ_CHECK(m);
	memcpy(m, data, size);
	if (ara_rtm_doc_decode(m, size, &d) == ARA_RTM_DOC_OK) {
		FUZZ_CHECK(ara_rtm_doc_length(m, size, &len) == ARA_RTM_DOC_OK && len == size);
		FUZZ_CHECK(d.signed_len + ARA_RTM_SIG_BYTES == size);
		FUZZ_CHECK(d.entries == d.sealed * ARA_RTM_SEGMENT_ENTRIES + d.pending_count);
		FUZZ_CHECK(doc_double_encode(&d, out, sizeof(out), &len) == 0);
		FUZZ_CHECK(len == size && memcmp(out, m, size) == 0);
		memcpy(other, d.instance_pub, sizeof(other));
		other[64] ^= 1;
		FUZZ_CHECK(ara_rtm_doc_signed_by(m, &d, other) != 0);
	}
	free(m);
	return 0;
}
