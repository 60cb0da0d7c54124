/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTM reports submitted to the provisioner (services/provision/server/
 * report.c): the decision on a REPORT, through ara_decide as the service
 * calls it. The device side is TEST DOUBLES: the ATTEST made as
 * test_check.c's double makes it (the dev-insecure backend) and the RTM
 * report by tests/rtm/verify's document double, whose key is the
 * attested instance key; the App is ara-verify's full-RELRO fixture. On
 * the build machine the VERDICT's EAR is checked by python3-jwt
 * (tests/ear/check_ear.py); in the guest the VERDICT carries none.
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <mbedtls/sha256.h>
#include <sqlite3.h>

#include "ara/boot.h"
#include "binding.h"
#include "bounds.h"
#include "chain.h"
#include "decide.h"
#include "dev_evidence.h"
#include "doc_double.h"
#include "fixture_now.h"
#include "p256.h"
#include "read_whole.h"
#include "record.h"
#include "report.h"

#define BASE 0x5555550000ull
#define APP_PATH "/memfd:" ARA_MEMFD_APP " (deleted)"
#define FIXTURE RTM_FIXTURE_DIR "/rtm_fixture_now"

static struct ara_policy policy;
static uint64_t now_s; /* the clock: PyJWT refuses an EAR issued in the future */
static uint8_t nonce[ARA_WIRE_NONCE] = { 0x5a, 0x17 };
static uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
static uint8_t sk[32], pub[65], app[32], run_id[32] = { 0x33 }, zero[64];
static char dir[] = "/tmp/report-XXXXXX", apps[64];
static struct ara_ear_key ear;
static struct ara_report_ctx reports;
static struct ara_decision out;
static struct ara_rtm_module app_module; /* the fixture's exec segment, mapped at BASE */

static int fake_random(uint8_t *p, size_t n)
{
	memset(p, 0x42, n);
	return 0;
}

/* The ATTEST of the instance whose key signs the reports, for challenge c. */
static size_t make_attest(const uint8_t *c, size_t c_len, uint8_t *msg, size_t cap)
{
	uint8_t share_sk[32], share_pub[65], ikm[32], binding[32], hash[32], sig[64];
	uint8_t evidence[ARA_DEV_INSECURE_EVIDENCE_BYTES];
	struct ara_wire_attest a = { .backend = ARA_EVIDENCE_DEV_INSECURE,
				     .issued_at = now_s - 5, .instance_pub = pub,
				     .name = (const uint8_t *)"ara-rtm", .name_len = 7 };
	size_t len;

	memset(ikm, 2, sizeof(ikm));
	assert_int_equal(ara_hpke_derive_keypair(ikm, sizeof(ikm), share_sk, share_pub), 0);
	a.share_pub = share_pub;
	a.digests = policy.expect;
	assert_int_equal(ara_provision_binding(&a, binding), 0);
	assert_int_equal(ara_dev_insecure_evidence(binding, evidence), 0);
	a.evidence = evidence;
	a.evidence_len = sizeof(evidence);
	assert_int_equal(ara_wire_encode_attest(&a, msg, cap, &len), ARA_WIRE_OK);
	assert_int_equal(ara_provision_session_hash(c, c_len, msg, a.signed_len, hash), 0);
	assert_int_equal(ara_p256_sign(sk, hash, sig), 0);
	ara_wire_set_sig(msg, len, sig);
	return len;
}

/* The report: the App module, one pending entry (entry), final, over n. */
static size_t make_report(uint64_t entry, const uint8_t *n, uint8_t *doc, size_t cap)
{
	uint8_t chain[32], pending[8];
	struct ara_rtm_doc d = { .kind = ARA_RTM_DOC_REPORT, .flags = ARA_RTM_DOC_FINAL,
				 .module_count = 1, .pending_count = 1, .sequence = 1,
				 .entries = 1, .nonce = n, .run_id = run_id, .chain = chain,
				 .app_sha256 = app, .instance_pub = pub, .pending = pending,
				 .sig = zero };
	size_t len;

	for (int i = 0; i < 8; i++)
		pending[i] = (uint8_t)(entry >> (8 * i));
	d.modules[0] = app_module;
	assert_int_equal(ara_rtm_chain_start(run_id, chain), 0);
	assert_int_equal(doc_double_encode(&d, doc, cap, &len), 0);
	doc_double_sign(doc, len);
	return len;
}

