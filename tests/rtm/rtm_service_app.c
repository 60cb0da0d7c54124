/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's DOM0 log service under ara-loader, without instrumentation: the
 * App logs entries it chooses and checks, independently of ara-verify, what
 * DOM0 gives back: reports signed by the instance key over the nonce, the
 * counts, the pending entries, the segments and the chain over them,
 * checkpoints in batch mode, and that the log itself cannot be written.
 *
 * Usage: rtm_service_app MODE (ctest: tests/rtm/CMakeLists.txt). Prints
 * "rtm_service: PASS" or FAIL lines.
 */
#define _GNU_SOURCE
#include <mbedtls/sha256.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/rtm.h"
#include "attack.h"
#include "binding.h"
#include "check.h"
#include "p256.h"
#include "rtm_format.h"


static uint8_t report[ARA_RTM_REPORT_MAX];
static uint64_t segment[ARA_RTM_SEGMENT_ENTRIES];
static uint8_t checkpoint[ARA_RTM_CHECKPOINT_MAX];

/* Through the gate's append, as the hooks log (RTM_LOG where the gate passes it on). */
static int log_entry(unsigned int kind, uint64_t dest)
{
	return ara_rtm_append(ara_rtm_entry(kind, dest));
}

/* The i-th entry this test logs: all three kinds, distinct addresses. */
static uint64_t nth_entry(uint64_t i)
{
	return ara_rtm_entry(1 + i % 3, 0x400000 + 4 * i);
}

static uint64_t u64_at(const uint8_t *d, size_t off)
{
	uint64_t v;

	memcpy(&v, d + off, sizeof(v));
	return v;
}

static uint32_t u32_at(const uint8_t *d, size_t off)
{
	uint32_t v;

	memcpy(&v, d + off, sizeof(v));
	return v;
}

/* Checks a document's framing and signature; returns the offset of its pending entries. */
static size_t check_doc(const char *what, const uint8_t *d, uint32_t len, uint32_t kind,
			const uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	uint8_t digest[32], hash[32];
	size_t at = ARA_RTM_HEADER_BYTES;
	mbedtls_sha256_context c;

	if (len < ARA_RTM_HEADER_BYTES + ARA_RTM_SIG_BYTES) {
		check(0, "%s: %u bytes", what, len);
		return 0;
	}
	check(memcmp(d, ARA_RTM_MAGIC, 8) == 0, "%s: magic", what);
	check(u32_at(d, ARA_RTM_OFF_KIND) == kind, "%s: kind %u", what, u32_at(d, ARA_RTM_OFF_KIND));
	check(memcmp(d + ARA_RTM_OFF_NONCE, nonce, ARA_RTM_NONCE_BYTES) == 0, "%s: nonce", what);
	for (uint32_t m = 0; m < u32_at(d, ARA_RTM_OFF_MODULES) && at + 32 <= len; m++)
		at += 32 + ((u32_at(d, at + 24) + 7u) & ~7u);
	check(at + 8ull * u32_at(d, ARA_RTM_OFF_PENDING) + ARA_RTM_SIG_BYTES == len,
	      "%s: length %u does not match its fields", what, len);
	mbedtls_sha256_init(&c);
	mbedtls_sha256_starts(&c, 0);
	mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_SIGN_LABEL, ARA_RTM_SIGN_LABEL_BYTES);
	mbedtls_sha256_update(&c, d, len - ARA_RTM_SIG_BYTES);
	mbedtls_sha256_finish(&c, digest);
	mbedtls_sha256_free(&c);
	check(ara_provision_module_hash(digest, hash) == 0, "%s: hashing", what);
	check(ara_p256_verify(d + ARA_RTM_OFF_PUB, hash, d + len - ARA_RTM_SIG_BYTES) == 0,
	      "%s: the signature does not verify under the key it names", what);
	return at;
}

static uint32_t get_report_flags(const uint8_t nonce[ARA_RTM_NONCE_BYTES], uint32_t flags)
{
	struct ara_rtm_report_arg a = { .out = (uintptr_t)report, .out_cap = sizeof(report),
					.flags = flags };
	int st;

	memcpy(a.nonce, nonce, sizeof(a.nonce));
	st = secure_call(ARA_FID_RTM_REPORT, &a);
	check(st == ARA_OK, "RTM_REPORT: %s", ara_strerror(st));
	return st == ARA_OK ? a.out_len : 0;
}

