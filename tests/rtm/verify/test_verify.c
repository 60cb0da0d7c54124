/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify's decision (services/rtm/verify/verify.c) and its command
 * line, on runs built in memory by the TEST DOUBLE writer and signer
 * (doc_double.c), against real AArch64 fixtures (fixture_main.c,
 * fixture_sites.S) built as a PIE, a non-PIE executable and a PIE with
 * packed relocations. Every expected address comes from nm at build time
 * (fixture_<name>.h); the module tables are laid out the way the kernel
 * maps the fixture's executable segment, read here with <elf.h>.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <mbedtls/sha256.h>

#include "ara/hex.h"
#include "chain.h"
#include "doc_double.h"
#include "bounds.h"
#include "hpke.h"
#include "fixture_exec.h"
#include "fixture_now.h"
#include "fixture_pie.h"
#include "fixture_relr.h"
#include "verify.h"

#define MODULE_PATH "/app/rtm-fixture"
#define SEG ARA_RTM_SEGMENT_BYTES

/* One fixture, with its addresses from nm. */
struct fixture {
	const char *file;
	uint64_t callee, caller, twice, apply, ret_bl, ret_blr, ret_blraaz, ret_blrabz, ret_blraa,
		ret_blrab, not_ret, label;
	int label_relocated; /* the label's address is in a relocation (PIE) */
	uint64_t base;	     /* load bias: 0 for ET_EXEC */
};

#define FIXTURE(P, name, relocated, bias)                                                       \
	{ RTM_FIXTURE_DIR "/rtm_fixture_" name, P##_fx_callee, P##_fx_caller, P##_fx_twice,      \
	  P##_fx_apply, P##_fx_ret_bl, P##_fx_ret_blr, P##_fx_ret_blraaz, P##_fx_ret_blrabz,     \
	  P##_fx_ret_blraa, P##_fx_ret_blrab, P##_fx_not_ret, P##_fx_label, relocated, bias }

static const struct fixture fixtures[] = {
	FIXTURE(PIE, "pie", 1, 0x5555550000ull),
	FIXTURE(EXEC, "exec", 0, 0),
	FIXTURE(RELR, "relr", 1, 0xaaaa00000ull),
};
/* The same PIE with full RELRO, as an App must be; the others have none. */
static const struct fixture now_fixture = FIXTURE(NOW, "now", 1, 0x5555550000ull);
#define PIE_FIXTURE (&fixtures[0])
#define RELR_FIXTURE (&fixtures[2])
#define NOW_FIXTURE (&now_fixture)

static uint8_t sk[32], key[ARA_RTM_PUB_BYTES];
static const uint8_t nonce[32] = { 0x11, 0x22 }, run_id[32] = { 0x33 }, app[32] = { 0x44 },
		     zero[64];

/* The module record of the fixture's executable segment, as /proc/self/maps shows it. */
static struct ara_rtm_module fixture_module(const struct fixture *f)
{
	uint8_t *elf;
	size_t size;
	Elf64_Ehdr eh;
	struct ara_rtm_module m = { 0 };

	assert_int_equal(ara_read_whole(f->file, ARA_RTM_MODULE_FILE_MAX, &elf, &size), 0);
	memcpy(&eh, elf, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, elf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		m.start = f->base + (ph.p_vaddr & ~0xfffull);
		m.end = f->base + ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffull);
		m.offset = ph.p_offset & ~0xfffull;
	}
	free(elf);
	assert_int_not_equal(m.end, 0);
	m.path = (const uint8_t *)MODULE_PATH;
	m.path_len = strlen(MODULE_PATH);
	return m;
}

/* A run under test: segments, documents, and the verifier's inputs. */
struct run {
	const struct fixture *f;
	uint8_t *segments;
	size_t nseg;
	uint64_t pending[64];
	uint32_t npending;
	struct ara_rtm_doc w; /* the report's fields, before encoding */
	uint8_t chain[ARA_RTM_HASH_BYTES];
	uint8_t report[ARA_RTM_CHECKPOINT_MAX + 64 * 8];
	size_t report_len;
	uint8_t checkpoints[8 * ARA_RTM_CHECKPOINT_MAX];
	size_t checkpoints_len;
	struct ara_rtm_verify_in in;
	struct ara_rtm_module_override override;
	struct ara_rtm_modcache mc;
	struct ara_rtm_verify_figures fig; /* the last verdict's */
	char msg[1024];
};

static uint64_t rt(const struct run *r, uint64_t vaddr)
{
	return r->f->base + vaddr;
}

/* The valid entries the tests cycle through, as runtime entries. */
static uint64_t valid_entry(const struct run *r, uint64_t i)
{
	const struct fixture *f = r->f;
	const uint64_t all[] = {
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_bl)),
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_blr)),
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_blraaz)),
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_blrabz)),
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_blraa)),
		ara_rtm_entry(ARA_RTM_RET, rt(r, f->ret_blrab)),
		ara_rtm_entry(ARA_RTM_ICALL, rt(r, f->callee)),
		ara_rtm_entry(ARA_RTM_ICALL, rt(r, f->caller)),
		ara_rtm_entry(ARA_RTM_ICALL, rt(r, f->twice)),
		ara_rtm_entry(ARA_RTM_ICALL, rt(r, f->apply)),
		ara_rtm_entry(ARA_RTM_IJMP, rt(r, f->apply)),
		ara_rtm_entry(f->label_relocated ? ARA_RTM_IJMP : ARA_RTM_RET,
			      rt(r, f->label_relocated ? f->label : f->ret_bl)),
	};

	return all[(i + r->nseg) % (sizeof(all) / sizeof(all[0]))];
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void run_init(struct run *r, const struct fixture *f, size_t nseg, uint32_t npending)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->nseg = nseg;
	r->segments = malloc(nseg ? nseg * SEG : 1);
	assert_non_null(r->segments);
	for (size_t s = 0; s < nseg; s++)
		for (uint32_t k = 0; k < ARA_RTM_SEGMENT_ENTRIES; k++)
			put64(r->segments + s * SEG + k * 8ull, valid_entry(r, s * 7 + k));
	r->npending = npending;
	for (uint32_t k = 0; k < npending; k++)
		r->pending[k] = valid_entry(r, k);
	r->w = (struct ara_rtm_doc){ .kind = ARA_RTM_DOC_REPORT, .flags = ARA_RTM_DOC_FINAL,
				     .module_count = 1,
				     .sequence = nseg + 1, .sealed = nseg, .nonce = nonce,
				     .run_id = run_id, .chain = r->chain, .app_sha256 = app,
				     .instance_pub = key, .sig = zero };
	r->w.modules[0] = fixture_module(f);
	r->override = (struct ara_rtm_module_override){ .path = MODULE_PATH, .file = f->file };
	r->mc = (struct ara_rtm_modcache){ .overrides = &r->override, .noverrides = 1 };
	r->in = (struct ara_rtm_verify_in){ .key = key, .nonce = nonce, .segments = r->segments,
					    .segments_len = nseg * SEG };
}