/* A REPORT (attest for this session's challenge unless other) into a malloc'd buffer. */
static uint8_t *make_submission(uint64_t entry, const uint8_t *attest_challenge, size_t *len)
{
	static uint8_t attest[8192], doc[4096];
	struct ara_wire_report r = { attest, 0, doc, 0, NULL, 0 };
	size_t cap = 16384;
	uint8_t *msg = malloc(cap);

	assert_non_null(msg);
	r.attest_len = make_attest(attest_challenge, sizeof(challenge), attest, sizeof(attest));
	r.report_len = make_report(entry, nonce, doc, sizeof(doc));
	assert_int_equal(ara_wire_encode_report(&r, msg, cap, len), ARA_WIRE_OK);
	return msg;
}

static const struct ara_decide_store *store; /* NULL: decisions without one */

static int decide(const uint8_t *msg, size_t len, const struct ara_report_ctx *rc)
{
	const struct ara_decide_ctx ctx = { .policy = &policy, .reports = rc,
					    .random = fake_random, .store = store };
	const struct ara_decide_peer peer = { 7, "unix /test", now_s * 1000 };
	int r = ara_decide(&ctx, &peer, challenge, sizeof(challenge), msg, len, &out);
	char line[2048];

	ara_record_json(&out.record, line, sizeof(line));
	print_message("%s\n", line);
	return r;
}

static uint64_t entry(uint64_t vaddr)
{
	return ara_rtm_entry(ARA_RTM_RET, BASE + vaddr);
}

/* The reply as a VERDICT; its EAR checked by python3-jwt where there is one. */
static void expect_verdict(uint8_t verdict, const char *text, const char *claims)
{
	struct ara_wire_verdict_msg v;

	assert_int_equal(ara_wire_decode_verdict(out.reply, out.reply_len, &v), ARA_WIRE_OK);
	assert_int_equal(v.verdict, verdict);
	assert_true(v.text_len >= strlen(text) && memcmp(v.text, text, strlen(text)) == 0);
#ifdef CHECK_EAR
	char path[128], cmd[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/verdict.jwt", dir);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fprintf(f, "%.*s\n", (int)v.token_len, (const char *)v.token),
			 (int)v.token_len + 1);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd),
		 "%s check %s %s/pub.pem %s/other-pub.pem build=ara-provision "
		 "tv.instance-identity=2 %s",
		 CHECK_EAR, path, dir, dir, claims);
	assert_int_equal(system(cmd), 0);
#else
	(void)claims;
	assert_int_equal(v.token_len, 0);
#endif
}

/* Verified: the VERDICT accepts, the EAR affirms, the record says so. */
static void report_verified(void **state)
{
	size_t len;
	uint8_t *msg = make_submission(entry(NOW_fx_ret_bl), challenge, &len);
	char claims[512], hex[65];

	(void)state;
	assert_int_equal(decide(msg, len, &reports), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_VERIFIED);
	assert_true(out.record.attested && out.record.rtm_final && !out.record.revoke);
	assert_int_equal(out.record.rtm_entries, 1);
	assert_memory_equal(out.record.instance, pub, sizeof(pub));
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", app[i]);
	snprintf(claims, sizeof(claims),
		 "ear.status=affirming tv.executables=2 ear.ara.app-sha256=%s rtm.entries=1 "
		 "rtm.final=true ear.ara.reason=absent",
		 hex);
	expect_verdict(ARA_WIRE_VERDICT_ACCEPTED, "OK: 1 entries", claims);
	free(msg);
}

/*
 * Rejected: an illegal transfer, and a report whose signature does not
 * verify. With rtm-rejected revoke in the policy, the record asks for the
 * device's revocation; without it, not.
 */