static uint32_t get_report(const uint8_t nonce[ARA_RTM_NONCE_BYTES])
{
	return get_report_flags(nonce, 0);
}

/* H_0 of the run, then H over the given segments. */
static void chain_start(const uint8_t *run_id, uint8_t h[32])
{
	mbedtls_sha256_context c;

	mbedtls_sha256_init(&c);
	mbedtls_sha256_starts(&c, 0);
	mbedtls_sha256_update(&c, (const uint8_t *)ARA_RTM_CHAIN_LABEL, ARA_RTM_CHAIN_LABEL_BYTES);
	mbedtls_sha256_update(&c, run_id, 32);
	mbedtls_sha256_finish(&c, h);
	mbedtls_sha256_free(&c);
}

static void chain_add(uint8_t h[32], const uint64_t *seg)
{
	mbedtls_sha256_context c;

	mbedtls_sha256_init(&c);
	mbedtls_sha256_starts(&c, 0);
	mbedtls_sha256_update(&c, h, 32);
	mbedtls_sha256_update(&c, (const uint8_t *)seg, ARA_RTM_SEGMENT_BYTES);
	mbedtls_sha256_finish(&c, h);
	mbedtls_sha256_free(&c);
}

static void fresh_nonce(uint8_t n[ARA_RTM_NONCE_BYTES])
{
	if (getrandom(n, ARA_RTM_NONCE_BYTES, 0) != ARA_RTM_NONCE_BYTES) {
		perror("getrandom");
		exit(2);
	}
}

/* Logs entries [from, to); checks each status; how many said SEGMENT_READY. */
static unsigned int log_range(uint64_t from, uint64_t to, uint64_t *ready_at)
{
	unsigned int ready = 0;

	for (uint64_t i = from; i < to; i++) {
		int st = ara_rtm_append(nth_entry(i));

		if (st == ARA_RTM_SEGMENT_READY) {
			ready++;
			*ready_at = i;
		} else if (st != ARA_OK) {
			check(0, "RTM_LOG of entry %llu: %s", (unsigned long long)i, ara_strerror(st));
			return ready;
		}
	}
	return ready;
}

/* Three entries, two reports: counts, pending entries, sequence, signature, nonce. */
static void mode_report(void)
{
	uint8_t n1[32], n2[32];
	uint32_t len;
	size_t at;

	fresh_nonce(n1);
	fresh_nonce(n2);
	check(log_entry(ARA_RTM_ICALL, 0x1000) == ARA_OK, "log icall");
	check(log_entry(ARA_RTM_RET, 0x2004) == ARA_OK, "log ret");
	check(log_entry(ARA_RTM_IJMP, 0x3008) == ARA_OK, "log ijmp");
	len = get_report(n1);
	at = check_doc("first report", report, len, ARA_RTM_DOC_REPORT, n1);
	if (!at)
		return;
	check(u64_at(report, ARA_RTM_OFF_SEQUENCE) == 1, "first report: sequence");
	check(report[ARA_RTM_OFF_FLAGS] == 0, "first report: flags 0x%x, not 0",
	      report[ARA_RTM_OFF_FLAGS]);
	check(u64_at(report, ARA_RTM_OFF_ENTRIES) == 3, "first report: entries %llu",
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_ENTRIES));
	check(u32_at(report, ARA_RTM_OFF_PENDING) == 3, "first report: pending");
	check(u64_at(report, at) == ara_rtm_entry(ARA_RTM_ICALL, 0x1000) &&
		      u64_at(report, at + 8) == ara_rtm_entry(ARA_RTM_RET, 0x2004) &&
		      u64_at(report, at + 16) == ara_rtm_entry(ARA_RTM_IJMP, 0x3008),
	      "first report: the pending entries are not those logged, in order");
	check(u32_at(report, ARA_RTM_OFF_MODULES) >= 3, "first report: %u code modules",
	      u32_at(report, ARA_RTM_OFF_MODULES));
	{
		struct ara_info_arg info;

		check(secure_call(ARA_FID_INFO, &info) == ARA_OK, "ARA_FID_INFO");
		check(memcmp(report + ARA_RTM_OFF_APP, info.app_sha256, 32) == 0,
		      "first report: app digest is not the measured one");
	}
	check(log_entry(ARA_RTM_RET, 0x5000) == ARA_OK, "log ret");
	len = get_report(n2);
	if (!check_doc("second report", report, len, ARA_RTM_DOC_REPORT, n2))
		return;
	check(u64_at(report, ARA_RTM_OFF_SEQUENCE) == 2, "second report: sequence");
	check(u32_at(report, ARA_RTM_OFF_PENDING) == 4, "second report: pending");
	/* A buffer too small gets an error, not a cut document. */
	{
		struct ara_rtm_report_arg a = { .out = (uintptr_t)report, .out_cap = 300 };

		check(secure_call(ARA_FID_RTM_REPORT, &a) == ARA_E_INVAL, "small buffer accepted");
	}
}