static void run_free(struct run *r)
{
	ara_rtm_modcache_free(&r->mc);
	free(r->segments);
}

/* H after the first n segments. */
static void chain_at(const struct run *r, size_t n, uint8_t h[ARA_RTM_HASH_BYTES])
{
	assert_int_equal(ara_rtm_chain_start(run_id, h), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ara_rtm_chain_step(h, r->segments + i * SEG), 0);
}

/* Encodes and signs the report from r->w, r->pending and the chain over r's segments. */
static void seal_report(struct run *r)
{
	chain_at(r, r->w.sealed, r->chain);
	r->w.pending_count = r->npending;
	r->w.pending = (const uint8_t *)r->pending; /* the host is little-endian */
	r->w.entries = r->w.sealed * ARA_RTM_SEGMENT_ENTRIES + r->npending;
	assert_int_equal(doc_double_encode(&r->w, r->report, sizeof(r->report), &r->report_len), 0);
	doc_double_sign(r->report, r->report_len);
	r->in.report = r->report;
	r->in.report_len = r->report_len;
}

/* Appends a checkpoint sealing segment index sealed - 1 (sequence = sealed). */
static void add_checkpoint(struct run *r, uint64_t sequence, uint64_t sealed)
{
	struct ara_rtm_doc c = r->w;
	uint8_t h[ARA_RTM_HASH_BYTES];
	size_t len;

	chain_at(r, sealed, h);
	c.kind = ARA_RTM_DOC_CHECKPOINT;
	c.flags = 0;
	c.chain = h;
	c.sequence = sequence;
	c.sealed = sealed;
	c.pending_count = 0;
	c.entries = sealed * ARA_RTM_SEGMENT_ENTRIES;
	assert_int_equal(doc_double_encode(&c, r->checkpoints + r->checkpoints_len,
					   sizeof(r->checkpoints) - r->checkpoints_len, &len),
			 0);
	doc_double_sign(r->checkpoints + r->checkpoints_len, len);
	r->checkpoints_len += len;
	r->in.checkpoints = r->checkpoints;
	r->in.checkpoints_len = r->checkpoints_len;
}

static enum ara_rtm_verdict verify(struct run *r)
{
	enum ara_rtm_verdict v = ara_rtm_verify(&r->in, &r->mc, &r->fig, r->msg, sizeof(r->msg));

	print_message("  %s\n", r->msg);
	return v;
}

static void expect(struct run *r, enum ara_rtm_verdict want, const char *text)
{
	assert_int_equal(verify(r), want);
	if (strstr(r->msg, text) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", r->msg, text);
}

static void test_good_report_verifies(void **state)
{
	struct run r;
	char want[128];

	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		run_init(&r, &fixtures[i], 2, 12);
		seal_report(&r);
		snprintf(want, sizeof(want),
			 "OK: %u entries (2 segments, 12 pending), all targets valid, the whole run "
			 "(final report)",
			 2 * ARA_RTM_SEGMENT_ENTRIES + 12);
		expect(&r, ARA_RTM_VERDICT_OK, want);
		assert_string_equal(r.msg, want);
		/* Each binary is parsed once, whatever the number of entries. */
		assert_int_equal(r.mc.nfiles, 1);
		run_free(&r);
	}
}

/* A report of one pending entry e, verified against fixture f. */
static void expect_entry(const struct fixture *f, uint64_t e, enum ara_rtm_verdict want,
			 const char *text)
{
	struct run r;

	run_init(&r, f, 0, 1);
	r.pending[0] = e;
	seal_report(&r);
	expect(&r, want, text);
	run_free(&r);
}

/* The RELR fixture has its relative relocations packed, or it would test nothing new. */
static void test_relr_fixture_is_packed(void **state)
{
	uint8_t *elf;
	size_t size;
	Elf64_Ehdr eh;
	int relr = 0, relative_rela = 0;

	(void)state;
	assert_int_equal(ara_read_whole(RELR_FIXTURE->file, ARA_RTM_MODULE_FILE_MAX, &elf, &size), 0);
	memcpy(&eh, elf, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, elf + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		relr += sh.sh_type == 19; /* SHT_RELR */
		for (uint64_t o = 0; sh.sh_type == SHT_RELA && o < sh.sh_size; o += sizeof(Elf64_Rela)) {
			Elf64_Rela r;

			memcpy(&r, elf + sh.sh_offset + o, sizeof(r));
			relative_rela += ELF64_R_TYPE(r.r_info) == R_AARCH64_RELATIVE;
		}
	}
	free(elf);
	assert_int_equal(relr, 1);
	assert_int_equal(relative_rela, 0);
}

