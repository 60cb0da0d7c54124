/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify's document decoder (services/rtm/verify/report_decode.c):
 * documents from the TEST DOUBLE writer (doc_double.c) decode to what was
 * written, and every malformation the format forbids is refused with its
 * own error; the signature covers every byte before it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "doc_double.h"
#include "hpke.h"

static uint8_t buf[ARA_RTM_REPORT_MAX + 64];
static size_t len;
static uint8_t pub[ARA_RTM_PUB_BYTES];
static const uint8_t nonce[32] = { 1, 2, 3 }, run_id[32] = { 4, 5 }, chain[32] = { 6 },
		     app[32] = { 7 }, zero_sig[64];
static uint64_t pending[3];

/* A report with two modules (paths of 3 and 8 bytes: padded and not) and 3 pending entries. */
static struct ara_rtm_doc good(void)
{
	uint8_t sk[32];
	struct ara_rtm_doc d = { .kind = ARA_RTM_DOC_REPORT, .module_count = 2, .pending_count = 3,
				 .sequence = 5, .sealed = 2, .nonce = nonce, .run_id = run_id,
				 .chain = chain, .app_sha256 = app, .sig = zero_sig };

	doc_double_key(sk, pub);
	d.instance_pub = pub;
	d.entries = 2 * ARA_RTM_SEGMENT_ENTRIES + 3;
	for (int i = 0; i < 3; i++)
		pending[i] = ara_rtm_entry(ARA_RTM_RET, 0x401000 + 4 * i);
	d.pending = (const uint8_t *)pending; /* the host is little-endian, as the format */
	d.modules[0] = (struct ara_rtm_module){ .start = 0x400000, .end = 0x402000, .offset = 0,
						.path = (const uint8_t *)"/ap", .path_len = 3 };
	d.modules[1] = (struct ara_rtm_module){ .start = 0x7f0000, .end = 0x7f8000,
						.offset = 0x1000,
						.path = (const uint8_t *)"/lib/c.s", .path_len = 8 };
	return d;
}

static void build(const struct ara_rtm_doc *d)
{
	assert_int_equal(doc_double_encode(d, buf, sizeof(buf), &len), 0);
	doc_double_sign(buf, len);
}

static enum ara_rtm_doc_err decode(void)
{
	struct ara_rtm_doc d;

	return ara_rtm_doc_decode(buf, len, &d);
}

static void test_good_report_decodes(void **state)
{
	struct ara_rtm_doc w = good(), d;
	size_t n;

	(void)state;
	build(&w);
	assert_int_equal(len, 256 + (32 + 8) + (32 + 8) + 3 * 8 + 64);
	assert_int_equal(ara_rtm_doc_decode(buf, len, &d), ARA_RTM_DOC_OK);
	assert_int_equal(ara_rtm_doc_length(buf, len + 40, &n), ARA_RTM_DOC_OK);
	assert_int_equal(n, len);
	assert_int_equal(d.kind, ARA_RTM_DOC_REPORT);
	assert_int_equal(d.sequence, 5);
	assert_int_equal(d.sealed, 2);
	assert_int_equal(d.module_count, 2);
	assert_int_equal(d.modules[1].start, 0x7f0000);
	assert_int_equal(d.modules[1].offset, 0x1000);
	assert_memory_equal(d.modules[1].path, "/lib/c.s", 8);
	assert_int_equal(d.pending_count, 3);
	assert_int_equal(ara_rtm_doc_pending(&d, 2), ara_rtm_entry(ARA_RTM_RET, 0x401008));
	assert_memory_equal(d.nonce, nonce, 32);
	assert_memory_equal(d.app_sha256, app, 32);
	assert_int_equal(ara_rtm_doc_signed_by(buf, &d, pub), 0);
}

/* Every byte before the signature, and the signature's, is covered. */
static void test_every_flipped_byte_fails(void **state)
{
	struct ara_rtm_doc w = good(), d;

	(void)state;
	build(&w);
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= 0x01;
		if (ara_rtm_doc_decode(buf, len, &d) == ARA_RTM_DOC_OK)
			assert_int_not_equal(ara_rtm_doc_signed_by(buf, &d, pub), 0);
		buf[i] ^= 0x01;
	}
	assert_int_equal(ara_rtm_doc_decode(buf, len, &d), ARA_RTM_DOC_OK);
	assert_int_equal(ara_rtm_doc_signed_by(buf, &d, pub), 0);
}

static void test_other_key_fails(void **state)
{
	struct ara_rtm_doc w = good(), d;
	uint8_t other[ARA_RTM_PUB_BYTES], ikm[32], sk[32];

	(void)state;
	memset(ikm, 0x33, sizeof(ikm));
	assert_int_equal(ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, other), 0);
	build(&w);
	assert_int_equal(ara_rtm_doc_decode(buf, len, &d), ARA_RTM_DOC_OK);
	assert_int_not_equal(ara_rtm_doc_signed_by(buf, &d, other), 0);
	/* Naming the other key is not enough: the test signer's signature is not its. */
	w.instance_pub = other;
	build(&w);
	assert_int_equal(ara_rtm_doc_decode(buf, len, &d), ARA_RTM_DOC_OK);
	assert_int_not_equal(ara_rtm_doc_signed_by(buf, &d, other), 0);
}