/* Checks that the exported segment holds entries [from, from + a segment). */
static void check_segment(uint64_t from)
{
	for (uint64_t i = 0; i < ARA_RTM_SEGMENT_ENTRIES; i++)
		if (segment[i] != nth_entry(from + i)) {
			check(0, "entry %llu of the segment from %llu differs", (unsigned long long)i,
			      (unsigned long long)from);
			return;
		}
}

/*
 * A segment and a bit: SEGMENT_READY exactly at the first entry after the
 * full segment (which DOM0 seals then), the export, the chain.
 */
static void mode_seal(void)
{
	struct ara_rtm_export_arg e = { .segment = (uintptr_t)segment };
	uint64_t ready_at = 0;
	uint8_t nonce[32], h[32];
	unsigned int ready;
	size_t at;
	uint32_t len;

	fresh_nonce(nonce);
	ready = log_range(0, ARA_RTM_SEGMENT_ENTRIES + 5, &ready_at);
	check(ready == 1 && ready_at == ARA_RTM_SEGMENT_ENTRIES,
	      "SEGMENT_READY %u times, last at entry %llu", ready, (unsigned long long)ready_at);
	check(secure_call(ARA_FID_RTM_EXPORT, &e) == ARA_OK, "export");
	check(e.index == 0 && e.checkpoint_len == 0, "export: index %llu, checkpoint %u",
	      (unsigned long long)e.index, e.checkpoint_len);
	check_segment(0);
	check(secure_call(ARA_FID_RTM_EXPORT, &e) == ARA_E_NOENT, "a second export found a segment");
	len = get_report(nonce);
	if (!(at = check_doc("report", report, len, ARA_RTM_DOC_REPORT, nonce)))
		return;
	chain_start(report + ARA_RTM_OFF_RUN_ID, h);
	chain_add(h, segment);
	check(memcmp(h, report + ARA_RTM_OFF_CHAIN, 32) == 0, "the chain is not H(H_0 || segment)");
	check(u64_at(report, ARA_RTM_OFF_SEALED) == 1 && u64_at(report, ARA_RTM_OFF_DROPPED) == 0,
	      "sealed/dropped");
	check(u32_at(report, ARA_RTM_OFF_PENDING) == 5 &&
		      u64_at(report, at) == nth_entry(ARA_RTM_SEGMENT_ENTRIES),
	      "the pending entries are not the ones after the segment");
}

/*
 * Two segments full, the first one sealed and not exported: DOM0 drops
 * nothing; it refuses the next entry (LOG_FULL) until the App exports, then
 * takes it. Nothing is lost, and the report says nothing was dropped.
 */