static void test_illegal_targets_are_named(void **state)
{
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct fixture *f = &fixtures[i];
		uint64_t b = f->base;

		snprintf(want, sizeof(want),
			 "REJECTED: entry #0: return to 0x%llx (%s+0x%llx, fx_caller+0x%llx) is not a "
			 "return site",
			 (unsigned long long)(b + f->not_ret), MODULE_PATH,
			 (unsigned long long)f->not_ret, (unsigned long long)(f->not_ret - f->caller));
		expect_entry(f, ara_rtm_entry(ARA_RTM_RET, b + f->not_ret), ARA_RTM_VERDICT_REJECTED,
			     want);
		/* A function entry is no return site. */
		expect_entry(f, ara_rtm_entry(ARA_RTM_RET, b + f->callee), ARA_RTM_VERDICT_REJECTED,
			     "is not a return site");
		snprintf(want, sizeof(want),
			 "REJECTED: entry #0: indirect call to 0x%llx (%s+0x%llx, fx_twice+0x4) is not "
			 "a function entry",
			 (unsigned long long)(b + f->twice + 4), MODULE_PATH,
			 (unsigned long long)(f->twice + 4));
		expect_entry(f, ara_rtm_entry(ARA_RTM_ICALL, b + f->twice + 4),
			     ARA_RTM_VERDICT_REJECTED, want);
		/* A return site is no function entry, and an address-taken label neither. */
		expect_entry(f, ara_rtm_entry(ARA_RTM_ICALL, b + f->ret_blr), ARA_RTM_VERDICT_REJECTED,
			     "is not a function entry");
		expect_entry(f, ara_rtm_entry(ARA_RTM_ICALL, b + f->label), ARA_RTM_VERDICT_REJECTED,
			     "is not a function entry");
		expect_entry(f, ara_rtm_entry(ARA_RTM_IJMP, b + f->not_ret), ARA_RTM_VERDICT_REJECTED,
			     "indirect jump to");
		if (f->label_relocated)
			expect_entry(f, ara_rtm_entry(ARA_RTM_IJMP, b + f->label), ARA_RTM_VERDICT_OK,
				     "OK: 1 entries");
		snprintf(want, sizeof(want),
			 "REJECTED: entry #0: return to 0x%llx is in no code module",
			 (unsigned long long)(b + 0x7f000000000ull));
		expect_entry(f, ara_rtm_entry(ARA_RTM_RET, b + 0x7f000000000ull),
			     ARA_RTM_VERDICT_REJECTED, want);
		expect_entry(f, ara_rtm_entry(4, b + f->ret_bl), ARA_RTM_VERDICT_REJECTED,
			     "entry #0: unknown kind 4");
		/* Each return site, one by one. */
		expect_entry(f, ara_rtm_entry(ARA_RTM_RET, b + f->ret_blraa), ARA_RTM_VERDICT_OK, "OK");
		expect_entry(f, ara_rtm_entry(ARA_RTM_RET, b + f->ret_blrabz), ARA_RTM_VERDICT_OK, "OK");
	}
}

/* The first illegal entry is named by its number in the run, in a segment or pending. */
static void test_first_illegal_entry_is_numbered(void **state)
{
	const struct fixture *f = &fixtures[0];
	struct run r;
	char want[64];

	(void)state;
	run_init(&r, f, 2, 5);
	put64(r.segments + SEG + 100 * 8, ara_rtm_entry(ARA_RTM_RET, rt(&r, f->not_ret)));
	r.pending[3] = ara_rtm_entry(ARA_RTM_RET, rt(&r, f->callee));
	seal_report(&r);
	snprintf(want, sizeof(want), "REJECTED: entry #%u: return to",
		 ARA_RTM_SEGMENT_ENTRIES + 100);
	expect(&r, ARA_RTM_VERDICT_REJECTED, want);
	put64(r.segments + SEG + 100 * 8, valid_entry(&r, 0));
	seal_report(&r);
	snprintf(want, sizeof(want), "REJECTED: entry #%u: return to",
		 2 * ARA_RTM_SEGMENT_ENTRIES + 3);
	expect(&r, ARA_RTM_VERDICT_REJECTED, want);
	run_free(&r);
}

/* An address inside a mapping but past every PT_LOAD's file bytes (the fixture is < 1 MiB). */
static void test_address_outside_segments(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 0, 1);
	r.w.modules[0].end = r.w.modules[0].start + 0x200000;
	r.pending[0] = ara_rtm_entry(ARA_RTM_RET, r.w.modules[0].start + 0x100000);
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "is outside the file's loadable segments");
	run_free(&r);
}

static void test_flipped_byte_anywhere_is_rejected(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 0, 4);
	seal_report(&r);
	for (size_t i = 0; i < r.report_len; i++) {
		r.report[i] ^= 0x80;
		expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: ");
		r.report[i] ^= 0x80;
	}
	expect(&r, ARA_RTM_VERDICT_OK, "OK");
	run_free(&r);
}

static void test_wrong_key_and_signer(void **state)
{
	struct run r;
	uint8_t ikm[32], other_sk[32], other[ARA_RTM_PUB_BYTES];

	(void)state;
	memset(ikm, 0x77, sizeof(ikm));
	assert_int_equal(ara_hpke_derive_keypair(ikm, sizeof(ikm), other_sk, other), 0);
	run_init(&r, &fixtures[0], 0, 2);
	seal_report(&r);
	r.in.key = other;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: signed by another instance key");
	/* Naming the verifier's key without its signature. */
	r.w.instance_pub = other;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED,
	       "REJECTED: report: signature does not verify under the instance key");
	run_free(&r);
}

static void test_wrong_nonce_and_app(void **state)
{
	struct run r;
	uint8_t old[32] = { 0x99 }, other_app[32] = { 0x45 };

	(void)state;
	run_init(&r, &fixtures[0], 0, 2);
	r.w.nonce = old; /* an old report, replayed */
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: nonce is not the verifier's");
	r.w.nonce = nonce;
	seal_report(&r);
	r.in.app_sha256 = app;
	expect(&r, ARA_RTM_VERDICT_OK, "OK");
	r.in.app_sha256 = other_app;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: App digest 44");
	run_free(&r);
}