static void report_rejected(void **state)
{
	size_t len;
	uint8_t *msg = make_submission(entry(NOW_fx_not_ret), challenge, &len);

	(void)state;
	assert_int_equal(decide(msg, len, &reports), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_REJECTED);
	assert_false(out.record.revoke);
	expect_verdict(ARA_WIRE_VERDICT_REJECTED, "REJECTED: entry #0: return to ",
		       "ear.status=contraindicated tv.executables=96 ear.ara.rtm=absent");
	policy.rtm_rejected_revokes = 1;
	assert_int_equal(decide(msg, len, &reports), 0);
	assert_true(out.record.revoke);
	policy.rtm_rejected_revokes = 0;
	free(msg);

	msg = make_submission(entry(NOW_fx_ret_bl), challenge, &len);
	msg[len - 100] ^= 1; /* inside the report's signature */
	assert_int_equal(decide(msg, len, &reports), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_REJECTED);
	expect_verdict(ARA_WIRE_VERDICT_REJECTED, "REJECTED: report: ",
		       "ear.status=contraindicated tv.executables=96");
	free(msg);
}

/* No verdict: refusals, each with its code, and no VERDICT sent. */
static void report_refused(void **state)
{
	uint8_t other[ARA_WIRE_HEADER + ARA_WIRE_NONCE], other_nonce[32] = { 1 };
	struct ara_report_ctx no_app = reports;
	struct ara_wire_refuse f;
	size_t len, n;
	uint8_t *msg;

	(void)state;
	/* The ATTEST answers another challenge: the instance is not attested here. */
	assert_int_equal(ara_wire_encode_challenge(other_nonce, other, sizeof(other), &n), 0);
	msg = make_submission(entry(NOW_fx_ret_bl), other, &len);
	assert_int_equal(decide(msg, len, &reports), ARA_REFUSE_SESSION);
	assert_int_equal(out.record.decision, ARA_DECISION_REFUSED);
	assert_int_equal(ara_wire_decode_refuse(out.reply, out.reply_len, &f), ARA_WIRE_OK);
	free(msg);

	msg = make_submission(entry(NOW_fx_ret_bl), challenge, &len);
	/* A provisioner that verifies no reports. */
	assert_int_equal(decide(msg, len, NULL), ARA_REFUSE_INTERNAL);
	assert_non_null(strstr(out.record.reason, "RTM reports are not verified here"));
	/* The App's file is not among the provisioner's: no decision, nothing held against it. */
	no_app.apps = "/nonexistent";
	assert_int_equal(decide(msg, len, &no_app), ARA_REFUSE_INTERNAL);
	assert_non_null(strstr(out.record.reason, "/nonexistent/"));
	assert_int_equal(out.record.revoke, 0);
	/* A REPORT cut short, and one with a byte more. */
	msg[11] ^= 1;
	assert_int_equal(decide(msg, len, &reports), ARA_REFUSE_MALFORMED);
	msg[11] ^= 1;
	assert_int_equal(decide(msg, len - 1, &reports), ARA_REFUSE_MALFORMED);
	free(msg);
}

