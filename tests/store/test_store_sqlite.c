/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite backend of the provisioning service's store (store.h,
 * store_sqlite.c) and the KEK (kek.h): every operation with its refusals;
 * the once-only claim raced by two processes on one database file; the
 * migrations from an empty file and from the previous schema version; the
 * KEK file's refusals; and that no secret reaches the database file in
 * plaintext.
 *
 * Built with ARA_TEST_PG, the same tests run on the PostgreSQL backend
 * (store_pg.c), on the server whose URL is $ARA_PG_URL (tests/pg's
 * pg-harness.sh starts one), each test in a schema of its own; the tests
 * of the SQLite file itself (its mode, its bytes) are SQLite's alone.
 */
#define _GNU_SOURCE /* memmem */
#include <inttypes.h>
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

#include "ara/hex.h"
#include "kek.h"
#include "store.h"

/* The backend under test: its ops, its migrate_to(), raw SQL behind its back. */
#ifdef ARA_TEST_PG
#include <libpq-fe.h>

#include "store_pg.h"
#define BACKEND ara_store_pg_ops
#define migrate_to ara_store_pg_migrate_to
#define BLOB(hex) "'\\x" hex "'::bytea"
#define BLOB_FMT "'\\x%s'::bytea"
#else
#include <sqlite3.h>

#include "store_sqlite.h"
#define BACKEND ara_store_sqlite_ops
#define migrate_to ara_store_sqlite_migrate_to
#define BLOB(hex) "x'" hex "'"
#define BLOB_FMT "x'%s'"
#endif
#define RAW_OK 0 /* raw()'s success */

static char dir[] = "/tmp/ara-store-XXXXXX";
static char url[512];
static char where[160]; /* how the backend's messages name the database */
#ifndef ARA_TEST_PG
static char db_path[128];
#endif

static struct ara_store *open_store(void)
{
	char why[256] = "";
	struct ara_store *s = ara_store_open(url, why, sizeof(why));

	if (!s)
		fail_msg("%s", why);
	return s;
}

#ifdef ARA_TEST_PG
/* A fresh schema for each test, first on the search path of url. */
static int setup(void **state)
{
	static unsigned n;
	const char *server = getenv("ARA_PG_URL");
	PGresult *r;
	PGconn *c;
	char sql[64];

	(void)state;
	if (!server || !*server)
		fail_msg("ARA_PG_URL is not set: run this test under tests/pg/pg-harness.sh run");
	snprintf(url, sizeof(url), "%s?options=-c%%20search_path%%3Dt%u_%ld", server, ++n,
		 (long)getpid());
	c = PQconnectdb(server);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("%s", PQerrorMessage(c));
	snprintf(sql, sizeof(sql), "CREATE SCHEMA t%u_%ld", n, (long)getpid());
	r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s", PQresultErrorMessage(r));
	PQclear(r);
	PQfinish(c);
	snprintf(where, sizeof(where), "postgresql 127.0.0.1:");
	return 0;
}

/* Runs SQL in the test's schema behind the store's back: 0 (RAW_OK) or 1. */
static int raw(const char *text)
{
	PGconn *c = PQconnectdb(url);
	ExecStatusType st;
	PGresult *r;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, text);
	st = PQresultStatus(r);
	PQclear(r);
	PQfinish(c);
	return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? RAW_OK : 1;
}