static void test_dropped_and_refused(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 1, 2);
	r.w.dropped = 1;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: 1 sealed segments were dropped");
	r.w.dropped = 0;
	r.w.refused = 3;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: 3 RTM_LOG calls were refused");
	run_free(&r);
}

static void test_segments_missing_extra_reordered(void **state)
{
	struct run r;
	uint8_t *more;

	(void)state;
	run_init(&r, &fixtures[0], 3, 1);
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_OK, "OK: 393217 entries (3 segments, 1 pending)");
	r.in.segments_len = 2 * SEG; /* the last one missing */
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: seals 3 segments, 2 given");
	r.in.segments = NULL;
	r.in.segments_len = 0;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: seals 3 segments, 0 given");
	more = malloc(4 * SEG); /* an extra one */
	assert_non_null(more);
	memcpy(more, r.segments, 3 * SEG);
	memcpy(more + 3 * SEG, r.segments, SEG);
	r.in.segments = more;
	r.in.segments_len = 4 * SEG;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: seals 3 segments, 4 given");
	memcpy(more, r.segments + SEG, SEG); /* 1, 0, 2 */
	memcpy(more + SEG, r.segments, SEG);
	memcpy(more + 2 * SEG, r.segments + 2 * SEG, SEG);
	r.in.segments_len = 3 * SEG;
	expect(&r, ARA_RTM_VERDICT_REJECTED,
	       "REJECTED: report: its chain value is not the hash of the segments");
	memcpy(more, r.segments, 3 * SEG);
	more[2 * SEG + 5] ^= 1; /* one entry rewritten */
	expect(&r, ARA_RTM_VERDICT_REJECTED, "its chain value is not the hash of the segments");
	r.in.segments_len = 3 * SEG - 8;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "not a whole number of");
	free(more);
	run_free(&r);
}

static void test_malformed_report(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 0, 2);
	seal_report(&r);
	r.in.report_len--;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: truncated");
	r.in.report_len = 100;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: truncated");
	r.in.report_len = r.report_len;
	r.report[r.report_len - 64 - 8] ^= 1; /* the last pending entry, rewritten */
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: signature does not verify");
	run_free(&r);
}

static void test_module_file_missing(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 0, 1);
	seal_report(&r);
	r.override.file = RTM_FIXTURE_DIR "/no-such-file";
	expect(&r, ARA_RTM_VERDICT_ERROR, "cannot read " RTM_FIXTURE_DIR "/no-such-file");
	run_free(&r);
	/* Not an ELF file. */
	run_init(&r, &fixtures[0], 0, 1);
	seal_report(&r);
	r.override.file = RTM_FIXTURE_DIR "/fixture_pie.h";
	expect(&r, ARA_RTM_VERDICT_ERROR, "not an ELF file");
	run_free(&r);
}

/* Batch mode: checkpoints 1..3 (one per sealed segment), then a report. */
static void test_batch(void **state)
{
	struct run r;
	size_t one;

	(void)state;
	run_init(&r, &fixtures[0], 3, 2);
	add_checkpoint(&r, 1, 1);
	one = r.checkpoints_len;
	add_checkpoint(&r, 2, 2);
	add_checkpoint(&r, 3, 3);
	/* Checkpoints alone cover the run only up to the last: accepted as interim only. */
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoints: no final report");
	r.in.interim = 1;
	expect(&r, ARA_RTM_VERDICT_OK, "OK: 393216 entries (3 segments, 0 pending, 3 checkpoints)");
	/* The figures (ara-verify --json's) are the line's. */
	assert_int_equal(r.fig.entries, 393216);
	assert_int_equal(r.fig.segments, 3);
	assert_int_equal(r.fig.pending, 0);
	assert_int_equal(r.fig.checkpoints, 3);
	assert_int_equal(r.fig.final, 0);
	r.w.sequence = 4;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_OK, "OK: 393218 entries (3 segments, 2 pending, 3 checkpoints)");
	assert_int_equal(r.fig.entries, 393218);
	assert_int_equal(r.fig.pending, 2);
	assert_int_equal(r.fig.checkpoints, 3);
	assert_int_equal(r.fig.final, 1);
	/* A report that does not end the checkpoints: an older sequence. */
	r.w.sequence = 3;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: sequence 3 sealing 3 segments");
	assert_int_equal(r.fig.entries, 0); /* no figures without a verdict of OK */
	r.in.report = NULL;
	/* The second checkpoint missing. */
	memmove(r.checkpoints + one, r.checkpoints + 2 * one, one);
	r.in.checkpoints_len = 2 * one;
	expect(&r, ARA_RTM_VERDICT_REJECTED,
	       "REJECTED: checkpoint #2: sequence 3 sealing 3 segments does not follow");
	/* Only the first: segments beyond it are not covered. */
	r.in.checkpoints_len = one;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoint #1: seals 1 segments, 3 given");
	/* A truncated checkpoint file. */
	r.in.checkpoints_len = one - 1;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoint #1: truncated");
	run_free(&r);

	/* A report made between two checkpoints took sequence 2: a gap, accepted. */
	run_init(&r, &fixtures[0], 2, 0);
	r.in.interim = 1;
	add_checkpoint(&r, 1, 1);
	add_checkpoint(&r, 3, 2);
	expect(&r, ARA_RTM_VERDICT_OK, "OK: 262144 entries (2 segments, 0 pending, 2 checkpoints)");
	run_free(&r);
	/* ... but never a sequence that goes back. */
	run_init(&r, &fixtures[0], 2, 0);
	r.in.interim = 1;
	add_checkpoint(&r, 2, 1);
	add_checkpoint(&r, 2, 2);
	expect(&r, ARA_RTM_VERDICT_REJECTED,
	       "REJECTED: checkpoint #2: sequence 2 sealing 2 segments does not follow");
	run_free(&r);

	/* A checkpoint whose chain is not the segments'. */
	run_init(&r, &fixtures[0], 2, 0);
	r.in.interim = 1;
	add_checkpoint(&r, 1, 1);
	add_checkpoint(&r, 2, 2);
	r.segments[SEG + 8] ^= 1;
	expect(&r, ARA_RTM_VERDICT_REJECTED,
	       "REJECTED: checkpoint #2: its chain value is not the hash of the segments");
	r.segments[SEG + 8] ^= 1;
	/* Another batch nonce, another run, a flipped byte. */
	r.in.nonce = run_id;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoint #1: nonce");
	r.in.nonce = nonce;
	r.checkpoints[r.checkpoints_len - 70] ^= 1;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoint #2: ");
	run_free(&r);

	run_init(&r, &fixtures[0], 2, 0);
	r.in.interim = 1;
	add_checkpoint(&r, 1, 1);
	r.w.run_id = app;
	add_checkpoint(&r, 2, 2);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: checkpoint #2: belongs to another run");
	run_free(&r);
}

