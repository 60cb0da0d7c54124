/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TEST DOUBLE of DOM0's RTM document writer, for the verifier's unit
 * tests and fuzz targets only: it encodes a struct ara_rtm_doc in the
 * layout of services/rtm/rtm_format.h, written from that header alone, and
 * signs it with a fixed test key (never an instance's).
 */
#ifndef ARA_TEST_RTM_DOC_DOUBLE_H
#define ARA_TEST_RTM_DOC_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#include "report_decode.h"

/*
 * Encodes every field of d (the signature too) into out: 0 and *len, or -1
 * if it does not fit in cap. Counts are written as d has them, consistent
 * or not.
 */
int doc_double_encode(const struct ara_rtm_doc *d, uint8_t *out, size_t cap, size_t *len);

/* The test signer's key pair (fixed, derived from a constant). */
void doc_double_key(uint8_t sk[32], uint8_t pub[ARA_RTM_PUB_BYTES]);

/* Replaces the last 64 bytes of doc[0, len) with the test signer's signature of the rest. */
void doc_double_sign(uint8_t *doc, size_t len);

#endif