/* The one integer a query gives, read behind the store's back. */
static long long raw_count(const char *text)
{
	PGconn *c = PQconnectdb(url);
	long long n;
	PGresult *r;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	r = PQexec(c, text);
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	assert_int_equal(PQntuples(r), 1);
	n = atoll(PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
	return n;
}
#else
/* A fresh database file for each test. */
static int setup(void **state)
{
	static unsigned n;

	(void)state;
	snprintf(db_path, sizeof(db_path), "%s/store-%u.db", dir, ++n);
	snprintf(url, sizeof(url), "sqlite:%s", db_path);
	snprintf(where, sizeof(where), "%s", db_path);
	return 0;
}

/* Runs SQL on the file behind the store's back: 0 (RAW_OK), or SQLite's code. */
static int raw(const char *text)
{
	sqlite3 *db;
	int rc;

	assert_int_equal(sqlite3_open(db_path, &db), RAW_OK);
	sqlite3_busy_timeout(db, 5000);
	rc = sqlite3_exec(db, text, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* The one integer a query gives, read behind the store's back. */
static long long raw_count(const char *text)
{
	sqlite3_stmt *st;
	sqlite3 *db;
	long long n;

	assert_int_equal(sqlite3_open(db_path, &db), RAW_OK);
	assert_int_equal(sqlite3_prepare_v2(db, text, -1, &st, NULL), RAW_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}
#endif

static void test_migrate_empty(void **state)
{
	char why[256];
	struct ara_store *s;
	struct stat st;
	int from = -1;

	(void)state;
	s = open_store(); /* ara_store_open migrates */
	assert_int_equal(s->ops->migrate(s, &from), ARA_STORE_OK);
	assert_int_equal(from, ARA_STORE_SCHEMA_VERSION); /* nothing left to do */
	ara_store_close(s);
#ifdef ARA_TEST_PG
	(void)st;
#else
	assert_int_equal(stat(db_path, &st), 0);
	assert_int_equal(st.st_mode & 077, 0); /* created private */
#endif

	/* The same through the backend alone: from version 0. */
	setup(NULL);
	s = BACKEND.open(url, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(s->ops->migrate(s, &from), ARA_STORE_OK);
	assert_int_equal(from, 0);
	ara_store_close(s);
}

static void test_migrate_previous(void **state)
{
	struct ara_store_audit a = { .time_ms = 5, .decision = "refused", .reason = "stale" };
	struct ara_store_device d;
	char why[256];
	struct ara_store *s;
	int from = -1;

	(void)state;
	s = BACKEND.open(url, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(migrate_to(s, 1, &from), ARA_STORE_OK);
	assert_int_equal(from, 0);
	assert_int_equal(s->ops->device_add(s, "dev-1", 7), ARA_STORE_OK);
	assert_int_equal(s->ops->audit_append(s, &a), ARA_STORE_OK);
	ara_store_close(s);
	assert_int_equal(raw("INSERT INTO deliveries (time_ms, peer, session, service, device,"
			     " instance_pub, app, secret, secret_version, once)"
			     " VALUES (1, '', 1, '', '', " BLOB("04") ", " BLOB("00") ", 's', 1, 0)"),
			 RAW_OK);
	/* Version 1 has no append-only triggers yet. */
	assert_int_equal(raw("UPDATE audit SET reason = 'x' WHERE reason = 'x'"), RAW_OK);

	s = BACKEND.open(url, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(s->ops->migrate(s, &from), ARA_STORE_OK);
	assert_int_equal(from, 1);
	assert_int_equal(s->ops->device_get(s, "dev-1", &d), ARA_STORE_OK);
	assert_int_equal(d.enrolled_ms, 7);
	ara_store_close(s);
	assert_int_not_equal(raw("UPDATE audit SET reason = 'x'"), RAW_OK);
	assert_int_not_equal(raw("DELETE FROM audit"), RAW_OK);
	assert_int_not_equal(raw("DELETE FROM deliveries"), RAW_OK);
}

static void test_migrate_newer_refused(void **state)
{
	char why[256] = "";
	struct ara_store *s;

	(void)state;
	ara_store_close(open_store());
	assert_int_equal(raw("INSERT INTO ara_schema VALUES (99, 0)"), RAW_OK);
	s = ara_store_open(url, why, sizeof(why));
	assert_null(s);
	assert_non_null(strstr(why, "newer than this program"));
	assert_non_null(strstr(why, where));
}

static void test_open_refusals(void **state)
{
	char why[256] = "";

	(void)state;
	assert_null(ara_store_open("mysql://x", why, sizeof(why)));
	assert_non_null(strstr(why, "not a store this program has"));
	assert_null(ara_store_open("sqlite:/nonexistent-dir/x.db", why, sizeof(why)));
	assert_non_null(strstr(why, "/nonexistent-dir/x.db"));
	assert_non_null(strstr(why, "No such file"));
}

/* A store URL as the log shows it: no password. */
static void test_url_redacted(void **state)
{
	static const char *const cases[][2] = {
		{ "postgresql://ara:s3cret@127.0.0.1:5432/ara", "postgresql://ara:***@127.0.0.1:5432/ara" },
		{ "postgresql://127.0.0.1:5432/ara", "postgresql://127.0.0.1:5432/ara" },
		{ "postgresql://ara@db/ara?sslmode=require&password=s3cret&x=1",
		  "postgresql://ara@db/ara?sslmode=require&password=***&x=1" },
		{ "sqlite:/var/lib/ara-provision/store.db", "sqlite:/var/lib/ara-provision/store.db" },
	};
	char out[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ara_store_url_redacted(cases[i][0], out, sizeof(out));
		assert_string_equal(out, cases[i][1]);
	}
	ara_store_url_redacted(cases[0][0], out, 12); /* cut short, still terminated */
	assert_true(strlen(out) < 12);
}

static int count_device(void *ctx, const struct ara_store_device *d)
{
	(void)d;
	++*(int *)ctx;
	return 0;
}

static struct ara_store_delivery delivery(const char *secret, uint32_t version, int once)
{
	struct ara_store_delivery d = { .time_ms = 9, .session = 1, .secret_version = version,
					.once = once };

	snprintf(d.secret, sizeof(d.secret), "%s", secret);
	snprintf(d.peer, sizeof(d.peer), "unix /run/p");
	snprintf(d.device, sizeof(d.device), "dev-1");
	memset(d.instance_pub, 4, sizeof(d.instance_pub));
	memset(d.app, 0xaa, sizeof(d.app));
	return d;
}

/* deliver() of d with its audit record: device's attestation at time_ms. */
static int deliver(struct ara_store *s, struct ara_store_delivery *d, const char *device,
		   int64_t time_ms)
{
	struct ara_store_audit a = { .time_ms = time_ms, .session = d->session,
				     .policy_version = 1 };

	snprintf(a.peer, sizeof(a.peer), "%s", d->peer);
	snprintf(a.decision, sizeof(a.decision), "delivered");
	snprintf(a.device, sizeof(a.device), "%s", device);
	snprintf(a.secret, sizeof(a.secret), "%s", d->secret);
	return s->ops->deliver(s, d, &a);
}

static void test_devices(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_delivery del = delivery("many", 1, 0);
	struct ara_store_device d;
	int n = 0;

	(void)state;
	assert_int_equal(s->ops->device_add(s, "dev-1", 100), ARA_STORE_OK);
	assert_int_equal(s->ops->device_add(s, "dev-2", 101), ARA_STORE_OK);
	assert_int_equal(s->ops->device_add(s, "dev-1", 102), ARA_STORE_CONFLICT);
	assert_int_equal(s->ops->device_add(s, "bad id", 102), ARA_STORE_ERROR);
	assert_non_null(strstr(s->why, "bad id"));
	assert_int_equal(s->ops->device_get(s, "dev-1", &d), ARA_STORE_OK);
	assert_string_equal(d.id, "dev-1");
	assert_int_equal(d.enrolled_ms, 100);
	assert_int_equal(d.revoked_ms, 0);
	assert_int_equal(d.last_attest_ms, 0);
	assert_int_equal(s->ops->device_get(s, "dev-9", &d), ARA_STORE_NOT_FOUND);

	assert_int_equal(deliver(s, &del, "dev-1", 500), ARA_STORE_OK);
	assert_int_equal(deliver(s, &del, "dev-1", 400), ARA_STORE_OK); /* never back */
	assert_int_equal(s->ops->device_get(s, "dev-1", &d), ARA_STORE_OK);
	assert_int_equal(d.last_attest_ms, 500);
	assert_int_equal(s->ops->device_get(s, "dev-2", &d), ARA_STORE_OK);
	assert_int_equal(d.last_attest_ms, 0);
	/* A device that is not there is not made by a delivery. */
	assert_int_equal(deliver(s, &del, "dev-9", 600), ARA_STORE_OK);
	assert_int_equal(s->ops->device_get(s, "dev-9", &d), ARA_STORE_NOT_FOUND);
	assert_int_equal(deliver(s, &del, "bad id", 600), ARA_STORE_ERROR);

	assert_int_equal(s->ops->device_revoke(s, "dev-2", "stolen", 600), ARA_STORE_OK);
	assert_int_equal(s->ops->device_revoke(s, "dev-2", "again", 700), ARA_STORE_CONFLICT);
	assert_int_equal(s->ops->device_revoke(s, "dev-9", "x", 700), ARA_STORE_NOT_FOUND);
	assert_int_equal(s->ops->device_get(s, "dev-2", &d), ARA_STORE_OK);
	assert_int_equal(d.revoked_ms, 600);
	assert_string_equal(d.revoke_reason, "stolen");
	assert_int_equal(s->ops->device_list(s, count_device, &n), ARA_STORE_OK);
	assert_int_equal(n, 2);
	ara_store_close(s);
}

static void test_aks(void **state)
{
	struct ara_store *s = open_store();
	static struct ara_store_ak ak, got;
	struct ara_store_device d;

	(void)state;
	memset(ak.signer, 0xa1, sizeof(ak.signer));
	memset(ak.pub, 0x04, sizeof(ak.pub));
	memcpy(ak.device, "dev-1", 6);
	memset(ak.ek_chain, 0x30, 1000);
	ak.ek_chain_len = 1000;
	ak.enrolled_ms = 10;
	assert_int_equal(s->ops->ak_add(s, &ak), ARA_STORE_NOT_FOUND); /* no such device */
	assert_int_equal(s->ops->device_add(s, "dev-1", 1), ARA_STORE_OK);
	assert_int_equal(s->ops->ak_add(s, &ak), ARA_STORE_OK);
	assert_int_equal(s->ops->ak_add(s, &ak), ARA_STORE_CONFLICT);
	/* A second AK of the same device (a TPM replaced): no EK chain. */
	ak.signer[0] = 0xb2;
	ak.ek_chain_len = 0;
	assert_int_equal(s->ops->ak_add(s, &ak), ARA_STORE_OK);

	ak.signer[0] = 0xa1;
	assert_int_equal(s->ops->ak_find(s, ak.signer, &got, &d), ARA_STORE_OK);
	assert_string_equal(got.device, "dev-1");
	assert_memory_equal(got.pub, ak.pub, sizeof(ak.pub));
	assert_int_equal(got.ek_chain_len, 1000);
	assert_memory_equal(got.ek_chain, ak.ek_chain, 1000);
	assert_int_equal(got.enrolled_ms, 10);
	assert_int_equal(got.revoked_ms, 0);
	assert_string_equal(d.id, "dev-1");

	assert_int_equal(s->ops->ak_revoke(s, ak.signer, 20), ARA_STORE_OK);
	assert_int_equal(s->ops->ak_revoke(s, ak.signer, 30), ARA_STORE_NOT_FOUND);
	assert_int_equal(s->ops->ak_find(s, ak.signer, &got, &d), ARA_STORE_OK);
	assert_int_equal(got.revoked_ms, 20);
	/* The device's revocation shows with each of its AKs. */
	ak.signer[0] = 0xb2;
	assert_int_equal(s->ops->device_revoke(s, "dev-1", "retired", 40), ARA_STORE_OK);
	assert_int_equal(s->ops->ak_find(s, ak.signer, &got, &d), ARA_STORE_OK);
	assert_int_equal(got.revoked_ms, 0);
	assert_int_equal(d.revoked_ms, 40);
	ak.signer[0] = 0xc3;
	assert_int_equal(s->ops->ak_find(s, ak.signer, &got, &d), ARA_STORE_NOT_FOUND);
	ara_store_close(s);
}

static void test_policies(void **state)
{
	struct ara_store *s = open_store();
	char text[64];
	uint32_t v = 0;
	int64_t created;

	(void)state;
	assert_int_equal(s->ops->policy_newest(s, &v), ARA_STORE_NOT_FOUND);
	assert_int_equal(s->ops->policy_add(s, "max-age 60\n", 1, &v), ARA_STORE_OK);
	assert_int_equal(v, 1);
	assert_int_equal(s->ops->policy_add(s, "max-age 30\n", 2, &v), ARA_STORE_OK);
	assert_int_equal(v, 2);
	assert_int_equal(s->ops->policy_newest(s, &v), ARA_STORE_OK);
	assert_int_equal(v, 2);
	assert_int_equal(s->ops->policy_get(s, 1, text, sizeof(text), &created), ARA_STORE_OK);
	assert_string_equal(text, "max-age 60\n");
	assert_int_equal(created, 1);
	assert_int_equal(s->ops->policy_get(s, 2, text, 5, &created), ARA_STORE_ERROR);
	assert_int_equal(s->ops->policy_get(s, 3, text, sizeof(text), &created),
			 ARA_STORE_NOT_FOUND);
	ara_store_close(s);
}

static const uint8_t kek[ARA_KEK_LEN] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

static void put_secret(struct ara_store *s, const char *name, const uint8_t *value, size_t len,
		       int once, uint32_t want_version)
{
	struct ara_store_secret in = { .once = once, .created_ms = 3, .version = want_version };

	snprintf(in.name, sizeof(in.name), "%s", name);
	assert_int_equal(ara_kek_seal(kek, &in, value, len), 0);
	assert_int_equal(s->ops->secret_put(s, &in), ARA_STORE_OK);
}

static void test_secrets(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_secret got;
	uint8_t plain[ARA_WIRE_SECRET_MAX];
	char why[320];
	size_t len = 0;

	(void)state;
	put_secret(s, "key", (const uint8_t *)"one", 3, 0, 1);
	put_secret(s, "key", (const uint8_t *)"two!", 4, 1, 2);
	put_secret(s, "other", (const uint8_t *)"x", 1, 0, 1);
	assert_int_equal(s->ops->secret_get(s, "key", &got), ARA_STORE_OK);
	assert_int_equal(got.version, 2);
	assert_int_equal(got.once, 1);
	assert_int_equal(ara_kek_open(kek, &got, plain, &len, why, sizeof(why)), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(plain, "two!", 4);
	assert_int_equal(s->ops->secret_get(s, "none", &got), ARA_STORE_NOT_FOUND);

	/* Only the next version: one taken, or one beyond, is another writer's race. */
	got.version = 2;
	assert_int_equal(s->ops->secret_put(s, &got), ARA_STORE_CONFLICT);
	assert_non_null(strstr(s->why, "version 2 is not the next"));
	got.version = 4;
	assert_int_equal(s->ops->secret_put(s, &got), ARA_STORE_CONFLICT);
	got.version = 3;
	assert_int_equal(s->ops->secret_put(s, &got), ARA_STORE_OK);
	ara_store_close(s);
}

#ifndef ARA_TEST_PG
/*
 * A secret row whose version, once flag or time does not fit its field is
 * damaged. SQLite keeps any value in an INTEGER column: a copy of version
 * 1 numbered 2^32 + 1 sorts as the newest and, cut to 32 bits, would read
 * as version 1 and open (the twin, below): an old value served as the
 * newest without a row deleted.
 */
static void test_secret_row_fields(void **state)
{
	static const char *const copies[] = {
		"INSERT INTO secrets SELECT name, 4294967297, once, sealed, created_ms"
		" FROM secrets WHERE name = 'key' AND version = 1",
		"INSERT INTO secrets SELECT name, '3x', once, sealed, created_ms"
		" FROM secrets WHERE name = 'key' AND version = 1",
		"UPDATE secrets SET once = 2 WHERE name = 'key' AND version = 2",
	};
	struct ara_store *s;
	struct ara_store_secret got, cut;
	uint8_t plain[ARA_WIRE_SECRET_MAX];
	char why[320];
	size_t len = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		s = open_store();
		put_secret(s, "key", (const uint8_t *)"one", 3, 0, 1);
		put_secret(s, "key", (const uint8_t *)"two!", 4, 0, 2);
		assert_int_equal(s->ops->secret_get(s, "key", &cut), ARA_STORE_OK);
		assert_int_equal(raw(copies[i]), RAW_OK);
		assert_int_equal(s->ops->secret_get(s, "key", &got), ARA_STORE_ERROR);
		assert_non_null(strstr(s->why, "damaged"));
		ara_store_close(s);
		assert_int_equal(raw("DELETE FROM secrets"), RAW_OK);
	}
	/* The twin: version 1's sealed value under the number cut to 32 bits opens. */
	s = open_store();
	put_secret(s, "key", (const uint8_t *)"one", 3, 0, 1);
	assert_int_equal(s->ops->secret_get(s, "key", &cut), ARA_STORE_OK);
	cut.version = (uint32_t)4294967297u;
	assert_int_equal(ara_kek_open(kek, &cut, plain, &len, why, sizeof(why)), 0);
	assert_memory_equal(plain, "one", 3);
	ara_store_close(s);
}
#endif

static int count_delivery(void *ctx, const struct ara_store_delivery *d)
{
	assert_memory_equal(d->instance_pub, (uint8_t[ARA_WIRE_POINT]){ [0 ... 64] = 4 }, 65);
	++*(int *)ctx;
	return 0;
}

/*
 * deliver(): the delivery, its audit record and the device's attestation
 * time together; a once-only version's second delivery records none of
 * them.
 */
static void test_deliver(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_filter f = { 0 };
	struct ara_store_delivery d;
	struct ara_store_device dev;
	int n = 0;

	(void)state;
	assert_int_equal(s->ops->device_add(s, "dev-1", 100), ARA_STORE_OK);
	d = delivery("many", 1, 0);
	assert_int_equal(deliver(s, &d, "dev-1", 200), ARA_STORE_OK);
	assert_int_equal(deliver(s, &d, "dev-1", 300), ARA_STORE_OK); /* not once-only */
	d = delivery("single", 1, 1);
	assert_int_equal(deliver(s, &d, "dev-1", 400), ARA_STORE_OK);
	assert_true(d.id > 0);
	assert_int_equal(deliver(s, &d, "dev-1", 900), ARA_STORE_CONFLICT);
	assert_non_null(strstr(s->why, "once-only"));
	assert_int_equal(raw_count("SELECT count(*) FROM audit"), 3);
	assert_int_equal(s->ops->device_get(s, "dev-1", &dev), ARA_STORE_OK);
	assert_int_equal(dev.last_attest_ms, 400); /* the conflict's 900 undone */
	d = delivery("single", 2, 1); /* a new version: once more */
	assert_int_equal(deliver(s, &d, "", 500), ARA_STORE_OK);
	assert_int_equal(raw_count("SELECT count(*) FROM audit WHERE decision = 'delivered'"), 4);

	assert_int_equal(s->ops->delivery_list(s, &f, count_delivery, &n), ARA_STORE_OK);
	assert_int_equal(n, 4);
	f.secret = "single";
	n = 0;
	assert_int_equal(s->ops->delivery_list(s, &f, count_delivery, &n), ARA_STORE_OK);
	assert_int_equal(n, 2);
	f.limit = 1;
	n = 0;
	assert_int_equal(s->ops->delivery_list(s, &f, count_delivery, &n), ARA_STORE_OK);
	assert_int_equal(n, 1);
	ara_store_close(s);
}

/* The listing's rows, by id, to check order and filters. */
struct ids {
	int64_t id[8];
	int n;
};

static int collect_audit(void *ctx, const struct ara_store_audit *a)
{
	struct ids *ids = ctx;

	ids->id[ids->n++] = a->time_ms;
	return ids->n == 8;
}

static void test_audit(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_filter f = { 0 };
	struct ids ids = { 0 };

	(void)state;
	for (int i = 1; i <= 4; i++) {
		struct ara_store_audit a = { .time_ms = i * 10, .session = (uint64_t)i,
					     .policy_version = 1 };

		snprintf(a.decision, sizeof(a.decision), "%s", i % 2 ? "refused" : "delivered");
		snprintf(a.reason, sizeof(a.reason), "%s", i % 2 ? "stale" : "");
		snprintf(a.peer, sizeof(a.peer), "tcp 127.0.0.1:%d", 4000 + i);
		snprintf(a.device, sizeof(a.device), "dev-%d", i);
		assert_int_equal(s->ops->audit_append(s, &a), ARA_STORE_OK);
		assert_int_equal(a.id, i);
	}
	assert_int_equal(s->ops->audit_query(s, &f, collect_audit, &ids), ARA_STORE_OK);
	assert_int_equal(ids.n, 4);
	f.decision = "refused";
	ids.n = 0;
	assert_int_equal(s->ops->audit_query(s, &f, collect_audit, &ids), ARA_STORE_OK);
	assert_int_equal(ids.n, 2);
	assert_int_equal(ids.id[0], 10);
	assert_int_equal(ids.id[1], 30);
	f.decision = NULL;
	f.limit = 2; /* the newest two, oldest first */
	ids.n = 0;
	assert_int_equal(s->ops->audit_query(s, &f, collect_audit, &ids), ARA_STORE_OK);
	assert_int_equal(ids.n, 2);
	assert_int_equal(ids.id[0], 30);
	assert_int_equal(ids.id[1], 40);
	f.limit = 0;
	f.since_ms = 20;
	f.until_ms = 40;
	f.device = "dev-3";
	ids.n = 0;
	assert_int_equal(s->ops->audit_query(s, &f, collect_audit, &ids), ARA_STORE_OK);
	assert_int_equal(ids.n, 1);
	assert_int_equal(ids.id[0], 30);
	ara_store_close(s);
	assert_int_not_equal(raw("UPDATE audit SET decision = 'delivered'"), RAW_OK);
}

#define RACE_VERSIONS 1000

/*
 * Two processes, each with its own connection to the same file, claim the
 * same RACE_VERSIONS once-only secret versions; each reports its wins on a
 * pipe. Every version must be won exactly once.
 */
static void test_claim_two_processes(void **state)
{
	int go[2], ready[2], wins[2];
	pid_t pid[2];
	unsigned total = 0, won[2] = { 0, 0 };
	struct ara_store *s;

	(void)state;
	ara_store_close(open_store()); /* created and migrated before the race */
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(wins), 0);
	for (int p = 0; p < 2; p++) {
		pid[p] = fork();
		assert_true(pid[p] >= 0);
		if (pid[p] == 0) {
			char why[256], c;
			unsigned mine = 0;

			close(go[1]);
			s = ara_store_open(url, why, sizeof(why));
			if (!s || write(ready[1], "r", 1) != 1 ||
			    read(go[0], &c, 1) != 0) /* EOF: the parent let go */
				_exit(2);
			for (uint32_t v = 1; v <= RACE_VERSIONS; v++) {
				struct ara_store_delivery d = delivery("race", v, 1);
				int r = deliver(s, &d, "", v);

				if (r == ARA_STORE_OK)
					mine++;
				else if (r != ARA_STORE_CONFLICT)
					_exit(3);
			}
			ara_store_close(s);
			_exit(write(wins[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 4);
		}
	}
	close(go[0]);
	for (int p = 0; p < 2; p++) { /* both connected */
		char c;

		assert_int_equal(read(ready[0], &c, 1), 1);
	}
	close(go[1]); /* both start */
	close(ready[0]);
	close(ready[1]);
	for (int p = 0; p < 2; p++) {
		int status;

		assert_int_equal(waitpid(pid[p], &status, 0), pid[p]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		assert_int_equal(read(wins[0], &won[p], sizeof(won[p])), sizeof(won[p]));
		total += won[p];
	}
	close(wins[0]);
	close(wins[1]);
	print_message("claims won: %u and %u of %u\n", won[0], won[1], RACE_VERSIONS);
	assert_int_equal(total, RACE_VERSIONS);
	/* And the database agrees: one row per version. */
	assert_int_equal(raw_count("SELECT count(*) FROM deliveries"), RACE_VERSIONS);
	assert_int_equal(raw_count("SELECT count(DISTINCT secret_version) FROM deliveries"),
			 RACE_VERSIONS);
	/* An audit record for each win, none for a loss: the conflict undid it. */
	assert_int_equal(raw_count("SELECT count(*) FROM audit"), RACE_VERSIONS);
}

static void write_kek(const char *path, size_t len, mode_t mode)
{
	uint8_t bytes[64];
	FILE *f;

	memset(bytes, 0x5a, sizeof(bytes));
	unlink(path);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_kek_file(void **state)
{
	char path[160], link[160], why[256];
	uint8_t key[ARA_KEK_LEN], again[ARA_KEK_LEN];
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/kek", dir);
	write_kek(path, ARA_KEK_LEN, 0600);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), 0);
	assert_int_equal(key[0], 0x5a);
	write_kek(path, ARA_KEK_LEN, 0400);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), 0);

	static const mode_t open_modes[] = { 0640, 0604, 0620, 0602, 0610 };
	for (size_t i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		write_kek(path, ARA_KEK_LEN, open_modes[i]);
		assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "open to group or others"));
		assert_non_null(strstr(why, path));
	}
	write_kek(path, ARA_KEK_LEN - 1, 0600);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "holds 31 bytes, not 32"));
	write_kek(path, ARA_KEK_LEN + 1, 0600);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "holds 33 bytes"));
	write_kek(path, 0, 0600);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), -1);
	/* A symbolic link is not followed; a missing file names strerror. */
	write_kek(path, ARA_KEK_LEN, 0600);
	snprintf(link, sizeof(link), "%s/kek-link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(ara_kek_load(link, key, why, sizeof(why)), -1);
	unlink(link);
	unlink(path);
	assert_int_equal(ara_kek_load(path, key, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "No such file"));

	/* A new KEK: private, loadable, never over an existing file. */
	assert_int_equal(ara_kek_create(path, key, why, sizeof(why)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(ara_kek_load(path, again, why, sizeof(why)), 0);
	assert_memory_equal(key, again, sizeof(key));
	assert_int_equal(ara_kek_create(path, again, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "File exists"));
	unlink(path);
}

/* Opens sec (kek.h) or not; a refusal says why. */
static int opens(const struct ara_store_secret *sec, const char *why_has)
{
	uint8_t plain[ARA_WIRE_SECRET_MAX];
	char why[320] = "";
	size_t len;
	int r = ara_kek_open(kek, sec, plain, &len, why, sizeof(why));

	if (r)
		assert_non_null(strstr(why, why_has));
	return r == 0;
}

/* Sealing rule 2 binds the whole row: any field changed, it does not open. */
static void test_seal(void **state)
{
	struct ara_store_secret row = { .name = "n", .version = 7, .once = 1, .created_ms = 5 };
	struct ara_store_secret other;
	uint8_t plain[ARA_WIRE_SECRET_MAX], key2[ARA_KEK_LEN] = { 9 };
	uint8_t value[ARA_WIRE_SECRET_MAX];
	const char *altered = "altered in the database";
	char why[320];
	size_t len;

	(void)state;
	memset(value, 0x77, sizeof(value));
	assert_int_equal(ara_kek_seal(kek, &row, value, sizeof(value)), 0);
	assert_int_equal(row.sealed_len, ARA_STORE_SEALED_MAX);
	assert_int_equal(row.sealed[0], ARA_KEK_RULE);
	assert_int_equal(ara_kek_open(kek, &row, plain, &len, why, sizeof(why)), 0);
	assert_int_equal(len, sizeof(value));
	assert_memory_equal(plain, value, sizeof(value));
	assert_int_equal(ara_kek_open(key2, &row, plain, &len, why, sizeof(why)), -1);
	other = row;
	snprintf(other.name, sizeof(other.name), "m");
	assert_false(opens(&other, altered));
	other = row;
	other.version = 6;
	assert_false(opens(&other, altered));
	other = row;
	other.once = 0;
	assert_false(opens(&other, altered));
	other = row;
	other.created_ms = 4;
	assert_false(opens(&other, altered));
	other = row;
	other.sealed[20] ^= 1;
	assert_false(opens(&other, altered));
	/* Another rule's value (a rule-1 one, or a byte changed) is refused as such. */
	other = row;
	other.sealed[0] = 1;
	assert_false(opens(&other, "not of sealing rule 2"));
	other = row;
	other.sealed_len = ARA_KEK_OVERHEAD;
	assert_false(opens(&other, "not of sealing rule 2"));
	assert_true(opens(&row, ""));
	assert_int_equal(ara_kek_seal(kek, &other, value, 0), -1);
	assert_int_equal(ara_kek_seal(kek, &other, value, sizeof(value) + 1), -1);
}

/* The rows of tests/store/fixtures/rule1-rows.txt: a store as an earlier release left it. */
struct rule1 {
	uint8_t kek[ARA_KEK_LEN];
	struct ara_store_secret row[3];
	char value[3][32], sealed_hex[3][2 * ARA_STORE_SEALED_MAX + 1];
};

static void hex_to(const char *hex, uint8_t *out, size_t n)
{
	assert_int_equal(ara_hex_decode_lower(hex, 2 * n, out, n), 0);
}

static void read_rule1(struct rule1 *f)
{
	FILE *in = fopen(ARA_RULE1_ROWS, "r");
	char line[512], kek_hex[65];
	size_t n = 0;

	assert_non_null(in);
	memset(f, 0, sizeof(*f));
	while (fgets(line, sizeof(line), in)) {
		struct ara_store_secret *r = &f->row[n];

		if (sscanf(line, "kek %64s", kek_hex) == 1) {
			hex_to(kek_hex, f->kek, ARA_KEK_LEN);
		} else if (n < 3 && sscanf(line, "row %64s %u %d %" SCNd64 " %31s %600s", r->name,
					   &r->version, &r->once, &r->created_ms, f->value[n],
					   f->sealed_hex[n]) == 6) {
			r->sealed_len = strlen(f->sealed_hex[n]) / 2;
			hex_to(f->sealed_hex[n], r->sealed, r->sealed_len);
			n++;
		}
	}
	fclose(in);
	assert_int_equal(n, 3);
}

/* SQL that copies media-key's version A sealed value into version B's row. */
#define COPY_SEALED(a, b)                                                                 \
	"UPDATE secrets SET sealed = (SELECT sealed FROM secrets WHERE name = 'media-key'" \
	" AND version = " #a ") WHERE name = 'media-key' AND version = " #b

/* Inserts f's row i as it is. */
static void insert_rule1(const struct rule1 *f, int i)
{
	char sql[2 * ARA_STORE_SEALED_MAX + 256];

	snprintf(sql, sizeof(sql),
		 "INSERT INTO secrets (name, version, once, sealed, created_ms)"
		 " VALUES ('%s', %u, %d, " BLOB_FMT ", %" PRId64 ")",
		 f->row[i].name, f->row[i].version, f->row[i].once, f->sealed_hex[i],
		 f->row[i].created_ms);
	assert_int_equal(raw(sql), RAW_OK);
}

/* What secret name's newest version opens to under key, in out; "" if it does not open. */
static void newest_value(struct ara_store *s, const uint8_t key[ARA_KEK_LEN], const char *name,
			 char *out)
{
	struct ara_store_secret got;
	char why[320];
	size_t len = 0;

	assert_int_equal(s->ops->secret_get(s, name, &got), ARA_STORE_OK);
	if (ara_kek_open(key, &got, (uint8_t *)out, &len, why, sizeof(why)))
		len = 0;
	out[len] = '\0';
}

/*
 * Schema step 4: a store of rule-1 rows re-sealed under rule 2 by the first
 * open that has the KEK, once; without it, or with another KEK, nothing
 * changes. The twin of the binding: a v1 value copied into v2's row and a
 * once flag flipped get through rule 1 (the migration cannot tell), and
 * the same tampering after it does not.
 */
static void test_migrate_reseal(void **state)
{
	static struct rule1 f;
	uint8_t wrong[ARA_KEK_LEN] = { 0x40 }, plain[ARA_WIRE_SECRET_MAX];
	char why[320] = "", got[ARA_WIRE_SECRET_MAX + 1], sql[2 * ARA_STORE_SEALED_MAX + 256];
	struct ara_store_secret v3;
	struct ara_store *s;
	size_t len;
	int from;

	(void)state;
	read_rule1(&f);
	s = BACKEND.open(url, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(migrate_to(s, 3, &from), ARA_STORE_OK);
	ara_store_close(s);
	for (int i = 0; i < 3; i++)
		insert_rule1(&f, i);
	/* The twin's tampering, under rule 1: v1's value in v2's row, the once flag off. */
	assert_int_equal(raw(COPY_SEALED(1, 2)), RAW_OK);
	assert_int_equal(raw("UPDATE secrets SET once = 0 WHERE name = 'single'"), RAW_OK);

	/* No KEK: the step waits, nothing changed. */
	ara_store_close(open_store());
	assert_int_equal(raw_count("SELECT max(version) FROM ara_schema"), 3);
	/* Another KEK: refused, nothing changed. */
	assert_null(ara_store_open_kek(url, ara_kek_reseal, wrong, why, sizeof(why)));
	assert_non_null(strstr(why, "does not open under this KEK"));
	assert_non_null(strstr(why, "nothing was changed"));
	assert_int_equal(raw_count("SELECT max(version) FROM ara_schema"), 3);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM secrets WHERE sealed = " BLOB_FMT,
		 f.sealed_hex[2]);
	assert_int_equal(raw_count(sql), 1);

	/* The KEK: every row re-sealed, once; the rule-1 tampering carried over. */
	s = ara_store_open_kek(url, ara_kek_reseal, f.kek, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(raw_count("SELECT max(version) FROM ara_schema"), 4);
	assert_int_equal(raw_count(sql), 0);
	newest_value(s, f.kek, "media-key", got);
	assert_string_equal(got, f.value[0]); /* v2's row gives v1's value */
	newest_value(s, f.kek, "single", got);
	assert_string_equal(got, f.value[2]); /* and opens as not once-only */

	/* Rule 2: the same tampering is refused; undone, the row opens again. */
	assert_int_equal(raw("UPDATE secrets SET once = 1 WHERE name = 'single'"), RAW_OK);
	newest_value(s, f.kek, "single", got);
	assert_string_equal(got, "");
	assert_int_equal(raw("UPDATE secrets SET once = 0 WHERE name = 'single'"), RAW_OK);
	newest_value(s, f.kek, "single", got);
	assert_string_equal(got, f.value[2]);
	put_secret(s, "media-key", (const uint8_t *)"v3", 2, 0, 3); /* under kek */
	newest_value(s, kek, "media-key", got);
	assert_string_equal(got, "v3");
	assert_int_equal(raw(COPY_SEALED(2, 3)), RAW_OK);
	newest_value(s, kek, "media-key", got);
	assert_string_equal(got, "");
	ara_store_close(s);

	/* A rule-1 value put in after the step is never re-sealed: refused as another rule. */
	snprintf(sql, sizeof(sql), "UPDATE secrets SET sealed = " BLOB_FMT
		 " WHERE name = 'media-key' AND version = 3", f.sealed_hex[1]);
	assert_int_equal(raw(sql), RAW_OK);
	s = ara_store_open_kek(url, ara_kek_reseal, f.kek, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(s->ops->secret_get(s, "media-key", &v3), ARA_STORE_OK);
	assert_int_equal(ara_kek_open(f.kek, &v3, plain, &len, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not of sealing rule 2"));
	ara_store_close(s);
}

/* A store from before step 4 with no secrets needs no KEK to reach the newest schema. */
static void test_migrate_no_secrets(void **state)
{
	char why[256];
	struct ara_store *s;
	int from;

	(void)state;
	s = BACKEND.open(url, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(migrate_to(s, 3, &from), ARA_STORE_OK);
	ara_store_close(s);
	ara_store_close(open_store());
	assert_int_equal(raw_count("SELECT max(version) FROM ara_schema"), ARA_STORE_SCHEMA_VERSION);
}

#ifdef ARA_TEST_PG
/*
 * The server restarted (as by a crash) under an open handle: the call that
 * finds the connection gone fails, since whether a write committed is
 * unknown; the next connects again and finds the data.
 */
static void test_reconnect(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_device d;
	const char *pg_dir = getenv("ARA_PG_DIR");
	char cmd[512];

	(void)state;
	assert_non_null(pg_dir);
	assert_int_equal(s->ops->device_add(s, "dev-r", 11), ARA_STORE_OK);
	snprintf(cmd, sizeof(cmd), "/bin/bash %s restart %s immediate", ARA_PG_HARNESS, pg_dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(s->ops->device_get(s, "dev-r", &d), ARA_STORE_ERROR);
	assert_non_null(strstr(s->why, "postgresql 127.0.0.1:"));
	assert_int_equal(s->ops->device_get(s, "dev-r", &d), ARA_STORE_OK);
	assert_int_equal(d.enrolled_ms, 11);
	ara_store_close(s);
}

/* How many rows of secrets hold these bytes in their sealed value. */
static long long rows_holding(const uint8_t *b, size_t len)
{
	char sql[512];
	int n = snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM secrets WHERE position('\\x");

	for (size_t i = 0; i < len; i++)
		n += snprintf(sql + n, sizeof(sql) - (size_t)n, "%02x", b[i]);
	snprintf(sql + n, sizeof(sql) - (size_t)n, "'::bytea IN sealed) > 0");
	return raw_count(sql);
}

/* No plaintext in the rows (the server's files are its own). */
static void test_no_plaintext(void **state)
{
	struct ara_store *s = open_store();
	struct ara_store_secret got;
	uint8_t value[48];

	(void)state;
	for (size_t i = 0; i < sizeof(value); i++)
		value[i] = (uint8_t)(0xc0 ^ i);
	put_secret(s, "plain-check", value, sizeof(value), 0, 1);
	assert_int_equal(s->ops->secret_get(s, "plain-check", &got), ARA_STORE_OK);
	ara_store_close(s);
	assert_int_equal(rows_holding(got.sealed, got.sealed_len), 1); /* the canary works */
	assert_int_equal(rows_holding(value, sizeof(value)), 0);
}
#else
/* Whether needle is anywhere in the file at path (absent file: no). */
static int file_holds(const char *path, const uint8_t *needle, size_t len)
{
	FILE *f = fopen(path, "rb");
	static uint8_t buf[4 << 20];
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n < sizeof(buf));
	return memmem(buf, n, needle, len) != NULL;
}

static void test_no_plaintext(void **state)
{
	struct ara_store *s = open_store();
	uint8_t value[48];
	char hex[2 * sizeof(value) + 1], wal[160];

	(void)state;
	for (size_t i = 0; i < sizeof(value); i++) {
		value[i] = (uint8_t)(0xc0 ^ i);
		snprintf(hex + 2 * i, 3, "%02x", value[i]);
	}
	put_secret(s, "plain-check", value, sizeof(value), 0, 1);
	snprintf(wal, sizeof(wal), "%s-wal", db_path);
	/* The canary works: the sealed bytes are in the WAL or the file. */
	{
		struct ara_store_secret got;

		assert_int_equal(s->ops->secret_get(s, "plain-check", &got), ARA_STORE_OK);
		assert_true(file_holds(db_path, got.sealed, got.sealed_len) ||
			    file_holds(wal, got.sealed, got.sealed_len));
	}
	assert_false(file_holds(db_path, value, sizeof(value)));
	assert_false(file_holds(wal, value, sizeof(value)));
	assert_false(file_holds(db_path, (const uint8_t *)hex, strlen(hex)));
	assert_false(file_holds(wal, (const uint8_t *)hex, strlen(hex)));
	ara_store_close(s); /* the last close checkpoints the WAL into the file */
	assert_false(file_holds(db_path, value, sizeof(value)));
	assert_false(file_holds(db_path, (const uint8_t *)hex, strlen(hex)));
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_migrate_empty, setup),
		cmocka_unit_test_setup(test_migrate_previous, setup),
		cmocka_unit_test_setup(test_migrate_newer_refused, setup),
		cmocka_unit_test_setup(test_open_refusals, setup),
		cmocka_unit_test(test_url_redacted),
		cmocka_unit_test_setup(test_devices, setup),
		cmocka_unit_test_setup(test_aks, setup),
		cmocka_unit_test_setup(test_policies, setup),
		cmocka_unit_test_setup(test_secrets, setup),
#ifndef ARA_TEST_PG
		cmocka_unit_test_setup(test_secret_row_fields, setup),
#endif
		cmocka_unit_test_setup(test_deliver, setup),
		cmocka_unit_test_setup(test_audit, setup),
		cmocka_unit_test_setup(test_claim_two_processes, setup),
		cmocka_unit_test(test_kek_file),
		cmocka_unit_test(test_seal),
		cmocka_unit_test_setup(test_migrate_reseal, setup),
		cmocka_unit_test_setup(test_migrate_no_secrets, setup),
		cmocka_unit_test_setup(test_no_plaintext, setup),
#ifdef ARA_TEST_PG
		cmocka_unit_test_setup(test_reconnect, setup),
#endif
	};
	char cmd[64];
	int r;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return r;
}