/* The command line: files, options, exit statuses and the one line. */
static int run_tool(const char *args, char *out, size_t cap)
{
	char cmd[4096];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", ARA_VERIFY, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/*
 * A report not marked final covers the run only up to when it was made:
 * refused unless the verifier says its nonce was fresh (interim); a
 * document whose code mappings changed is refused either way.
 */
static void test_final_and_modules(void **state)
{
	struct run r;

	(void)state;
	run_init(&r, &fixtures[0], 0, 2);
	r.w.flags = 0;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: no final report");
	r.in.interim = 1;
	expect(&r, ARA_RTM_VERDICT_OK, "interim: the run after this evidence is not covered");
	r.w.flags = ARA_RTM_DOC_MODULES_CHANGED;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: the process's code mappings changed");
	r.in.interim = 0;
	r.w.flags = ARA_RTM_DOC_FINAL | ARA_RTM_DOC_MODULES_CHANGED;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: the process's code mappings changed");
	r.w.flags = ARA_RTM_DOC_FINAL;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_OK, "the whole run (final report)");
	/* An unknown flag does not decode. */
	r.w.flags = 0x80;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: report: a reserved or padding byte");
	run_free(&r);
}

static void test_command_line(void **state)
{
	struct run r;
	char dir[] = "/tmp/rtm-verify-XXXXXX", rep[64], seg[64], args[2048], out[2048], k[131],
	     nc[65], other[65], a[65];
	const struct fixture *f = &fixtures[0];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(rep, sizeof(rep), "%s/report", dir);
	snprintf(seg, sizeof(seg), "%s/segments", dir);
	run_init(&r, f, 1, 3);
	seal_report(&r);
	write_file(rep, r.report, r.report_len);
	write_file(seg, r.segments, SEG);
	ara_hex_encode(key, sizeof(key), k);
	ara_hex_encode(nonce, sizeof(nonce), nc);
	ara_hex_encode(app, sizeof(app), a);
	/* Without the App's digest or file, no decision: which App ran? */
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s --segments %s --module %s=%s", k, nc, rep,
		 seg, MODULE_PATH, f->file);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "which App ran?"));
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s --segments %s --module %s=%s "
		 "--app-sha256 %s",
		 k, nc, rep, seg, MODULE_PATH, f->file, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	assert_string_equal(out, "ara-verify: OK: 131075 entries (1 segments, 3 pending), all "
				 "targets valid, the whole run (final report)\n");
	/* --json: the same verdict and figures, as one object (docs/man/ara-verify.1). */
	strcat(args, " --json");
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	assert_string_equal(out, "{\"verdict\":\"ok\",\"reason\":null,\"entries\":131075,"
				 "\"segments\":1,\"pending\":3,\"checkpoints\":0,\"final\":true}\n");
	/* A module given twice: refused. */
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s --segments %s --module %s=%s "
		 "--module %s=%s --app-sha256 %s",
		 k, nc, rep, seg, MODULE_PATH, f->file, MODULE_PATH, f->file, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "given twice"));
	/* --root: the module found as ROOT + path; here it is not there. */
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s --segments %s --root %s --app-sha256 %s", k,
		 nc, rep, seg, dir, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "ara-verify: module " MODULE_PATH));
	memcpy(other, nc, sizeof(other));
	other[0] = other[0] == '0' ? '1' : '0';
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s --segments %s --module %s=%s "
		 "--app-sha256 %s",
		 k, other, rep, seg, MODULE_PATH, f->file, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "ara-verify: REJECTED: report: nonce"));
	strcat(args, " --json");
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_string_equal(out, "{\"verdict\":\"rejected\",\"reason\":\"report: nonce is not the "
				 "verifier's (a replayed or foreign document)\",\"entries\":null,"
				 "\"segments\":null,\"pending\":null,\"checkpoints\":null,"
				 "\"final\":null}\n");
	snprintf(args, sizeof(args), "--instance-key %s --nonce %s --report %s/none --app-sha256 %s",
		 k, nc, dir, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 3);
	assert_non_null(strstr(out, "cannot read"));
	snprintf(args, sizeof(args), "--instance-key %.128s --nonce %s --report %s", k, nc, rep);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "not a P-256 point"));
	assert_int_equal(run_tool("--nonce", out, sizeof(out)), 2);
	assert_int_equal(run_tool("", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "try 'ara-verify --help'"));
	unlink(rep);
	unlink(seg);
	rmdir(dir);
	run_free(&r);
}

/* SHA-256 of a file, in binary and in hex. */
static void file_sha256(const char *path, uint8_t d[32], char h[65])
{
	uint8_t *b;
	size_t n;

	assert_int_equal(ara_read_whole(path, ARA_RTM_MODULE_FILE_MAX, &b, &n), 0);
	assert_int_equal(mbedtls_sha256(b, n, d, 0), 0);
	free(b);
	ara_hex_encode(d, 32, h);
}