/* One number from the store's database, by SQL of our own (store.h lists no reports). */
static int64_t query(const char *url, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v;

	assert_int_equal(sqlite3_open_v2(url + strlen("sqlite:"), &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/*
 * With a store: each verdict kept with its report and audited; under
 * rtm-rejected revoke, a rejected report revokes its device (dev-insecure
 * evidence has none: the device is given here as tpm evidence's AK would).
 */
static void report_stored(void **state)
{
	static struct ara_decide_store st;
	const struct ara_decide_device dev = { "phone-7", 1 };
	struct ara_store_report row = { .time_ms = 1, .verified = 0, .detail = "entry #0: bad",
					.report = (const uint8_t *)"R", .report_len = 1, .ear = "" };
	struct ara_store_device got;
	struct ara_store *s;
	char why[256];
	uint32_t version;
	size_t len;
	uint8_t *ok = make_submission(entry(NOW_fx_ret_bl), challenge, &len), *bad;

	(void)state;
	snprintf(st.url, sizeof(st.url), "sqlite:%s/store.db", dir);
	memset(st.kek, 0x21, sizeof(st.kek));
	snprintf(st.service, sizeof(st.service), "test");
	policy.rtm_rejected_revokes = 1;
	assert_int_equal(ara_decide_store_import(&st, &policy, &version, why, sizeof(why)), 0);
	store = &st;
	assert_int_equal(decide(ok, len, &reports), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_VERIFIED);
	expect_verdict(ARA_WIRE_VERDICT_ACCEPTED, "OK: 1 entries",
		       "ear.status=affirming \"ear.appraisal-policy-id=policy version 1\"");
	bad = make_submission(entry(NOW_fx_not_ret), challenge, &len);
	assert_int_equal(decide(bad, len, &reports), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_REJECTED);
	assert_true(out.record.revoke); /* the store's policy kept the directive */
	store = NULL;
	assert_int_equal(query(st.url, "SELECT count(*) FROM reports"), 2);
	assert_int_equal(query(st.url, "SELECT sum(verified) FROM reports"), 1);
	assert_int_equal(query(st.url, "SELECT count(*) FROM reports WHERE length(report) > 256"
				    " AND device = '' AND final = verified AND entries = verified"),
			 2);
	assert_int_equal(query(st.url, "SELECT count(*) FROM audit WHERE decision IN"
				    " ('rtm-verified', 'rtm-rejected')"),
			 2);

	/* A device's rejected report revokes it; a second one leaves the first reason. */
	assert_non_null(s = ara_store_open(st.url, why, sizeof(why)));
	assert_int_equal(s->ops->device_add(s, "phone-7", 1), ARA_STORE_OK);
	assert_int_equal(ara_decide_store_report(&st, &dev, &row, 1, why, sizeof(why)), 0);
	snprintf(row.detail, sizeof(row.detail), "another");
	assert_int_equal(ara_decide_store_report(&st, &dev, &row, 1, why, sizeof(why)), 0);
	assert_int_equal(s->ops->device_get(s, "phone-7", &got), ARA_STORE_OK);
	assert_true(got.revoked_ms > 0);
	assert_string_equal(got.revoke_reason, "entry #0: bad");
	assert_int_equal(query(st.url, "SELECT count(*) FROM reports WHERE device = 'phone-7'"), 2);
	ara_store_close(s);
	ara_decide_store_release();
	policy.rtm_rejected_revokes = 0;
	free(ok);
	free(bad);
}

/* The two messages' encoders and decoders, and the REPORT's own size bound. */
static void report_wire(void **state)
{
	uint8_t hdr[ARA_WIRE_HEADER] = { 'A', 'R', 'A', 'P', 1, ARA_WIRE_REPORT, 0, 0 }, type,
		msg[512];
	struct ara_wire_verdict_msg v;
	size_t total, len;
	uint32_t body = ARA_WIRE_REPORT_BODY_MAX;

	(void)state;
	hdr[8] = (uint8_t)(body >> 24), hdr[9] = (uint8_t)(body >> 16);
	hdr[10] = (uint8_t)(body >> 8), hdr[11] = (uint8_t)body;
	assert_int_equal(ara_wire_peek(hdr, sizeof(hdr), &type, &total), ARA_WIRE_OK);
	assert_int_equal(total, ARA_WIRE_HEADER + ARA_WIRE_REPORT_BODY_MAX);
	hdr[11]++;
	assert_int_equal(ara_wire_peek(hdr, sizeof(hdr), &type, &total), ARA_WIRE_E_FIELD);
	/* An ATTEST keeps its own, smaller bound. */
	hdr[5] = ARA_WIRE_ATTEST;
	hdr[11]--;
	assert_int_equal(ara_wire_peek(hdr, sizeof(hdr), &type, &total), ARA_WIRE_E_FIELD);

	assert_int_equal(ara_wire_encode_verdict(ARA_WIRE_VERDICT_REJECTED, "why\n", "a.b.c", msg,
						 sizeof(msg), &len),
			 ARA_WIRE_OK);
	assert_int_equal(ara_wire_decode_verdict(msg, len, &v), ARA_WIRE_OK);
	assert_int_equal(v.verdict, ARA_WIRE_VERDICT_REJECTED);
	assert_memory_equal(v.text, "why?", 4);
	assert_memory_equal(v.token, "a.b.c", 5);
	msg[ARA_WIRE_HEADER] = 2; /* no such verdict */
	assert_int_equal(ara_wire_decode_verdict(msg, len, &v), ARA_WIRE_E_FIELD);
	assert_int_equal(ara_wire_encode_verdict(3, "", "", msg, sizeof(msg), &len),
			 ARA_WIRE_E_FIELD);
	assert_int_equal(ara_wire_encode_verdict(0, "", "not\ta token", msg, sizeof(msg), &len),
			 ARA_WIRE_E_FIELD);
}

/* The module record of the fixture's executable segment, as /proc/self/maps would show it. */
static struct ara_rtm_module exec_segment(const uint8_t *elf)
{
	struct ara_rtm_module m = { .path = (const uint8_t *)APP_PATH,
				    .path_len = sizeof(APP_PATH) - 1 };
	Elf64_Ehdr eh;

	memcpy(&eh, elf, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, elf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		m.start = BASE + (ph.p_vaddr & ~0xfffull);
		m.end = BASE + ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffull);
		m.offset = ph.p_offset & ~0xfffull;
	}
	assert_int_not_equal(m.end, 0);
	return m;
}

static int setup(void **state)
{
	char path[128], cmd[512];
	uint8_t *elf;
	size_t size, len;
	FILE *f;

	(void)state;
	now_s = (uint64_t)time(NULL);
	doc_double_key(sk, pub);
	assert_int_equal(ara_read_whole(FIXTURE, ARA_RTM_MODULE_FILE_MAX, &elf, &size), 0);
	assert_int_equal(mbedtls_sha256(elf, size, app, 0), 0);
	memset(&policy, 0, sizeof(policy));
	policy.backends = 1u << ARA_EVIDENCE_DEV_INSECURE;
	policy.max_age = 60;
	memset(policy.expect.loader, 1, 32);
	memset(policy.expect.libara, 2, 32);
	memset(policy.expect.entry, 3, 32);
	memcpy(policy.expect.app, app, 32);
	assert_int_equal(ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &len), 0);

	/* The provisioner's App files: the fixture, named by its digest. */
	assert_non_null(mkdtemp(dir));
	snprintf(apps, sizeof(apps), "%s/apps", dir);
	assert_int_equal(mkdir(apps, 0700), 0);
	len = (size_t)snprintf(path, sizeof(path), "%s/", apps);
	for (int i = 0; i < 32; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x", app[i]);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(elf, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	app_module = exec_segment(elf);
	free(elf);
	reports = (struct ara_report_ctx){ .apps = apps, .build = "ara-provision test" };
#ifdef CHECK_EAR
	char why[256];

	snprintf(cmd, sizeof(cmd), "%s keygen %s", CHECK_EAR, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/key.pem", dir);
	assert_int_equal(ara_ear_key_load(path, &ear, why, sizeof(why)), 0);
	reports.ear = &ear;
#else
	(void)cmd;
	(void)ear;
#endif
	return 0;
}

/* A record longer than its buffer is cut, and its line still ends: the next record stays whole. */
static void record_cut_ends_its_line(void **state)
{
	char detail[300], line[64], whole[128];

	(void)state;
	memset(detail, 'x', sizeof(detail) - 1);
	detail[sizeof(detail) - 1] = '\0';
	ara_event_json(1, "reload", "unix /test", detail, line, sizeof(line));
	assert_int_equal(strlen(line), sizeof(line) - 1);
	assert_int_equal(line[sizeof(line) - 2], '\n');
	ara_event_json(1, "reload", NULL, "short", whole, sizeof(whole));
	assert_int_equal(whole[strlen(whole) - 1], '\n');
	assert_int_equal(whole[strlen(whole) - 2], '}');
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_cut_ends_its_line),
		cmocka_unit_test(report_verified),
		cmocka_unit_test(report_rejected),
		cmocka_unit_test(report_refused),
		cmocka_unit_test(report_wire),
		cmocka_unit_test(report_stored),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