static void mode_full(void)
{
	const uint64_t two = 2 * ARA_RTM_SEGMENT_ENTRIES;
	struct ara_rtm_export_arg e = { .segment = (uintptr_t)segment };
	uint64_t ready_at = 0;
	uint8_t nonce[32];
	size_t at;

	fresh_nonce(nonce);
	check(log_range(0, two, &ready_at) == 1, "one seal");
	check(secure_call(ARA_FID_RTM_LOG, (void *)(uintptr_t)nth_entry(two)) == ARA_RTM_LOG_FULL,
	      "an entry taken while both segments are full");
	check(ara_rtm_append(nth_entry(two)) == ARA_RTM_LOG_FULL,
	      "an entry taken while both segments are full, at the second try (the gate's append)");
	if (!(at = check_doc("report", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce)))
		return;
	check(u64_at(report, ARA_RTM_OFF_DROPPED) == 0 && u64_at(report, ARA_RTM_OFF_SEALED) == 1 &&
		      u32_at(report, ARA_RTM_OFF_PENDING) == ARA_RTM_SEGMENT_ENTRIES &&
		      u64_at(report, ARA_RTM_OFF_ENTRIES) == two &&
		      u64_at(report, ARA_RTM_OFF_REFUSED) == 0,
	      "dropped %llu, sealed %llu, pending %u, entries %llu",
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_DROPPED),
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_SEALED),
	      u32_at(report, ARA_RTM_OFF_PENDING),
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_ENTRIES));
	check(u64_at(report, at + 8 * (ARA_RTM_SEGMENT_ENTRIES - 1)) == nth_entry(two - 1),
	      "the report's last pending entry");
	check(secure_call(ARA_FID_RTM_EXPORT, &e) == ARA_OK && e.index == 0, "export 0");
	check_segment(0);
	check(secure_call(ARA_FID_RTM_LOG, (void *)(uintptr_t)nth_entry(two)) ==
		      ARA_RTM_SEGMENT_READY,
	      "the entry after the export");
	check(secure_call(ARA_FID_RTM_EXPORT, &e) == ARA_OK && e.index == 1, "export 1");
	check_segment(ARA_RTM_SEGMENT_ENTRIES);
	if (!(at = check_doc("report", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce)))
		return;
	check(u64_at(report, ARA_RTM_OFF_SEALED) == 2 && u32_at(report, ARA_RTM_OFF_PENDING) == 1 &&
		      u64_at(report, at) == nth_entry(two),
	      "after the exports: sealed %llu, pending %u",
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_SEALED),
	      u32_at(report, ARA_RTM_OFF_PENDING));
}

/* Batch mode: one checkpoint per sealed segment, signed over the batch nonce. */
static void mode_batch(void)
{
	struct ara_rtm_batch_arg b;
	uint8_t h[32];
	uint64_t ready_at;

	fresh_nonce(b.nonce);
	check(secure_call(ARA_FID_RTM_BATCH, &b) == ARA_OK, "RTM_BATCH");
	check(secure_call(ARA_FID_RTM_BATCH, &b) == ARA_E_INVAL, "a second RTM_BATCH accepted");
	check(log_range(0, ARA_RTM_SEGMENT_ENTRIES, &ready_at) == 0, "a seal before the segment was full");
	/* Each range's first entry finds the segment before it full: DOM0 seals that one. */
	for (uint64_t s = 0; s < 2; s++) {
		struct ara_rtm_export_arg e = { .segment = (uintptr_t)segment,
						.checkpoint = (uintptr_t)checkpoint,
						.checkpoint_cap = sizeof(checkpoint) };

		check(log_range((s + 1) * ARA_RTM_SEGMENT_ENTRIES, (s + 2) * ARA_RTM_SEGMENT_ENTRIES,
				&ready_at) == 1,
		      "segment %llu: one seal", (unsigned long long)s);
		check(secure_call(ARA_FID_RTM_EXPORT, &e) == ARA_OK && e.index == s, "export %llu",
		      (unsigned long long)s);
		if (!check_doc("checkpoint", checkpoint, e.checkpoint_len, ARA_RTM_DOC_CHECKPOINT,
			       b.nonce))
			return;
		if (s == 0)
			chain_start(checkpoint + ARA_RTM_OFF_RUN_ID, h);
		chain_add(h, segment);
		check(memcmp(h, checkpoint + ARA_RTM_OFF_CHAIN, 32) == 0, "checkpoint %llu: chain",
		      (unsigned long long)s);
		check(u64_at(checkpoint, ARA_RTM_OFF_SEALED) == s + 1 &&
			      u32_at(checkpoint, ARA_RTM_OFF_PENDING) == 0 &&
			      u64_at(checkpoint, ARA_RTM_OFF_SEQUENCE) == s + 1,
		      "checkpoint %llu: counts", (unsigned long long)s);
	}
}