/*
 * A report whose module table names the App's module (the layout of the
 * full-RELRO fixture), measuring the App of digest d; the module's file is
 * left to the caller (override, root, or the tool's command line).
 */
static void app_run(struct run *r, const uint8_t d[32])
{
	run_init(r, NOW_FIXTURE, 0, 3);
	r->w.modules[0].path = (const uint8_t *)ARA_RTM_APP_MODULE_PATH;
	r->w.modules[0].path_len = strlen(ARA_RTM_APP_MODULE_PATH);
	r->w.app_sha256 = d;
	r->override.path = ARA_RTM_APP_MODULE_PATH;
	r->in.app_sha256 = d;
	seal_report(r);
}

/* A copy of src at dst. */
static void copy_file(const char *src, const char *dst)
{
	uint8_t *b;
	size_t n;

	assert_int_equal(ara_read_whole(src, ARA_RTM_MODULE_FILE_MAX, &b, &n), 0);
	write_file(dst, b, n);
	free(b);
}

/*
 * The App's checks (its digest, full RELRO) apply to the App's module
 * however its file is found: given for its path, under the root, and even
 * when no entry lands in it.
 */
static void test_app_checks_every_way(void **state)
{
	uint8_t now_d[32], pie_d[32];
	char now_h[65], pie_h[65], dir[] = "/tmp/rtm-app-XXXXXX", app_at[128];
	struct run r;

	(void)state;
	file_sha256(NOW_FIXTURE->file, now_d, now_h);
	file_sha256(PIE_FIXTURE->file, pie_d, pie_h);
	/* Given for the App's path: the measured, full-RELRO App verifies. */
	app_run(&r, now_d);
	expect(&r, ARA_RTM_VERDICT_OK, "OK: ");
	run_free(&r);
	app_run(&r, now_d);
	r.override.file = PIE_FIXTURE->file;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "is not the App the evidence measured");
	run_free(&r);
	app_run(&r, pie_d);
	r.override.file = PIE_FIXTURE->file;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "is not linked with full RELRO");
	run_free(&r);
	/* Under the root. */
	assert_non_null(mkdtemp(dir));
	snprintf(app_at, sizeof(app_at), "%s%s", dir, ARA_RTM_APP_MODULE_PATH);
	copy_file(PIE_FIXTURE->file, app_at);
	app_run(&r, pie_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "is not linked with full RELRO");
	run_free(&r);
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_REJECTED, "is not the App the evidence measured");
	run_free(&r);
	/* No entry in the App: its module is named, so it is checked all the same. */
	run_init(&r, NOW_FIXTURE, 0, 3);
	r.w.module_count = 2;
	r.w.modules[1] = r.w.modules[0];
	r.w.modules[1].start += 1ull << 32;
	r.w.modules[1].end += 1ull << 32;
	r.w.modules[1].path = (const uint8_t *)ARA_RTM_APP_MODULE_PATH;
	r.w.modules[1].path_len = strlen(ARA_RTM_APP_MODULE_PATH);
	r.w.app_sha256 = pie_d;
	r.in.app_sha256 = pie_d;
	r.mc.root = dir;
	seal_report(&r);
	expect(&r, ARA_RTM_VERDICT_REJECTED, "REJECTED: the App's file ");
	assert_non_null(strstr(r.msg, "is not linked with full RELRO"));
	run_free(&r);
	unlink(app_at);
	rmdir(dir);
}

/*
 * A module's file that is not a regular file (a FIFO, which would block a
 * plain open) or a module path with a '..' is no decision, never a wait.
 */
static void test_module_not_regular(void **state)
{
	uint8_t now_d[32];
	char now_h[65], dir[] = "/tmp/rtm-fifo-XXXXXX", at[128];
	static const char dotdot[] = "/lib/../etc/passwd";
	struct run r;

	(void)state;
	file_sha256(NOW_FIXTURE->file, now_d, now_h);
	assert_non_null(mkdtemp(dir));
	snprintf(at, sizeof(at), "%s%s", dir, ARA_RTM_APP_MODULE_PATH);
	assert_int_equal(mkfifo(at, 0600), 0);
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_ERROR, "is not a regular file");
	run_free(&r);
	/* Its twin: the same run with the App's regular file there verifies. */
	unlink(at);
	copy_file(NOW_FIXTURE->file, at);
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_OK, "OK: ");
	run_free(&r);
	app_run(&r, now_d);
	r.w.modules[0].path = (const uint8_t *)dotdot;
	r.w.modules[0].path_len = strlen(dotdot);
	seal_report(&r);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_ERROR, "a '..' in its path");
	run_free(&r);
	unlink(at);
	rmdir(dir);
}

/*
 * Under the root, a module's path is resolved inside it: an absolute
 * symbolic link there leads to root + its target, not to the verifier's
 * own file of that name (here the App's fixture, which a plain open would
 * read: the twin), while a link within the root is followed. And a
 * verifier's bound on the bytes of one report's module files (the
 * service's) refuses past it, the same run verifying without it.
 */
static void test_module_root_confined(void **state)
{
	uint8_t now_d[32], *b;
	char now_h[65], dir[] = "/tmp/rtm-root-XXXXXX", at[128], inside[160];
	size_t n;
	struct run r;

	(void)state;
	file_sha256(NOW_FIXTURE->file, now_d, now_h);
	assert_non_null(mkdtemp(dir));
	snprintf(at, sizeof(at), "%s%s", dir, ARA_RTM_APP_MODULE_PATH);
	assert_int_equal(symlink(NOW_FIXTURE->file, at), 0);
	assert_true(NOW_FIXTURE->file[0] == '/');
	/* The twin: the plain path the root joins to reaches the fixture. */
	assert_int_equal(ara_read_whole(at, ARA_RTM_MODULE_FILE_MAX, &b, &n), 0);
	free(b);
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_ERROR, "No such file or directory");
	run_free(&r);
	/* A relative link within the root is followed. */
	snprintf(inside, sizeof(inside), "%s/app.elf", dir);
	copy_file(NOW_FIXTURE->file, inside);
	assert_int_equal(unlink(at), 0);
	assert_int_equal(symlink("app.elf", at), 0);
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	expect(&r, ARA_RTM_VERDICT_OK, "OK: ");
	run_free(&r);
	/* The bound: one byte short of the App's file, then unbounded. */
	app_run(&r, now_d);
	r.mc.noverrides = 0;
	r.mc.root = dir;
	r.mc.max_bytes = 1;
	expect(&r, ARA_RTM_VERDICT_ERROR, "over the 1 bytes this verifier reads for one report");
	run_free(&r);
	unlink(at);
	unlink(inside);
	rmdir(dir);
}

