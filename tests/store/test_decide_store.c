/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision with a store (decide.c, decide_store.c) on the SQLite
 * backend, with ATTESTs made by a test double of the device (the wire,
 * binding and signature code DOM0 runs, dev-insecure evidence): a policy
 * file put into the store; allowlists; a once-only secret delivered once;
 * a new policy version taking effect with no restart; one audit record per
 * decision; no DELIVER when its audit record cannot be kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "binding.h"
#include "check.h"
#include "decide.h"
#include "dev_evidence.h"
#include "kek.h"
#include "p256.h"
#include "store.h"

#define D(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c
#define APP1 D("44")
#define APP2 D("45")
#define POLICY_TEXT                                                                         \
	"backend dev-insecure\nmax-age 60\nloader " D("01") "\nlibara " D("02")               \
	"\nentry " D("03") "\napp " APP1 "\napp " APP2 "\nsecrets secrets\n"

static char dir[] = "/tmp/ara-decide-store-XXXXXX";
static char db_path[128], url[160];
static struct ara_policy policy;
static struct ara_decide_store store;
static uint8_t challenge[ARA_WIRE_HEADER + ARA_WIRE_NONCE];
static uint8_t msg[4096];
static size_t msg_len;

static int fake_random(uint8_t *out, size_t n)
{
	memset(out, 0x33, n);
	return 0;
}

static void keypair(uint8_t seed, uint8_t sk[32], uint8_t pk[65])
{
	uint8_t ikm[32];

	memset(ikm, seed, sizeof(ikm));
	assert_int_equal(ara_hpke_derive_keypair(ikm, sizeof(ikm), sk, pk), 0);
}

/* The device double: the ATTEST a genuine instance of app (a digest) makes, into msg. */
static void attest(uint8_t app_byte, const char *secret)
{
	uint8_t sk[32], pub[65], share_sk[32], share_pub[65], binding[32], hash[32], sig[64];
	uint8_t evidence[ARA_DEV_INSECURE_EVIDENCE_BYTES];
	struct timeval tv;
	struct ara_wire_attest a;

	gettimeofday(&tv, NULL);
	keypair(1, sk, pub);
	keypair(2, share_sk, share_pub);
	a = (struct ara_wire_attest){ .backend = ARA_EVIDENCE_DEV_INSECURE,
				      .issued_at = (uint64_t)tv.tv_sec, .instance_pub = pub,
				      .share_pub = share_pub, .name = (const uint8_t *)secret,
				      .name_len = strlen(secret) };
	memset(a.digests.loader, 1, 32);
	memset(a.digests.libara, 2, 32);
	memset(a.digests.entry, 3, 32);
	memset(a.digests.app, app_byte, 32);
	assert_int_equal(ara_provision_binding(&a, binding), 0);
	assert_int_equal(ara_dev_insecure_evidence(binding, evidence), 0);
	a.evidence = evidence;
	a.evidence_len = sizeof(evidence);
	assert_int_equal(ara_wire_encode_attest(&a, msg, sizeof(msg), &msg_len), ARA_WIRE_OK);
	assert_int_equal(ara_provision_session_hash(challenge, sizeof(challenge), msg, a.signed_len,
						    hash), 0);
	assert_int_equal(ara_p256_sign(sk, hash, sig), 0);
	ara_wire_set_sig(msg, msg_len, sig);
}

static int decide(struct ara_decision *out)
{
	static const struct ara_decide_ctx ctx = { .random = fake_random, .store = &store };
	struct timeval tv;
	struct ara_decide_peer peer = { 7, "unix /run/test", 0 };

	gettimeofday(&tv, NULL);
	peer.now_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	return ara_decide(&ctx, &peer, challenge, sizeof(challenge), msg, msg_len, out);
}

static long long count(const char *text)
{
	sqlite3_stmt *st;
	sqlite3 *db;
	long long n;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, text, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static void exec(const char *text)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, text, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fchmod(fileno(f), 0600), 0); /* a secrets file others may read is refused */
	fputs(text, f);
	fclose(f);
}

