/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the IMA binary log parser and replay (ima_log.c): logs
 * built by ima_builder.c, whose replay is computed independently; one
 * entry spelled out byte by byte against the kernel's rule; violations;
 * and malformed logs, each refused with its reason, read from exact heap
 * copies so that ASan sees any read past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mbedtls/sha256.h>

#include "ima_builder.h"
#include "ima_log.h"

static struct ima_builder b;

static int setup(void **state)
{
	(void)state;
	return imab_init(&b);
}

static int teardown(void **state)
{
	(void)state;
	imab_free(&b);
	return 0;
}

static void digest_of(const char *s, uint8_t out[32])
{
	mbedtls_sha256((const unsigned char *)s, strlen(s), out, 0);
}

/* boot_aggregate (sha256), three files, a violation, a PCR 11 entry. */
static void build_sample(void)
{
	static const char *files[] = { "/usr/lib/ara/ara-loader", "/etc/ara/manifest",
				       "/usr/bin/app" };
	uint8_t d[32];
	size_t i;

	imab_free(&b);
	assert_int_equal(imab_init(&b), 0);
	digest_of("boot", d);
	assert_int_equal(imab_add(&b, 10, "sha256", d, 32, "boot_aggregate", false, NULL), 0);
	for (i = 0; i < 3; i++) {
		digest_of(files[i], d);
		assert_int_equal(imab_add(&b, 10, "sha256", d, 32, files[i], false, NULL), 0);
	}
	memset(d, 0, sizeof(d));
	assert_int_equal(imab_add(&b, 10, "sha256", d, 32, "/tmp/tomtou", true, NULL), 0);
	digest_of("pcr11", d);
	assert_int_equal(imab_add(&b, 11, "sha256", d, 32, "/other", false, NULL), 0);
}

/* ara_ima_replay on an exact heap copy of the first len bytes of p. */
static int replay_copy(const uint8_t *p, size_t len, uint32_t pcr, struct ara_ima_pcr *out,
		       char *why, size_t cap)
{
	uint8_t *copy = malloc(len ? len : 1);
	int r;

	assert_non_null(copy);
	memcpy(copy, p, len);
	r = ara_ima_replay(copy, len, pcr, out, why, cap);
	free(copy);
	return r;
}

static void expect_refused(const uint8_t *p, size_t len, const char *reason)
{
	struct ara_ima_pcr pcr;
	char why[160] = "";

	assert_int_equal(replay_copy(p, len, 10, &pcr, why, sizeof(why)), -1);
	if (!strstr(why, reason))
		fail_msg("refused with \"%s\", expected \"%s\"", why, reason);
}

static void test_replay_matches_independent_chain(void **state)
{
	struct ara_ima_pcr pcr;
	char why[160] = "";

	(void)state;
	build_sample();
	assert_int_equal(replay_copy(b.buf, b.len, 10, &pcr, why, sizeof(why)), 0);
	assert_memory_equal(pcr.value, b.pcr[10], 32);
	assert_int_equal(pcr.extends, 5);
	assert_int_equal(replay_copy(b.buf, b.len, 11, &pcr, why, sizeof(why)), 0);
	assert_memory_equal(pcr.value, b.pcr[11], 32);
	assert_int_equal(pcr.extends, 1);
	/* A PCR no entry names stays at its reset value. */
	assert_int_equal(replay_copy(b.buf, b.len, 12, &pcr, why, sizeof(why)), 0);
	assert_int_equal(pcr.extends, 0);
	assert_memory_equal(pcr.value, b.pcr[12], 32);
}

/* One entry written out by hand: the kernel hashes each field's u32
 * length and bytes, so the extend is SHA-256 of exactly these bytes. */