/*
 * Entries DOM0 must refuse, and count: the first before the log exists,
 * the others once the gate's append would store them (its own check).
 */
static void mode_refused(void)
{
	uint8_t nonce[32];

	fresh_nonce(nonce);
	check(log_entry(0, 0x1000) == ARA_E_INVAL, "kind 0 accepted");
	check(log_entry(7, 0x1000) == ARA_E_INVAL, "kind 7 accepted");
	check(log_entry(4, 0x1000) == ARA_E_INVAL, "kind 4 accepted");
	check(log_entry(0, 0) == ARA_E_INVAL, "the entry 0 accepted"); /* an unwritten slot's */
	check(log_entry(ARA_RTM_RET, UINT64_C(1) << 50) == ARA_E_INVAL,
	      "an address beyond user space accepted");
	check(log_entry(ARA_RTM_RET, UINT64_C(1) << 48) == ARA_E_INVAL,
	      "the first address beyond user space accepted");
	check(log_entry(ARA_RTM_RET, 0x1000) == ARA_OK, "a good entry refused");
	if (!check_doc("report", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce))
		return;
	check(u64_at(report, ARA_RTM_OFF_REFUSED) == 6 && u64_at(report, ARA_RTM_OFF_ENTRIES) == 1,
	      "refused %llu, entries %llu", (unsigned long long)u64_at(report, ARA_RTM_OFF_REFUSED),
	      (unsigned long long)u64_at(report, ARA_RTM_OFF_ENTRIES));
}

/* Without an instance key: entries are logged, but nothing is signed. */
static void mode_no_evidence(void)
{
	struct ara_rtm_report_arg a = { .out = (uintptr_t)report, .out_cap = sizeof(report) };
	struct ara_rtm_batch_arg b = { { 0 } };

	check(log_entry(ARA_RTM_RET, 0x1000) == ARA_OK, "log without evidence");
	check(secure_call(ARA_FID_RTM_REPORT, &a) == ARA_E_NO_EVIDENCE, "report without evidence");
	check(secure_call(ARA_FID_RTM_BATCH, &b) == ARA_E_NO_EVIDENCE, "batch without evidence");
}

/*
 * A final report closes the log: it says so, and the next RTM_LOG ends the
 * process (ARA_EXIT_RTM_CLOSED; the ctest looks for ARA's message). Flags
 * other than FINAL are refused.
 */
static void mode_final(void)
{
	struct ara_rtm_report_arg bad = { .out = (uintptr_t)report, .out_cap = sizeof(report),
					  .flags = 2 };
	uint8_t nonce[32];

	fresh_nonce(nonce);
	check(secure_call(ARA_FID_RTM_REPORT, &bad) == ARA_E_INVAL, "an unknown report flag accepted");
	check(log_entry(ARA_RTM_RET, 0x1000) == ARA_OK, "log");
	if (!check_doc("final report", report, get_report_flags(nonce, ARA_RTM_REPORT_FINAL),
		       ARA_RTM_DOC_REPORT, nonce))
		return;
	check(report[ARA_RTM_OFF_FLAGS] == ARA_RTM_DOC_FINAL, "final report: flags 0x%x",
	      report[ARA_RTM_OFF_FLAGS]);
	if (check_failures())
		return;
	printf("rtm_service: final report made; logging once more must end the process\n");
	log_entry(ARA_RTM_RET, 0x2000);
	check(0, "RTM_LOG after the final report returned");
}

/*
 * A page of code of its own, alone in its page (1024 instructions, aligned),
 * never run: the App takes its execute permission away, as an attacker
 * would move or re-protect code to make a logged destination look like
 * another. The next document says the code mappings changed.
 */