/* The policy file (two App builds allowed) put into a fresh store. */
static void import_policy(void)
{
	char path[256], why[512] = "";
	uint32_t v = 0;

	write_file("secrets", "media-key " D("77") "\n");
	write_file("policy", POLICY_TEXT);
	snprintf(path, sizeof(path), "%s/policy", dir);
	if (ara_policy_load(path, &policy, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(policy.n_more, 1);
	if (ara_decide_store_import(&store, &policy, &v, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(v, 1);
	/* The same file again: nothing new. */
	assert_int_equal(ara_decide_store_import(&store, &policy, &v, why, sizeof(why)), 0);
	assert_int_equal(v, 1);
	assert_int_equal(count("SELECT count(*) FROM secrets"), 1);
}

static void test_decisions(void **state)
{
	struct ara_decision out;
	char why[256];
	struct ara_store *s;
	struct ara_store_secret once = { .name = "one-time", .once = 1 };
	uint32_t v;

	(void)state;
	import_policy();
	attest(0x44, "media-key");
	assert_int_equal(decide(&out), 0);
	assert_int_equal(out.record.decision, ARA_DECISION_DELIVERED);
	attest(0x45, "media-key"); /* the other allowed build */
	assert_int_equal(decide(&out), 0);
	attest(0x46, "media-key");
	assert_int_equal(decide(&out), ARA_REFUSE_MEASUREMENT);
	attest(0x44, "nothing");
	assert_int_equal(decide(&out), ARA_REFUSE_SECRET);
	assert_int_equal(count("SELECT count(*) FROM deliveries WHERE secret = 'media-key'"), 2);

	/* A once-only secret: delivered once, then refused. */
	s = ara_store_open(url, why, sizeof(why));
	assert_non_null(s);
	once.version = 1;
	assert_int_equal(ara_kek_seal(store.kek, &once, (const uint8_t *)"abc", 3), 0);
	assert_int_equal(s->ops->secret_put(s, &once), ARA_STORE_OK);
	attest(0x44, "one-time");
	assert_int_equal(decide(&out), 0);
	assert_int_equal(decide(&out), ARA_REFUSE_SECRET);
	assert_non_null(strstr(out.record.reason, "once-only"));

	/* A new policy version, App build 2 no longer allowed: the next decision holds to it. */
	assert_int_equal(s->ops->policy_add(s,
					    "backend dev-insecure\nmax-age 60\nloader " D("01")
					    "\nlibara " D("02") "\nentry " D("03") "\napp " APP1 "\n",
					    1, &v),
			 ARA_STORE_OK);
	assert_int_equal(v, 2);
	ara_store_close(s);
	attest(0x45, "media-key");
	assert_int_equal(decide(&out), ARA_REFUSE_MEASUREMENT);
	attest(0x44, "media-key");
	assert_int_equal(decide(&out), 0);

	/* One audit record per decision, with its reason and the policy version. */
	assert_int_equal(count("SELECT count(*) FROM audit"), 8);
	assert_int_equal(count("SELECT count(*) FROM audit WHERE decision = 'refused'"), 4);
	assert_int_equal(count("SELECT count(*) FROM audit WHERE reason = 'measurement'"), 2);
	assert_int_equal(count("SELECT count(*) FROM audit WHERE policy_version = 2"), 2);
	assert_int_equal(count("SELECT count(*) FROM audit WHERE peer = 'unix /run/test'"
			       " AND session = 7 AND time_ms > 0"), 8);
}

static void test_io_record_audited(void **state)
{
	static const struct ara_decide_ctx ctx = { .random = fake_random, .store = &store };
	struct ara_decide_peer peer = { 9, "tcp 127.0.0.1:1", 1000 };
	struct ara_decision out;
	char why[256];

	(void)state;
	ara_decide_refuse(&peer, ARA_REFUSE_MALFORMED, "truncated ATTEST", &out);
	assert_int_equal(ara_decide_audit(&ctx, &out.record, why, sizeof(why)), 0);
	assert_int_equal(count("SELECT count(*) FROM audit WHERE session = 9 AND"
			       " reason = 'malformed' AND detail = 'truncated ATTEST'"), 1);
}

static void test_no_record_no_deliver(void **state)
{
	struct ara_decision out;

	(void)state;
	exec("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit"
	     " BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;");
	attest(0x44, "media-key");
	assert_int_equal(decide(&out), ARA_REFUSE_INTERNAL);
	assert_int_equal(out.record.decision, ARA_DECISION_REFUSED);
	assert_non_null(strstr(out.record.reason, "disk full (test)"));
	{
		uint8_t type = 0;
		size_t total;

		assert_int_equal(ara_wire_peek(out.reply, out.reply_len, &type, &total), ARA_WIRE_OK);
		assert_int_equal(type, ARA_WIRE_REFUSE);
	}
	exec("DROP TRIGGER refuse_audit");
}

/* A once-only version, sealed as the operator's `secret add --once` seals it. */
static void put_once(uint8_t byte)
{
	struct ara_store_secret in, newest;
	uint8_t value[32];
	char why[256];
	struct ara_store *s = ara_store_open(store.url, why, sizeof(why));

	assert_non_null(s);
	assert_int_equal(s->ops->secret_get(s, "media-key", &newest), ARA_STORE_OK);
	in = (struct ara_store_secret){ .name = "media-key", .version = newest.version + 1,
					.once = 1, .created_ms = 1 };
	memset(value, byte, sizeof(value));
	assert_int_equal(ara_kek_seal(store.kek, &in, value, sizeof(value)), 0);
	assert_int_equal(s->ops->secret_put(s, &in), ARA_STORE_OK);
	ara_store_close(s);
}

/*
 * The policy file never replaces an operator's once-only version with its
 * own value (a new version, deliverable again): the import is refused.
 * Its twin: the file's value is the once-only version's, nothing to do.
 */
static void test_import_keeps_once(void **state)
{
	char why[512] = "";
	uint32_t v = 0;

	(void)state;
	put_once(0x55);
	assert_int_equal(ara_decide_store_import(&store, &policy, &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "secret 'media-key': the store's newest version"));
	assert_non_null(strstr(why, "is once-only"));
	put_once(0x77); /* the file's value */
	assert_int_equal(ara_decide_store_import(&store, &policy, &v, why, sizeof(why)), 0);
}

/*
 * A stale policy file (one a version already holds), imported again at an
 * instance's restart, adds nothing: the operator's newer version stays the
 * newest. Its twin: a file with new directives is a new version.
 */
static void test_stale_file_keeps_newest(void **state)
{
	char why[512] = "";
	uint32_t v = 0, newest = 0;
	struct ara_store *s = ara_store_open(store.url, why, sizeof(why));

	(void)state;
	assert_non_null(s);
	assert_int_equal(s->ops->policy_newest(s, &newest), ARA_STORE_OK);
	assert_int_equal(s->ops->policy_add(s, "backend dev-insecure\nmax-age 60\n", 2, &v),
			 ARA_STORE_OK);
	assert_int_equal(v, newest + 1);
	assert_int_equal(ara_decide_store_import(&store, &policy, &v, why, sizeof(why)), 0);
	assert_int_equal(v, newest + 1);
	assert_int_equal(s->ops->policy_newest(s, &v), ARA_STORE_OK);
	assert_int_equal(v, newest + 1);
	/* The twin: the file with another max-age is new. */
	policy.max_age = 61;
	assert_int_equal(ara_decide_store_import(&store, &policy, &v, why, sizeof(why)), 0);
	assert_int_equal(v, newest + 2);
	ara_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decisions),
		cmocka_unit_test(test_io_record_audited),
		cmocka_unit_test(test_no_record_no_deliver),
		cmocka_unit_test(test_import_keeps_once),
		cmocka_unit_test(test_stale_file_keeps_newest),
	};
	uint8_t nonce[ARA_WIRE_NONCE] = { 0x5a };
	char cmd[64];
	size_t len;
	int r;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(db_path, sizeof(db_path), "%s/store.db", dir);
	snprintf(url, sizeof(url), "sqlite:%s", db_path);
	snprintf(store.url, sizeof(store.url), "%s", url);
	memset(store.kek, 0x21, sizeof(store.kek));
	snprintf(store.service, sizeof(store.service), "test");
	if (ara_wire_encode_challenge(nonce, challenge, sizeof(challenge), &len))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	ara_decide_store_release();
	ara_policy_wipe(&policy);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return r;
}