/* The same on ara-verify's command line: every way it takes the App's file. */
static void test_app_checks_command_line(void **state)
{
	uint8_t now_d[32], pie_d[32];
	char now_h[65], pie_h[65], dir[] = "/tmp/rtm-app-XXXXXX", rep[64], seg[64], app_at[128],
	     base[1024], args[2048], out[2048], k[131], nc[65];
	struct run r;

	(void)state;
	file_sha256(NOW_FIXTURE->file, now_d, now_h);
	file_sha256(PIE_FIXTURE->file, pie_d, pie_h);
	assert_non_null(mkdtemp(dir));
	snprintf(rep, sizeof(rep), "%s/report", dir);
	snprintf(seg, sizeof(seg), "%s/segments", dir);
	snprintf(app_at, sizeof(app_at), "%s%s", dir, ARA_RTM_APP_MODULE_PATH);
	ara_hex_encode(key, sizeof(key), k);
	ara_hex_encode(nonce, sizeof(nonce), nc);
	snprintf(base, sizeof(base), "--instance-key %s --nonce %s --report %s --segments %s", k,
		 nc, rep, seg);

	/* The full-RELRO App, measured: accepted by --app, --module and --root alike. */
	app_run(&r, now_d);
	write_file(rep, r.report, r.report_len);
	write_file(seg, r.segments, 0);
	copy_file(NOW_FIXTURE->file, app_at);
	snprintf(args, sizeof(args), "%s --app %s", base, NOW_FIXTURE->file);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	snprintf(args, sizeof(args), "%s --module '%s=%s'", base, ARA_RTM_APP_MODULE_PATH,
		 NOW_FIXTURE->file);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	snprintf(args, sizeof(args), "%s --root %s --app-sha256 %s", base, dir, now_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	/* Another file than the measured App: rejected, however given. */
	snprintf(args, sizeof(args), "%s --app %s --app-sha256 %s", base, PIE_FIXTURE->file, now_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not the App the evidence measured"));
	run_free(&r);

	/* The App without full RELRO, measured as such: rejected every way. */
	app_run(&r, pie_d);
	write_file(rep, r.report, r.report_len);
	copy_file(PIE_FIXTURE->file, app_at);
	snprintf(args, sizeof(args), "%s --app %s", base, PIE_FIXTURE->file);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not linked with full RELRO"));
	snprintf(args, sizeof(args), "%s --module '%s=%s'", base, ARA_RTM_APP_MODULE_PATH,
		 PIE_FIXTURE->file);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not linked with full RELRO"));
	snprintf(args, sizeof(args), "%s --module '%s=%s' --app-sha256 %s", base,
		 ARA_RTM_APP_MODULE_PATH, PIE_FIXTURE->file, pie_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not linked with full RELRO"));
	snprintf(args, sizeof(args), "%s --root %s --app-sha256 %s", base, dir, pie_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not linked with full RELRO"));
	run_free(&r);

	/* A full-RELRO file that is not the measured App: rejected every way. */
	app_run(&r, now_d);
	write_file(rep, r.report, r.report_len);
	copy_file(PIE_FIXTURE->file, app_at);
	snprintf(args, sizeof(args), "%s --module '%s=%s' --app-sha256 %s", base,
		 ARA_RTM_APP_MODULE_PATH, PIE_FIXTURE->file, now_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not the App the evidence measured"));
	snprintf(args, sizeof(args), "%s --root %s --app-sha256 %s", base, dir, now_h);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "is not the App the evidence measured"));
	run_free(&r);
	unlink(app_at);
	unlink(rep);
	unlink(seg);
	rmdir(dir);
}

/*
 * Inputs over their bounds (bounds.h) are refused from their size alone,
 * before a byte is read: sparse files cost no disk and, here, no memory.
 */
static void test_input_bounds(void **state)
{
	char dir[] = "/tmp/rtm-bounds-XXXXXX", rep[64], big[64], args[2048], out[2048], k[131],
	     nc[65], a[65], want[128];
	struct run r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(rep, sizeof(rep), "%s/report", dir);
	snprintf(big, sizeof(big), "%s/big", dir);
	run_init(&r, &fixtures[0], 0, 1);
	seal_report(&r);
	write_file(rep, r.report, r.report_len);
	ara_hex_encode(key, sizeof(key), k);
	ara_hex_encode(nonce, sizeof(nonce), nc);
	ara_hex_encode(app, sizeof(app), a);
	write_file(big, nonce, 1);
	assert_int_equal(truncate(big, (off_t)ARA_RTM_SEGMENTS_FILE_MAX + 1), 0);
	snprintf(args, sizeof(args), "--instance-key %s --nonce %s --report %s --segments %s "
		 "--app-sha256 %s", k, nc, rep, big, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	snprintf(want, sizeof(want), "%s: over %zu bytes", big, ARA_RTM_SEGMENTS_FILE_MAX);
	assert_non_null(strstr(out, want));
	assert_int_equal(truncate(big, (off_t)ARA_RTM_REPORT_FILE_MAX + 1), 0);
	snprintf(args, sizeof(args), "--instance-key %s --nonce %s --report %s --app-sha256 %s", k,
		 nc, big, a);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	snprintf(want, sizeof(want), "%s: over %zu bytes", big, ARA_RTM_REPORT_FILE_MAX);
	assert_non_null(strstr(out, want));
	/* At the bound: read (and then rejected as a report). */
	assert_int_equal(truncate(big, (off_t)ARA_RTM_REPORT_FILE_MAX), 0);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "REJECTED: report: "));
	/* A module over its bound: no decision. */
	assert_int_equal(truncate(big, (off_t)ARA_RTM_MODULE_FILE_MAX + 1), 0);
	r.override.file = big;
	expect(&r, ARA_RTM_VERDICT_ERROR, "File too large");
	run_free(&r);
	unlink(big);
	unlink(rep);
	rmdir(dir);
}
#ifdef CHECK_EAR
/*
 * --ear: the verdict as an EAR, which Debian's python3-jwt checks against
 * the signing key's public half (tests/ear/check_ear.py: the claims, and
 * twins refused: flipped bytes, another key, alg none, HS256).
 */
static void test_ear_output(void **state)
{
	struct run r;
	char dir[] = "/tmp/rtm-ear-XXXXXX", args[4096], out[4096], k[131], nc[65], other[65],
	     a[65], cmd[4096];
	const struct fixture *f = &fixtures[0];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s keygen %s", CHECK_EAR, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof(args), "%s/report", dir);
	run_init(&r, f, 1, 3);
	seal_report(&r);
	write_file(args, r.report, r.report_len);
	snprintf(args, sizeof(args), "%s/segments", dir);
	write_file(args, r.segments, SEG);
	ara_hex_encode(key, sizeof(key), k);
	ara_hex_encode(nonce, sizeof(nonce), nc);
	ara_hex_encode(app, sizeof(app), a);
	memcpy(other, nc, sizeof(other));
	other[0] = other[0] == '0' ? '1' : '0';

	/* Verified: affirming, the figures, the App and the (given, so unappraised) key. */
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s/report --segments %s/segments "
		 "--module %s=%s --app-sha256 %s --ear %s/key.pem",
		 k, nc, dir, dir, MODULE_PATH, f->file, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	snprintf(cmd, sizeof(cmd), "%s/ok.jwt", dir);
	write_file(cmd, (const uint8_t *)out, strlen(out));
	snprintf(cmd, sizeof(cmd),
		 "%s check %s/ok.jwt %s/pub.pem %s/other-pub.pem ear.status=affirming "
		 "tv.executables=2 tv.instance-identity=absent eat_nonce=%s ear.ara.app-sha256=%s "
		 "ear.ara.instance-key=%s rtm.entries=131075 rtm.segments=1 rtm.pending=3 "
		 "rtm.checkpoints=0 rtm.final=true ear.ara.reason=absent",
		 CHECK_EAR, dir, dir, dir, nc, a, k);
	assert_int_equal(system(cmd), 0);

	/* Rejected (another nonce): contraindicated, with the reason, exit 1 as without --ear. */
	snprintf(args, sizeof(args),
		 "--instance-key %s --nonce %s --report %s/report --segments %s/segments "
		 "--module %s=%s --app-sha256 %s --ear %s/key.pem",
		 k, other, dir, dir, MODULE_PATH, f->file, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 1);
	snprintf(cmd, sizeof(cmd), "%s/rejected.jwt", dir);
	write_file(cmd, (const uint8_t *)out, strlen(out));
	snprintf(cmd, sizeof(cmd),
		 "%s check %s/rejected.jwt %s/pub.pem %s/other-pub.pem ear.status=contraindicated "
		 "tv.executables=96 eat_nonce=%s \"ear.ara.reason=report: nonce is not the "
		 "verifier's (a replayed or foreign document)\" ear.ara.rtm=absent",
		 CHECK_EAR, dir, dir, dir, other);
	assert_int_equal(system(cmd), 0);

	/* Keys it refuses, before any work: others may read it; P-384; none; and --json too. */
#define KEY_ARGS "--instance-key %s --nonce %s --report %s/report --app-sha256 %s --ear %s/"
	snprintf(cmd, sizeof(cmd), "chmod 640 %s/other.pem", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof(args), KEY_ARGS "other.pem", k, nc, dir, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "other.pem: a private key its group or others may access"));
	snprintf(args, sizeof(args), KEY_ARGS "p384.pem", k, nc, dir, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "p384.pem: not a P-256 key"));
	snprintf(args, sizeof(args), KEY_ARGS "none.pem", k, nc, dir, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "none.pem: cannot open: No such file or directory"));
	snprintf(args, sizeof(args), KEY_ARGS "key.pem --json", k, nc, dir, a, dir);
	assert_int_equal(run_tool(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "--json and --ear"));
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
	run_free(&r);
}
#endif

static int setup(void **state)
{
	(void)state;
	doc_double_key(sk, key);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_report_verifies),
		cmocka_unit_test(test_relr_fixture_is_packed),
		cmocka_unit_test(test_illegal_targets_are_named),
		cmocka_unit_test(test_first_illegal_entry_is_numbered),
		cmocka_unit_test(test_address_outside_segments),
		cmocka_unit_test(test_flipped_byte_anywhere_is_rejected),
		cmocka_unit_test(test_wrong_key_and_signer),
		cmocka_unit_test(test_wrong_nonce_and_app),
		cmocka_unit_test(test_dropped_and_refused),
		cmocka_unit_test(test_segments_missing_extra_reordered),
		cmocka_unit_test(test_malformed_report),
		cmocka_unit_test(test_module_file_missing),
		cmocka_unit_test(test_batch),
		cmocka_unit_test(test_final_and_modules),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_app_checks_every_way),
		cmocka_unit_test(test_module_not_regular),
		cmocka_unit_test(test_module_root_confined),
		cmocka_unit_test(test_app_checks_command_line),
		cmocka_unit_test(test_input_bounds),
#ifdef CHECK_EAR
		cmocka_unit_test(test_ear_output),
#endif
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