extern const char spare_page[];
__asm__(".pushsection .text.spare_page, \"ax\", %progbits\n"
	".p2align 12\n"
	"spare_page:\n"
	".rept 1024\n\tudf #0\n.endr\n"
	".popsection");

static void mode_remap(void)
{
	uint8_t nonce[32];

	fresh_nonce(nonce);
	check(log_entry(ARA_RTM_RET, 0x1000) == ARA_OK, "log");
	if (!check_doc("report before", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce))
		return;
	check(!(report[ARA_RTM_OFF_FLAGS] & ARA_RTM_DOC_MODULES_CHANGED),
	      "the code mappings changed before the App changed them");
	if (mprotect((void *)(uintptr_t)spare_page, 4096, PROT_READ)) {
		perror("mprotect");
		check(0, "mprotect of the spare code page");
		return;
	}
	if (!check_doc("report after", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce))
		return;
	check(report[ARA_RTM_OFF_FLAGS] & ARA_RTM_DOC_MODULES_CHANGED,
	      "the report does not say the code mappings changed");
}

static void write_byte(uint64_t addr)
{
	attack_probe_running();
	*(volatile uint8_t *)(uintptr_t)addr = 0x5a;
}

/*
 * The App writes into every page of ARA's that holds data, the core's
 * (DOM0's key) and the RTM's (its domain's key, the log among them): each
 * write must fault on the overlay, and the log the next report shows must
 * be the one logged.
 */
static void mode_log_in_dom0(void)
{
	uint8_t nonce[32], before[ARA_RTM_HEADER_BYTES + 64];
	unsigned int tried = 0;
	size_t at, rtm_ranges;

	attack_install_handlers();
	fresh_nonce(nonce);
	for (uint64_t i = 0; i < 1000; i++)
		check(secure_call(ARA_FID_RTM_LOG, (void *)(uintptr_t)nth_entry(i)) == ARA_OK, "log");
	if (!(at = check_doc("report before", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce)))
		return;
	memcpy(before, report + at, sizeof(before));
	attack_n_dom0 = attack_ranges(ARA_PKEY_DOM0, attack_dom0, ATTACK_DOM0_MAX);
	rtm_ranges = attack_ranges(ARA_PKEY_RTM, attack_dom0 + attack_n_dom0,
				   ATTACK_DOM0_MAX - attack_n_dom0);
	check(rtm_ranges > 0, "no page carries the RTM's key");
	attack_n_dom0 += rtm_ranges;
	for (size_t r = 0; r < attack_n_dom0; r++) {
		if (attack_dom0[r].perms[1] != 'w')
			continue;
		for (uint64_t p = attack_dom0[r].start; p < attack_dom0[r].end; p += 4096 * 256) {
			int out;

			attack_set_probe_target(p);
			out = attack_run(write_byte, p);
			tried++;
			/* App code faulted on the overlay, and ARA ended the child. */
			check(out == OUT_PROBE_DOM2,
			      "a write to DOM0 at 0x%llx: %s", (unsigned long long)p,
			      attack_outcome_name(out));
		}
	}
	check(tried >= 16, "only %u DOM0 pages tried", tried);
	printf("rtm_service: %u writes into the core's and the RTM's writable pages, each stopped\n",
	       tried);
	if (!(at = check_doc("report after", report, get_report(nonce), ARA_RTM_DOC_REPORT, nonce)))
		return;
	check(memcmp(before, report + at, sizeof(before)) == 0 &&
		      u64_at(report, ARA_RTM_OFF_ENTRIES) == 1000,
	      "the log changed");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} modes[] = {
		{ "report", mode_report },   { "seal", mode_seal },
		{ "full", mode_full },	     { "batch", mode_batch },
		{ "refused", mode_refused }, { "no-evidence", mode_no_evidence },
		{ "log-in-dom0", mode_log_in_dom0 },
		{ "final", mode_final },     { "remap", mode_remap },
	};

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODE\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0) {
			modes[i].run();
			if (check_failures())
				return 1;
			printf("rtm_service: PASS (%s)\n", argv[1]);
			return 0;
		}
	fprintf(stderr, "%s: no mode %s\n", argv[0], argv[1]);
	return 2;
}