static void test_hand_written_entry(void **state)
{
	static const uint8_t head[] = { 10, 0, 0, 0 };
	uint8_t tdigest[20], log[512], data[128], ext[32], chain[64], want[32];
	struct ara_ima_iter it;
	struct ara_ima_entry e;
	struct ara_ima_pcr pcr;
	size_t n = 0, dn = 0;
	char why[160];

	(void)state;
	memset(tdigest, 0x5a, sizeof(tdigest));
	/* d-ng: 4 + "sha256:" NUL + 32 */
	memcpy(data + dn, "\x28\x00\x00\x00sha256:\0", 12);
	dn += 12;
	memset(data + dn, 0xab, 32);
	dn += 32;
	memcpy(data + dn, "\x0f\x00\x00\x00" "boot_aggregate\0", 19);
	dn += 19;
	assert_int_equal(dn, 63);

	memcpy(log + n, head, 4);
	n += 4;
	memcpy(log + n, tdigest, 20);
	n += 20;
	memcpy(log + n, "\x06\x00\x00\x00ima-ng", 10);
	n += 10;
	memcpy(log + n, "\x3f\x00\x00\x00", 4);
	n += 4;
	memcpy(log + n, data, dn);
	n += dn;

	mbedtls_sha256(data, dn, ext, 0);
	memset(chain, 0, 32);
	memcpy(chain + 32, ext, 32);
	mbedtls_sha256(chain, 64, want, 0);

	assert_int_equal(replay_copy(log, n, 10, &pcr, why, sizeof(why)), 0);
	assert_memory_equal(pcr.value, want, 32);
	assert_int_equal(pcr.extends, 1);

	ara_ima_iter_init(&it, log, n);
	assert_int_equal(ara_ima_next(&it, &e), 1);
	assert_int_equal(e.index, 0);
	assert_int_equal(e.pcr, 10);
	assert_false(e.violation);
	assert_ptr_equal(e.template_digest, log + 4);
	assert_ptr_equal(e.data, log + 38);
	assert_int_equal(e.data_len, 63);
	assert_string_equal(e.algo, "sha256");
	assert_int_equal(e.digest_len, 32);
	assert_ptr_equal(e.digest, log + 38 + 12);
	assert_int_equal(e.name_len, 14);
	assert_string_equal(e.name, "boot_aggregate");
	assert_int_equal(ara_ima_next(&it, &e), 0);
	assert_int_equal(ara_ima_next(&it, &e), 0); /* and stays at the end */
}

static void test_violation_extends_ff(void **state)
{
	uint8_t d[32], ext[32], ff[32], chain[64], want[32];
	struct ara_ima_iter it;
	struct ara_ima_entry e;
	struct ara_ima_pcr pcr;
	char why[160];

	(void)state;
	imab_free(&b);
	assert_int_equal(imab_init(&b), 0);
	digest_of("boot", d);
	assert_int_equal(imab_add(&b, 10, "sha256", d, 32, "boot_aggregate", false, ext), 0);
	memcpy(chain + 32, ext, 32);
	memset(chain, 0, 32);
	mbedtls_sha256(chain, 64, want, 0);
	/* The violation's template data claims a digest: it is not what is
	 * extended, and must not be. */
	digest_of("claimed", d);
	assert_int_equal(imab_add(&b, 10, "sha256", d, 32, "/var/log/open-for-write", true, ext),
			 0);
	memset(ff, 0xff, sizeof(ff));
	assert_memory_equal(ext, ff, 32);
	memcpy(chain, want, 32);
	memcpy(chain + 32, ff, 32);
	mbedtls_sha256(chain, 64, want, 0);

	assert_int_equal(replay_copy(b.buf, b.len, 10, &pcr, why, sizeof(why)), 0);
	assert_memory_equal(pcr.value, want, 32);
	assert_memory_equal(pcr.value, b.pcr[10], 32);

	ara_ima_iter_init(&it, b.buf, b.len);
	assert_int_equal(ara_ima_next(&it, &e), 1);
	assert_false(e.violation);
	assert_int_equal(ara_ima_next(&it, &e), 1);
	assert_true(e.violation);
	assert_int_equal(ara_ima_extend_value(&e, ext), 0);
	assert_memory_equal(ext, ff, 32);
}