static void test_every_truncation_and_extension_fails(void **state)
{
	struct ara_rtm_doc w = good(), d;
	size_t full;

	(void)state;
	build(&w);
	full = len;
	for (len = 0; len < full; len++)
		assert_int_not_equal(ara_rtm_doc_decode(buf, len, &d), ARA_RTM_DOC_OK);
	buf[full] = 0;
	len = full + 1;
	assert_int_equal(decode(), ARA_RTM_DOC_E_LENGTH);
	len = full - 1;
	assert_int_equal(decode(), ARA_RTM_DOC_E_SHORT);
}

static void test_header_faults(void **state)
{
	struct ara_rtm_doc w;

	(void)state;
	w = good();
	build(&w);
	buf[0] = 'X';
	assert_int_equal(decode(), ARA_RTM_DOC_E_MAGIC);
	for (uint32_t kind = 0; kind < 4; kind += 3) {
		w = good();
		w.kind = kind;
		build(&w);
		assert_int_equal(decode(), ARA_RTM_DOC_E_KIND);
	}
	for (unsigned int off = 250; off < 252; off++) {
		w = good();
		build(&w);
		buf[off] = 1;
		assert_int_equal(decode(), ARA_RTM_DOC_E_RESERVED);
	}
	/* The flags byte: no unknown flag; a checkpoint is never final. */
	w = good();
	w.flags = 0x80;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_RESERVED);
	w = good();
	w.kind = ARA_RTM_DOC_CHECKPOINT;
	w.pending_count = 0;
	w.entries = w.sealed * ARA_RTM_SEGMENT_ENTRIES;
	w.flags = ARA_RTM_DOC_FINAL;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_KIND);
	w = good();
	w.sequence = 0;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_COUNTS);
	w = good();
	w.entries++;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_COUNTS);
	w = good();
	w.sealed = UINT64_MAX / 4;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_COUNTS);
	w = good();
	w.kind = ARA_RTM_DOC_CHECKPOINT; /* with pending entries */
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_PENDING);
	w = good();
	build(&w);
	buf[ARA_RTM_OFF_PENDING + 2] = 0x02; /* 0x20003 > ARA_RTM_SEGMENT_ENTRIES */
	assert_int_equal(decode(), ARA_RTM_DOC_E_PENDING);
	w = good();
	build(&w);
	buf[ARA_RTM_OFF_MODULES] = ARA_RTM_MODULES_MAX + 1;
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULES);
}

static void test_module_faults(void **state)
{
	struct ara_rtm_doc w;
	const size_t m1 = 256 + 32 + 8; /* the second record */

	(void)state;
	w = good();
	w.modules[0].path_len = 0;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULE);
	w = good();
	build(&w);
	buf[m1 + 24] = 0x01;
	buf[m1 + 25] = 0x01; /* 257 */
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULE);
	w = good();
	build(&w);
	buf[256 + 28] = 1; /* the record's zero word */
	assert_int_equal(decode(), ARA_RTM_DOC_E_RESERVED);
	w = good();
	build(&w);
	buf[256 + 32 + 3] = 1; /* padding after "/ap" */
	assert_int_equal(decode(), ARA_RTM_DOC_E_RESERVED);
	w = good();
	w.modules[1].path = (const uint8_t *)"/lib\0c.s";
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULE);
	w = good();
	w.modules[1].end = w.modules[1].start;
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULE);
	w = good();
	w.modules[1].start = 0x401000; /* inside the first */
	build(&w);
	assert_int_equal(decode(), ARA_RTM_DOC_E_MODULE);
	/* The largest path decodes. */
	{
		uint8_t path[ARA_RTM_MODULE_PATH_MAX];

		memset(path, 'p', sizeof(path));
		w = good();
		w.modules[1].path = path;
		w.modules[1].path_len = sizeof(path);
		build(&w);
		assert_int_equal(decode(), ARA_RTM_DOC_OK);
	}
}

/* Concatenated checkpoints split at the lengths their fields give. */
static void test_length_splits_concatenation(void **state)
{
	struct ara_rtm_doc w = good(), d;
	size_t first, n;

	(void)state;
	w.kind = ARA_RTM_DOC_CHECKPOINT;
	w.pending_count = 0;
	w.entries = 2 * ARA_RTM_SEGMENT_ENTRIES;
	build(&w);
	first = len;
	w.module_count = 1;
	assert_int_equal(doc_double_encode(&w, buf + first, sizeof(buf) - first, &len), 0);
	doc_double_sign(buf + first, len);
	assert_int_equal(ara_rtm_doc_length(buf, first + len, &n), ARA_RTM_DOC_OK);
	assert_int_equal(n, first);
	assert_int_equal(ara_rtm_doc_decode(buf, n, &d), ARA_RTM_DOC_OK);
	assert_int_equal(ara_rtm_doc_length(buf + first, len, &n), ARA_RTM_DOC_OK);
	assert_int_equal(n, len);
	assert_int_equal(ara_rtm_doc_decode(buf + first, n, &d), ARA_RTM_DOC_OK);
	assert_int_equal(d.module_count, 1);
	assert_int_equal(ara_rtm_doc_length(buf + first, len - 1, &n), ARA_RTM_DOC_E_SHORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_report_decodes),
		cmocka_unit_test(test_every_flipped_byte_fails),
		cmocka_unit_test(test_other_key_fails),
		cmocka_unit_test(test_every_truncation_and_extension_fails),
		cmocka_unit_test(test_header_faults),
		cmocka_unit_test(test_module_faults),
		cmocka_unit_test(test_length_splits_concatenation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