/* boot_aggregate takes the TPM's bank: SHA-1 on some TPMs. */
static void test_sha1_boot_aggregate(void **state)
{
	uint8_t d[32] = { 0 };
	struct ara_ima_pcr pcr;
	char why[160];

	(void)state;
	imab_free(&b);
	assert_int_equal(imab_init(&b), 0);
	assert_int_equal(imab_add(&b, 10, "sha1", d, 20, "boot_aggregate", false, NULL), 0);
	assert_int_equal(imab_add(&b, 10, "sha512", (uint8_t[64]){ 1 }, 64, "/x", false, NULL),
			 0);
	assert_int_equal(replay_copy(b.buf, b.len, 10, &pcr, why, sizeof(why)), 0);
	assert_memory_equal(pcr.value, b.pcr[10], 32);
	assert_int_equal(pcr.extends, 2);
}

/* Every proper prefix of a log is refused unless it ends on an entry. */
static void test_truncation_at_every_byte(void **state)
{
	struct ara_ima_pcr pcr;
	uint32_t whole = 0;
	size_t len, k;
	char why[160];

	(void)state;
	build_sample();
	for (len = 0; len < b.len; len++) {
		for (k = 0; k < b.entries && b.ends[k] != len; k++)
			;
		why[0] = '\0';
		if (k < b.entries) {
			assert_int_equal(replay_copy(b.buf, len, 10, &pcr, why, sizeof(why)), 0);
			whole++;
		} else {
			if (replay_copy(b.buf, len, 10, &pcr, why, sizeof(why)) != -1)
				fail_msg("a log cut at %zu of %zu bytes was accepted", len, b.len);
			assert_true(why[0] != '\0');
		}
	}
	assert_int_equal(whole, b.entries - 1);
	expect_refused(b.buf, 0, "the log is empty");
	expect_refused(b.buf, 3, "truncated in the PCR index");
	expect_refused(b.buf, 10, "truncated in the template digest");
	expect_refused(b.buf, 26, "truncated in the template name length");
	expect_refused(b.buf, 30, "truncated in the template name");
	expect_refused(b.buf, 36, "truncated in the template data length");
	expect_refused(b.buf, 40, "truncated in the template data");
}

/* A log of one entry whose fields the test then corrupts. */
struct one {
	uint8_t log[256];
	size_t len;
	size_t name_len_at, data_len_at, dng_len_at, dng_at, nng_len_at, nng_at;
};

static void one_entry(struct one *o, const char *name)
{
	uint8_t d[32];

	imab_free(&b);
	assert_int_equal(imab_init(&b), 0);
	digest_of("boot", d);
	assert_int_equal(imab_add(&b, 10, "sha256", d, 32, name, false, NULL), 0);
	assert_true(b.len <= sizeof(o->log));
	memcpy(o->log, b.buf, b.len);
	o->len = b.len;
	o->name_len_at = 24;
	o->data_len_at = 34;
	o->dng_len_at = 38;
	o->dng_at = 42;
	o->nng_len_at = 42 + 40;
	o->nng_at = 42 + 44;
}

static void test_oversize_lengths(void **state)
{
	struct one o;

	(void)state;
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.name_len_at, 0xffffffffu);
	expect_refused(o.log, o.len, "template name length 4294967295 exceeds");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.name_len_at, 200); /* within the bound, past the end */
	expect_refused(o.log, o.len, "truncated in the template name");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.data_len_at, 0x80000000u);
	expect_refused(o.log, o.len, "template data length 2147483648 exceeds");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.data_len_at, 4000);
	expect_refused(o.log, o.len, "truncated in the template data");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.dng_len_at, 0xfffffff0u);
	expect_refused(o.log, o.len, "d-ng length 4294967280 exceeds");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.dng_len_at, 60); /* fits the bound, overruns the data */
	expect_refused(o.log, o.len, "d-ng length 60 overruns");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.nng_len_at, 0x7fffffffu);
	expect_refused(o.log, o.len, "n-ng length 2147483647 exceeds");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.nng_len_at, 14); /* one short: a byte left over */
	expect_refused(o.log, o.len, "n-ng length 14 does not end the template data");
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log, 24);
	expect_refused(o.log, o.len, "PCR index 24 is not below 24");
}

static void test_bad_template_name(void **state)
{
	static const char *names[] = { "ima-sg", "ima-n\0", "IMA-NG", "imang!" };
	struct one o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		one_entry(&o, "boot_aggregate");
		memcpy(o.log + 28, names[i], 6);
		expect_refused(o.log, o.len, "template is not ima-ng");
	}
	/* The original "ima" template: its layout differs, and it is refused. */
	one_entry(&o, "boot_aggregate");
	imab_u32(o.log + o.name_len_at, 3);
	memcpy(o.log + 28, "ima", 3);
	expect_refused(o.log, o.len, "template is not ima-ng");
}

static void test_bad_fields(void **state)
{
	struct one o;

	(void)state;
	one_entry(&o, "boot_aggregate");
	o.log[o.len - 1] = 'x'; /* n-ng's NUL */
	expect_refused(o.log, o.len, "not NUL-terminated");
	one_entry(&o, "boot_aggregate");
	o.log[o.nng_at + 4] = '\0';
	expect_refused(o.log, o.len, "has a NUL inside");
	one_entry(&o, "boot_aggregate");
	o.log[o.dng_at + 6] = '\0'; /* "sha256" without its colon... */
	o.log[o.dng_at + 7] = '\0';
	expect_refused(o.log, o.len, "no algorithm prefix");
	one_entry(&o, "boot_aggregate");
	o.log[o.dng_at + 7] = 'x'; /* the NUL after the colon */
	expect_refused(o.log, o.len, "not followed by NUL");
	one_entry(&o, "boot_aggregate");
	memcpy(o.log + o.dng_at, "md5xyz", 6);
	expect_refused(o.log, o.len, "d-ng algorithm is not one of");
	one_entry(&o, "boot_aggregate");
	memcpy(o.log + o.dng_at, "sha512", 6); /* 32 bytes where 64 are due */
	expect_refused(o.log, o.len, "d-ng digest is 32 bytes, sha512 needs 64");
	one_entry(&o, "/etc/passwd");
	expect_refused(o.log, o.len, "the first entry is not boot_aggregate");
	one_entry(&o, "boot_aggregat");
	expect_refused(o.log, o.len, "the first entry is not boot_aggregate");
}

static void test_entry_limit(void **state)
{
	uint8_t d[32] = { 0 };
	struct ara_ima_pcr pcr;
	uint32_t i;
	char why[160];

	(void)state;
	imab_free(&b);
	assert_int_equal(imab_init(&b), 0);
	assert_int_equal(imab_add(&b, 10, "sha1", d, 20, "boot_aggregate", false, NULL), 0);
	for (i = 1; i < ARA_IMA_ENTRIES_MAX; i++)
		assert_int_equal(imab_add(&b, 10, "sha1", d, 20, "/f", false, NULL), 0);
	assert_int_equal(replay_copy(b.buf, b.len, 10, &pcr, why, sizeof(why)), 0);
	assert_int_equal(pcr.extends, ARA_IMA_ENTRIES_MAX);
	assert_memory_equal(pcr.value, b.pcr[10], 32);
	assert_int_equal(imab_add(&b, 10, "sha1", d, 20, "/g", false, NULL), 0);
	expect_refused(b.buf, b.len, "more than 8192 entries");
}

/* After a malformed entry, the iterator keeps refusing. */
static void test_failure_sticks(void **state)
{
	struct ara_ima_iter it;
	struct ara_ima_entry e;

	(void)state;
	build_sample();
	b.buf[b.ends[0] + 30] ^= 0x20; /* the second entry's template name */
	ara_ima_iter_init(&it, b.buf, b.len);
	assert_int_equal(ara_ima_next(&it, &e), 1);
	assert_int_equal(ara_ima_next(&it, &e), -1);
	assert_non_null(strstr(it.why, "entry 1 at offset"));
	assert_int_equal(ara_ima_next(&it, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_matches_independent_chain),
		cmocka_unit_test(test_hand_written_entry),
		cmocka_unit_test(test_violation_extends_ff),
		cmocka_unit_test(test_sha1_boot_aggregate),
		cmocka_unit_test(test_truncation_at_every_byte),
		cmocka_unit_test(test_oversize_lengths),
		cmocka_unit_test(test_bad_template_name),
		cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_entry_limit),
		cmocka_unit_test(test_failure_sticks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
