/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite backend of store.h: one database file (created mode 0600) in
 * WAL mode, so readers never wait for the writer and several processes
 * can share the file; a busy timeout, so a writer waits for another rather
 * than fail; synchronous=NORMAL, which loses no committed transaction when
 * the service crashes (a power failure may lose the last ones). Every call
 * is one statement or one explicit transaction, so it is all or nothing;
 * the once-only claim is the deliveries_once unique index's to refuse.
 * Statements are prepared once per handle and reused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store_sqlite.h"
#include "store_sqlite_schema.h"

/* A writer waits up to about 5 s for another: 100 us at a time, then 1 ms. */
#define BUSY_SHORT_TRIES 20
#define BUSY_TRIES (BUSY_SHORT_TRIES + 4998)
#define STEPS ((int)(sizeof(store_sqlite_steps) / sizeof(store_sqlite_steps[0])))

_Static_assert(STEPS == ARA_STORE_SCHEMA_VERSION, "one migration step per schema version");

/* The statements, prepared on first use. */
enum q {
	Q_DEVICE_ADD,
	Q_DEVICE_REVOKE,
	Q_DEVICE_GET,
	Q_DEVICE_LIST,
	Q_DEVICE_SEEN,
	Q_AK_ADD,
	Q_AK_REVOKE,
	Q_AK_FIND,
	Q_POLICY_ADD,
	Q_POLICY_NEWEST,
	Q_POLICY_GET,
	Q_SECRET_PUT,
	Q_SECRET_GET,
	Q_CLAIM,
	Q_DELIVERY_LIST,
	Q_AUDIT_APPEND,
	Q_AUDIT_QUERY,
	Q_REPORT_ADD,
	Q_COUNT
};

#define DEVICE_COLS "id, enrolled_ms, revoked_ms, revoke_reason, last_attest_ms"
/* The filter of the listings: ?1 since, ?2 until, ?3 device, ?4 secret, ?5 limit. */
#define FILTER                                                                              \
	" WHERE (?1 = 0 OR time_ms >= ?1) AND (?2 = 0 OR time_ms < ?2)"                     \
	" AND (?3 = '' OR device = ?3) AND (?4 = '' OR secret = ?4)"

static const char *const sql[Q_COUNT] = {
	[Q_REPORT_ADD] = "INSERT INTO reports (time_ms, peer, session, service, device,"
			 " instance_pub, app, verified, detail, entries, final, report, ear)"
			 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING id",
	[Q_DEVICE_ADD] = "INSERT INTO devices (id, enrolled_ms) VALUES (?1, ?2)",
	[Q_DEVICE_REVOKE] = "UPDATE devices SET revoked_ms = ?2, revoke_reason = ?3"
			    " WHERE id = ?1 AND revoked_ms = 0",
	[Q_DEVICE_GET] = "SELECT " DEVICE_COLS " FROM devices WHERE id = ?1",
	[Q_DEVICE_LIST] = "SELECT " DEVICE_COLS " FROM devices ORDER BY id",
	[Q_DEVICE_SEEN] = "UPDATE devices SET last_attest_ms = max(last_attest_ms, ?2)"
			  " WHERE id = ?1",
	[Q_AK_ADD] = "INSERT INTO aks (signer, device, pub, ek_chain, enrolled_ms)"
		     " VALUES (?1, ?2, ?3, ?4, ?5)",
	[Q_AK_REVOKE] = "UPDATE aks SET revoked_ms = ?2 WHERE signer = ?1 AND revoked_ms = 0",
	[Q_AK_FIND] = "SELECT a.device, a.pub, a.ek_chain, a.enrolled_ms, a.revoked_ms,"
		      " d.id, d.enrolled_ms, d.revoked_ms, d.revoke_reason, d.last_attest_ms"
		      " FROM aks a JOIN devices d ON d.id = a.device WHERE a.signer = ?1",
	[Q_POLICY_ADD] = "INSERT INTO policies (version, text, created_ms)"
			 " SELECT coalesce(max(version), 0) + 1, ?1, ?2 FROM policies"
			 " RETURNING version",
	[Q_POLICY_NEWEST] = "SELECT max(version) FROM policies",
	[Q_POLICY_GET] = "SELECT text, created_ms FROM policies WHERE version = ?1",
	/* Only the next version: 0 rows if ?5 is not. */
	[Q_SECRET_PUT] = "INSERT INTO secrets (name, version, once, sealed, created_ms)"
			 " SELECT ?1, ?5, ?2, ?3, ?4"
			 " WHERE (SELECT coalesce(max(version), 0) FROM secrets WHERE name = ?1) + 1 = ?5",
	[Q_SECRET_GET] = "SELECT version, once, sealed, created_ms FROM secrets WHERE name = ?1"
			 " ORDER BY version DESC LIMIT 1",
	[Q_CLAIM] = "INSERT INTO deliveries (time_ms, peer, session, service, device,"
		    " instance_pub, app, secret, secret_version, once)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
	[Q_DELIVERY_LIST] = "SELECT * FROM (SELECT id, time_ms, peer, session, service, device,"
			    " instance_pub, app, secret, secret_version, once FROM deliveries" FILTER
			    " ORDER BY id DESC LIMIT ?5) ORDER BY id",
	[Q_AUDIT_APPEND] = "INSERT INTO audit (time_ms, peer, session, service, decision, reason,"
			   " detail, device, secret, policy_version)"
			   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
	[Q_AUDIT_QUERY] = "SELECT * FROM (SELECT id, time_ms, peer, session, service, decision,"
			  " reason, detail, device, secret, policy_version FROM audit" FILTER
			  " AND (?6 = '' OR decision = ?6) ORDER BY id DESC LIMIT ?5) ORDER BY id",
};

struct sqlite_store {
	struct ara_store base;
	sqlite3 *db;
	sqlite3_stmt *stmt[Q_COUNT];
	char path[];
};

/*
 * SQLite's own busy timeout sleeps 1, 2, 5, ... 100 ms between tries: long
 * beside a write transaction here (tens of microseconds), so the decision
 * threads of one instance, each with its own connection, lost most of a
 * millisecond whenever two wrote at once (docs/performance.md).
 */
static int busy_wait(void *unused, int tries)
{
	const struct timespec pause = { 0, tries < BUSY_SHORT_TRIES ? 100000 : 1000000 };

	(void)unused;
	if (tries >= BUSY_TRIES)
		return 0;
	nanosleep(&pause, NULL);
	return 1;
}

static struct sqlite_store *of(struct ara_store *s)
{
	return (struct sqlite_store *)s;
}

static int say(struct sqlite_store *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One line in s->why, "PATH: ...", and status. */
static int say(struct sqlite_store *s, int status, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(s->base.why, sizeof(s->base.why), "%s: ", s->path);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(s->base.why))
		vsnprintf(s->base.why + n, sizeof(s->base.why) - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

static int db_error(struct sqlite_store *s, const char *what)
{
	return say(s, ARA_STORE_ERROR, "%s: %s", what, sqlite3_errmsg(s->db));
}

/* The statement q, reset and ready for binding; NULL after db_error. */
static sqlite3_stmt *stmt(struct sqlite_store *s, enum q q)
{
	if (!s->stmt[q] && sqlite3_prepare_v3(s->db, sql[q], -1, SQLITE_PREPARE_PERSISTENT,
					      &s->stmt[q], NULL) != SQLITE_OK) {
		db_error(s, "preparing a statement");
		return NULL;
	}
	sqlite3_reset(s->stmt[q]);
	sqlite3_clear_bindings(s->stmt[q]);
	return s->stmt[q];
}

static int name_ok(struct sqlite_store *s, const char *what, const char *name)
{
	if (name && ara_wire_name_ok((const uint8_t *)name, strlen(name)) &&
	    strlen(name) <= ARA_STORE_NAME_MAX)
		return 1;
	say(s, ARA_STORE_ERROR, "%s '%.64s' is not 1..64 of [A-Za-z0-9._-]", what,
	    name ? name : "");
	return 0;
}

static void text_col(sqlite3_stmt *st, int col, char *out, size_t cap)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(out, cap, "%s", t ? (const char *)t : "");
}

/* A BLOB column of exactly len bytes (0), or -1. */
static int blob_col(sqlite3_stmt *st, int col, uint8_t *out, size_t len)
{
	if ((size_t)sqlite3_column_bytes(st, col) != len)
		return -1;
	if (len)
		memcpy(out, sqlite3_column_blob(st, col), len);
	return 0;
}

/*
 * A secret row's version, once flag and time as the columns vcol, vcol + 1
 * and tcol hold them, or -1: SQLite keeps any value in any column, and a
 * version of 2^32 + 5 (or the text '5x') read as 5 would open as version 5
 * and sort as the newest, so a value that does not fit its field exactly
 * makes the row damaged, never another row.
 */
static int secret_fields(sqlite3_stmt *st, int vcol, int tcol, struct ara_store_secret *sec)
{
	sqlite3_int64 version = sqlite3_column_int64(st, vcol), once = sqlite3_column_int64(st, vcol + 1);

	if (sqlite3_column_type(st, vcol) != SQLITE_INTEGER || version < 1 || version > INT32_MAX ||
	    sqlite3_column_type(st, vcol + 1) != SQLITE_INTEGER || (once != 0 && once != 1) ||
	    sqlite3_column_type(st, tcol) != SQLITE_INTEGER)
		return -1;
	sec->version = (uint32_t)version;
	sec->once = (int)once;
	sec->created_ms = sqlite3_column_int64(st, tcol);
	return 0;
}

/*
 * Runs a write statement to its end: OK, CONFLICT for a unique or primary
 * key violation, NOT_FOUND for a foreign key's, ERROR else.
 */
static int run(struct sqlite_store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	while (rc == SQLITE_ROW)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return ARA_STORE_OK;
	rc = sqlite3_extended_errcode(s->db);
	sqlite3_reset(st);
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE)
		return say(s, ARA_STORE_CONFLICT, "%s: it exists already", what);
	if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
		return say(s, ARA_STORE_NOT_FOUND, "%s: no such device", what);
	return db_error(s, what);
}

/* A write statement that returns one integer (RETURNING): as run(), with *out. */
static int run_returning(struct sqlite_store *s, sqlite3_stmt *st, const char *what,
			 int64_t *out)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			return ARA_STORE_OK;
	}
	return run(s, st, what);
}

static int exec(struct sqlite_store *s, const char *text, const char *what)
{
	return sqlite3_exec(s->db, text, NULL, NULL, NULL) == SQLITE_OK ? ARA_STORE_OK
									  : db_error(s, what);
}

static int64_t now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* The file, created mode 0600 (the database holds sealed secrets and the audit). */
static int create_private(const char *path, char *why, size_t cap)
{
	struct stat st;
	int fd;

	/*
	 * Never open and close a database that exists: closing any descriptor
	 * of a file drops every POSIX lock this process holds on it, SQLite's
	 * among them, and another process could then remove the WAL under
	 * this one's connections.
	 */
	if (lstat(path, &st) == 0)
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 && errno == EEXIST)
		return 0;
	if (fd < 0) {
		snprintf(why, cap, "%s: cannot open or create the database: %s", path,
			 strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static void sqlite_close(struct ara_store *base)
{
	struct sqlite_store *s = of(base);

	if (!s)
		return;
	for (int i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close(s->db);
	free(s);
}

static struct ara_store *sqlite_open(const char *url, char *why, size_t cap)
{
	const char *path = url + strlen("sqlite:");
	struct sqlite_store *s;
	sqlite3_stmt *st = NULL;
	int wal;

	if (strncmp(url, "sqlite:", 7) != 0 || !*path) {
		snprintf(why, cap, "%s: not a store URL of the form sqlite:PATH", url);
		return NULL;
	}
	if (create_private(path, why, cap))
		return NULL;
	s = calloc(1, sizeof(*s) + strlen(path) + 1);
	if (!s) {
		snprintf(why, cap, "%s: out of memory", path);
		return NULL;
	}
	s->base.ops = &ara_store_sqlite_ops;
	memcpy(s->path, path, strlen(path) + 1);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		snprintf(why, cap, "%s: cannot open the database: %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite_close(&s->base);
		return NULL;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_handler(s->db, busy_wait, NULL);
	wal = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK &&
	      sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	      strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
	sqlite3_finalize(st);
	if (!wal || exec(s, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", "pragmas")) {
		snprintf(why, cap, "%s: cannot set WAL mode and the pragmas: %s", path,
			 sqlite3_errmsg(s->db));
		sqlite_close(&s->base);
		return NULL;
	}
	return &s->base;
}

/*
 * Step 4 (store.h's migrate()): each secret version re-sealed, one row at a
 * time in (name, version) order, inside the step's transaction. *wait if
 * there is a row but this handle cannot re-seal: the step is left for one
 * that can.
 */
static int reseal_rows(struct sqlite_store *s, int *wait)
{
	static const char next_sql[] =
		"SELECT name, version, once, sealed, created_ms FROM secrets"
		" WHERE name > ?1 OR (name = ?1 AND version > ?2) ORDER BY name, version LIMIT 1";
	static const char set_sql[] = "UPDATE secrets SET sealed = ?3 WHERE name = ?1 AND version = ?2";
	struct ara_store_secret sec;
	sqlite3_stmt *next = NULL, *set = NULL;
	char why[ARA_STORE_WHY_MAX];
	int rc = ARA_STORE_OK, row;

	*wait = 0;
	memset(&sec, 0, sizeof(sec));
	if (sqlite3_prepare_v2(s->db, next_sql, -1, &next, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, set_sql, -1, &set, NULL) != SQLITE_OK)
		rc = db_error(s, "migrating: re-sealing the secrets");
	while (rc == ARA_STORE_OK) {
		sqlite3_reset(next);
		sqlite3_bind_text(next, 1, sec.name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(next, 2, sec.version);
		row = sqlite3_step(next);
		if (row == SQLITE_DONE)
			break;
		if (row != SQLITE_ROW) {
			rc = db_error(s, "migrating: reading a secret to re-seal");
			break;
		}
		if (!s->base.reseal) {
			*wait = 1;
			break;
		}
		text_col(next, 0, sec.name, sizeof(sec.name));
		sec.sealed_len = (size_t)sqlite3_column_bytes(next, 3);
		if (secret_fields(next, 1, 4, &sec)) {
			rc = say(s, ARA_STORE_ERROR,
				 "migrating: secret '%s': a row's version, once flag or time is damaged",
				 sec.name);
			break;
		}
		if (sec.sealed_len > sizeof(sec.sealed) || blob_col(next, 3, sec.sealed, sec.sealed_len)) {
			rc = say(s, ARA_STORE_ERROR, "migrating: secret '%s' version %u: the row is damaged",
				 sec.name, sec.version);
			break;
		}
		if (s->base.reseal(s->base.reseal_ctx, &sec, why, sizeof(why))) {
			rc = say(s, ARA_STORE_ERROR, "migrating to schema version 4: %s; nothing was changed",
				 why);
			break;
		}
		sqlite3_reset(set);
		sqlite3_bind_text(set, 1, sec.name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(set, 2, sec.version);
		sqlite3_bind_blob(set, 3, sec.sealed, (int)sec.sealed_len, SQLITE_STATIC);
		rc = run(s, set, "migrating: re-sealing a secret");
	}
	sqlite3_finalize(next);
	sqlite3_finalize(set);
	return rc;
}

/* One step's transaction: the version read inside it, so concurrent migrations serialise. */
static int migrate_step(struct sqlite_store *s, int target, int *found, int *done)
{
	sqlite3_stmt *st = NULL;
	char insert[96];
	int version = -1;

	if (exec(s, "BEGIN IMMEDIATE", "migrating: begin"))
		return ARA_STORE_ERROR;
	if (exec(s, "CREATE TABLE IF NOT EXISTS ara_schema (version INTEGER PRIMARY KEY,"
		    " applied_ms INTEGER NOT NULL)", "migrating: the version table"))
		goto fail;
	if (sqlite3_prepare_v2(s->db, "SELECT coalesce(max(version), 0) FROM ara_schema", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0) {
		db_error(s, "migrating: reading the schema version");
		goto fail;
	}
	if (*found < 0)
		*found = version;
	if (version > STEPS) {
		say(s, ARA_STORE_ERROR,
		    "the schema is version %d, newer than this program's %d: use a newer program",
		    version, STEPS);
		goto fail;
	}
	*done = version >= target;
	if (!*done) {
		snprintf(insert, sizeof(insert), "INSERT INTO ara_schema VALUES (%d, %lld)",
			 version + 1, (long long)now_ms());
		if (store_sqlite_steps[version] ? exec(s, store_sqlite_steps[version], "migrating: a step")
						: reseal_rows(s, done))
			goto fail;
		if (!*done && exec(s, insert, "migrating: recording the step"))
			goto fail;
	}
	return exec(s, "COMMIT", "migrating: commit");
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ARA_STORE_ERROR;
}

int ara_store_sqlite_migrate_to(struct ara_store *base, int target, int *from)
{
	struct sqlite_store *s = of(base);
	int done = 0;

	*from = -1;
	if (target < 1 || target > STEPS)
		return say(s, ARA_STORE_ERROR, "no schema version %d", target);
	while (!done)
		if (migrate_step(s, target, from, &done))
			return ARA_STORE_ERROR;
	return ARA_STORE_OK;
}

static int sqlite_migrate(struct ara_store *s, int *from)
{
	return ara_store_sqlite_migrate_to(s, STEPS, from);
}

static void device_row(sqlite3_stmt *st, int col, struct ara_store_device *d)
{
	memset(d, 0, sizeof(*d));
	text_col(st, col, d->id, sizeof(d->id));
	d->enrolled_ms = sqlite3_column_int64(st, col + 1);
	d->revoked_ms = sqlite3_column_int64(st, col + 2);
	text_col(st, col + 3, d->revoke_reason, sizeof(d->revoke_reason));
	d->last_attest_ms = sqlite3_column_int64(st, col + 4);
}

static int sqlite_device_add(struct ara_store *base, const char *id, int64_t now)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;

	if (!name_ok(s, "device id", id) || !(st = stmt(s, Q_DEVICE_ADD)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	return run(s, st, "adding the device");
}

static int sqlite_device_get(struct ara_store *base, const char *id, struct ara_store_device *out)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int rc;

	if (!(st = stmt(s, Q_DEVICE_GET)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		device_row(st, 0, out);
		sqlite3_reset(st);
		return ARA_STORE_OK;
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return say(s, ARA_STORE_NOT_FOUND, "no device '%.64s'", id);
	return db_error(s, "reading a device");
}

static int sqlite_device_revoke(struct ara_store *base, const char *id, const char *reason,
				int64_t now)
{
	struct sqlite_store *s = of(base);
	struct ara_store_device d;
	sqlite3_stmt *st;
	int r;

	if (!(st = stmt(s, Q_DEVICE_REVOKE)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_text(st, 3, reason ? reason : "", -1, SQLITE_STATIC);
	if ((r = run(s, st, "revoking the device")))
		return r;
	if (sqlite3_changes(s->db) == 1)
		return ARA_STORE_OK;
	if ((r = sqlite_device_get(base, id, &d)))
		return r;
	return say(s, ARA_STORE_CONFLICT, "device '%s' is revoked already", id);
}

static int sqlite_device_list(struct ara_store *base, ara_store_device_fn fn, void *ctx)
{
	struct sqlite_store *s = of(base);
	struct ara_store_device d;
	sqlite3_stmt *st;
	int rc, r = 0;

	if (!(st = stmt(s, Q_DEVICE_LIST)))
		return ARA_STORE_ERROR;
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		device_row(st, 0, &d);
		r = fn(ctx, &d);
	}
	sqlite3_reset(st);
	return r ? r : rc == SQLITE_DONE ? ARA_STORE_OK : db_error(s, "listing devices");
}

static int sqlite_ak_add(struct ara_store *base, const struct ara_store_ak *ak)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;

	if (!name_ok(s, "device id", ak->device))
		return ARA_STORE_ERROR;
	if (ak->ek_chain_len > sizeof(ak->ek_chain))
		return say(s, ARA_STORE_ERROR, "an EK chain over %u bytes", ARA_STORE_EK_CHAIN_MAX);
	if (!(st = stmt(s, Q_AK_ADD)))
		return ARA_STORE_ERROR;
	sqlite3_bind_blob(st, 1, ak->signer, sizeof(ak->signer), SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ak->device, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, ak->pub, sizeof(ak->pub), SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, ak->ek_chain, (int)ak->ek_chain_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, ak->enrolled_ms);
	return run(s, st, "adding the AK");
}

static int sqlite_ak_find(struct ara_store *base, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
			  struct ara_store_ak *ak, struct ara_store_device *dev)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int rc, bad = 0;

	if (!(st = stmt(s, Q_AK_FIND)))
		return ARA_STORE_ERROR;
	sqlite3_bind_blob(st, 1, signer, ARA_STORE_AK_SIGNER_LEN, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		memset(ak, 0, sizeof(*ak));
		memcpy(ak->signer, signer, sizeof(ak->signer));
		text_col(st, 0, ak->device, sizeof(ak->device));
		ak->ek_chain_len = (size_t)sqlite3_column_bytes(st, 2);
		bad = blob_col(st, 1, ak->pub, sizeof(ak->pub)) ||
		      ak->ek_chain_len > sizeof(ak->ek_chain) ||
		      blob_col(st, 2, ak->ek_chain, ak->ek_chain_len);
		ak->enrolled_ms = sqlite3_column_int64(st, 3);
		ak->revoked_ms = sqlite3_column_int64(st, 4);
		device_row(st, 5, dev);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return say(s, ARA_STORE_NOT_FOUND, "no AK with that signer");
	if (rc != SQLITE_ROW)
		return db_error(s, "finding the AK");
	return bad ? say(s, ARA_STORE_ERROR, "the AK row is damaged") : ARA_STORE_OK;
}

static int sqlite_ak_revoke(struct ara_store *base, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
			    int64_t now)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int r;

	if (!(st = stmt(s, Q_AK_REVOKE)))
		return ARA_STORE_ERROR;
	sqlite3_bind_blob(st, 1, signer, ARA_STORE_AK_SIGNER_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if ((r = run(s, st, "revoking the AK")))
		return r;
	return sqlite3_changes(s->db) == 1
		       ? ARA_STORE_OK
		       : say(s, ARA_STORE_NOT_FOUND, "no unrevoked AK with that signer");
}

static int sqlite_policy_add(struct ara_store *base, const char *text, int64_t now,
			     uint32_t *version)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int64_t v = 0;
	int r;

	if (strlen(text) > ARA_STORE_POLICY_MAX)
		return say(s, ARA_STORE_ERROR, "a policy over %u bytes", ARA_STORE_POLICY_MAX);
	if (!(st = stmt(s, Q_POLICY_ADD)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	r = run_returning(s, st, "adding the policy", &v);
	*version = (uint32_t)v;
	return r;
}

static int sqlite_policy_newest(struct ara_store *base, uint32_t *version)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int rc, none = 1;

	if (!(st = stmt(s, Q_POLICY_NEWEST)))
		return ARA_STORE_ERROR;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		none = sqlite3_column_type(st, 0) == SQLITE_NULL;
		*version = (uint32_t)sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return db_error(s, "reading the newest policy version");
	return none ? say(s, ARA_STORE_NOT_FOUND, "no policy in the store") : ARA_STORE_OK;
}

static int sqlite_policy_get(struct ara_store *base, uint32_t version, char *text, size_t cap,
			     int64_t *created)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int rc, r = ARA_STORE_OK;

	if (!(st = stmt(s, Q_POLICY_GET)))
		return ARA_STORE_ERROR;
	sqlite3_bind_int64(st, 1, version);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		size_t n = (size_t)sqlite3_column_bytes(st, 0);

		if (n >= cap) {
			r = say(s, ARA_STORE_ERROR, "policy version %u: %zu bytes, over %zu",
				version, n, cap - 1);
		} else {
			memcpy(text, sqlite3_column_text(st, 0), n);
			text[n] = '\0';
			*created = sqlite3_column_int64(st, 1);
		}
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return say(s, ARA_STORE_NOT_FOUND, "no policy version %u", version);
	return rc == SQLITE_ROW ? r : db_error(s, "reading a policy");
}

static int sqlite_secret_put(struct ara_store *base, struct ara_store_secret *in)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int r;

	if (!name_ok(s, "secret name", in->name))
		return ARA_STORE_ERROR;
	if (in->sealed_len > sizeof(in->sealed) || in->sealed_len == 0)
		return say(s, ARA_STORE_ERROR, "a sealed secret of %zu bytes", in->sealed_len);
	if (!(st = stmt(s, Q_SECRET_PUT)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, in->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, in->once != 0);
	sqlite3_bind_blob(st, 3, in->sealed, (int)in->sealed_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, in->created_ms);
	sqlite3_bind_int64(st, 5, in->version);
	r = run(s, st, "adding the secret");
	if (r == ARA_STORE_OK && sqlite3_changes(s->db) != 1)
		r = say(s, ARA_STORE_CONFLICT, "secret '%s': version %u is not the next", in->name,
			in->version);
	return r;
}

static int sqlite_secret_get(struct ara_store *base, const char *name,
			     struct ara_store_secret *out)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;
	int rc, bad = 0;

	if (!(st = stmt(s, Q_SECRET_GET)))
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		memset(out, 0, sizeof(*out));
		snprintf(out->name, sizeof(out->name), "%s", name);
		out->sealed_len = (size_t)sqlite3_column_bytes(st, 2);
		bad = secret_fields(st, 0, 3, out) || out->sealed_len > sizeof(out->sealed) ||
		      blob_col(st, 2, out->sealed, out->sealed_len);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return say(s, ARA_STORE_NOT_FOUND, "no secret '%.64s'", name);
	if (rc != SQLITE_ROW)
		return db_error(s, "reading a secret");
	return bad ? say(s, ARA_STORE_ERROR, "secret '%s': the row is damaged", name)
		   : ARA_STORE_OK;
}

/* The delivery's row, in deliver()'s transaction: as deliver() says. */
static int insert_delivery(struct sqlite_store *s, struct ara_store_delivery *d)
{
	sqlite3_stmt *st;
	int r;

	if (!(st = stmt(s, Q_CLAIM)))
		return ARA_STORE_ERROR;
	sqlite3_bind_int64(st, 1, d->time_ms);
	sqlite3_bind_text(st, 2, d->peer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)d->session);
	sqlite3_bind_text(st, 4, d->service, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, d->device, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, d->instance_pub, sizeof(d->instance_pub), SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, d->app, sizeof(d->app), SQLITE_STATIC);
	sqlite3_bind_text(st, 8, d->secret, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, d->secret_version);
	sqlite3_bind_int(st, 10, d->once != 0);
	r = run_returning(s, st, "recording the delivery", &d->id);
	if (r == ARA_STORE_CONFLICT)
		say(s, r, "secret '%s' version %u is once-only and was delivered already",
		    d->secret, d->secret_version);
	return r;
}

/* The device's last accepted attestation, in deliver()'s transaction. */
static int device_seen(struct sqlite_store *s, const char *id, int64_t now)
{
	sqlite3_stmt *st = stmt(s, Q_DEVICE_SEEN);

	if (!st)
		return ARA_STORE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	return run(s, st, "recording the attestation");
}

/* Binds the filter's ?1..?5 (and the audit's ?6). */
static void bind_filter(sqlite3_stmt *st, const struct ara_store_filter *f, int audit)
{
	sqlite3_bind_int64(st, 1, f->since_ms);
	sqlite3_bind_int64(st, 2, f->until_ms);
	sqlite3_bind_text(st, 3, f->device ? f->device : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, f->secret ? f->secret : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, f->limit ? (int64_t)f->limit : -1);
	if (audit)
		sqlite3_bind_text(st, 6, f->decision ? f->decision : "", -1, SQLITE_STATIC);
}

static int sqlite_delivery_list(struct ara_store *base, const struct ara_store_filter *f,
				ara_store_delivery_fn fn, void *ctx)
{
	struct sqlite_store *s = of(base);
	struct ara_store_delivery d;
	sqlite3_stmt *st;
	int rc, r = 0;

	if (!(st = stmt(s, Q_DELIVERY_LIST)))
		return ARA_STORE_ERROR;
	bind_filter(st, f, 0);
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&d, 0, sizeof(d));
		d.id = sqlite3_column_int64(st, 0);
		d.time_ms = sqlite3_column_int64(st, 1);
		text_col(st, 2, d.peer, sizeof(d.peer));
		d.session = (uint64_t)sqlite3_column_int64(st, 3);
		text_col(st, 4, d.service, sizeof(d.service));
		text_col(st, 5, d.device, sizeof(d.device));
		if (blob_col(st, 6, d.instance_pub, sizeof(d.instance_pub)) ||
		    blob_col(st, 7, d.app, sizeof(d.app))) {
			sqlite3_reset(st);
			return say(s, ARA_STORE_ERROR, "delivery %lld: the row is damaged",
				   (long long)d.id);
		}
		text_col(st, 8, d.secret, sizeof(d.secret));
		d.secret_version = (uint32_t)sqlite3_column_int64(st, 9);
		d.once = sqlite3_column_int(st, 10);
		r = fn(ctx, &d);
	}
	sqlite3_reset(st);
	return r ? r : rc == SQLITE_DONE ? ARA_STORE_OK : db_error(s, "listing deliveries");
}

static int sqlite_audit_append(struct ara_store *base, struct ara_store_audit *a)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;

	if (!(st = stmt(s, Q_AUDIT_APPEND)))
		return ARA_STORE_ERROR;
	sqlite3_bind_int64(st, 1, a->time_ms);
	sqlite3_bind_text(st, 2, a->peer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)a->session);
	sqlite3_bind_text(st, 4, a->service, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, a->decision, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, a->reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, a->detail, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, a->device, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, a->secret, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, a->policy_version);
	return run_returning(s, st, "appending to the audit log", &a->id);
}

/* One transaction, so one commit (and in WAL mode one write of the log) a delivery. */
static int sqlite_deliver(struct ara_store *base, struct ara_store_delivery *d,
			  struct ara_store_audit *a)
{
	struct sqlite_store *s = of(base);
	int r;

	if (!name_ok(s, "secret name", d->secret) ||
	    (a->device[0] && !name_ok(s, "device", a->device)))
		return ARA_STORE_ERROR;
	if (exec(s, "BEGIN IMMEDIATE", "recording the delivery: begin"))
		return ARA_STORE_ERROR;
	r = insert_delivery(s, d);
	if (r == ARA_STORE_OK)
		r = sqlite_audit_append(base, a);
	if (r == ARA_STORE_OK && a->device[0])
		r = device_seen(s, a->device, a->time_ms);
	if (r == ARA_STORE_OK)
		r = exec(s, "COMMIT", "recording the delivery: commit");
	if (r != ARA_STORE_OK)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

static int sqlite_report_add(struct ara_store *base, struct ara_store_report *r)
{
	struct sqlite_store *s = of(base);
	sqlite3_stmt *st;

	if (!(st = stmt(s, Q_REPORT_ADD)))
		return ARA_STORE_ERROR;
	sqlite3_bind_int64(st, 1, r->time_ms);
	sqlite3_bind_text(st, 2, r->peer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)r->session);
	sqlite3_bind_text(st, 4, r->service, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->device, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, r->instance_pub, sizeof(r->instance_pub), SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, r->app, sizeof(r->app), SQLITE_STATIC);
	sqlite3_bind_int(st, 8, r->verified != 0);
	sqlite3_bind_text(st, 9, r->detail, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, (int64_t)r->entries);
	sqlite3_bind_int(st, 11, r->final != 0);
	sqlite3_bind_blob64(st, 12, r->report, r->report_len, SQLITE_STATIC);
	sqlite3_bind_text(st, 13, r->ear, -1, SQLITE_STATIC);
	return run_returning(s, st, "recording the RTM report", &r->id);
}

static int sqlite_audit_query(struct ara_store *base, const struct ara_store_filter *f,
			      ara_store_audit_fn fn, void *ctx)
{
	struct sqlite_store *s = of(base);
	struct ara_store_audit a;
	sqlite3_stmt *st;
	int rc, r = 0;

	if (!(st = stmt(s, Q_AUDIT_QUERY)))
		return ARA_STORE_ERROR;
	bind_filter(st, f, 1);
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&a, 0, sizeof(a));
		a.id = sqlite3_column_int64(st, 0);
		a.time_ms = sqlite3_column_int64(st, 1);
		text_col(st, 2, a.peer, sizeof(a.peer));
		a.session = (uint64_t)sqlite3_column_int64(st, 3);
		text_col(st, 4, a.service, sizeof(a.service));
		text_col(st, 5, a.decision, sizeof(a.decision));
		text_col(st, 6, a.reason, sizeof(a.reason));
		text_col(st, 7, a.detail, sizeof(a.detail));
		text_col(st, 8, a.device, sizeof(a.device));
		text_col(st, 9, a.secret, sizeof(a.secret));
		a.policy_version = (uint32_t)sqlite3_column_int64(st, 10);
		r = fn(ctx, &a);
	}
	sqlite3_reset(st);
	return r ? r : rc == SQLITE_DONE ? ARA_STORE_OK : db_error(s, "querying the audit log");
}

const struct ara_store_ops ara_store_sqlite_ops = {
	.scheme = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.migrate = sqlite_migrate,
	.device_add = sqlite_device_add,
	.device_revoke = sqlite_device_revoke,
	.device_get = sqlite_device_get,
	.device_list = sqlite_device_list,
	.ak_add = sqlite_ak_add,
	.ak_revoke = sqlite_ak_revoke,
	.ak_find = sqlite_ak_find,
	.policy_add = sqlite_policy_add,
	.policy_newest = sqlite_policy_newest,
	.policy_get = sqlite_policy_get,
	.secret_put = sqlite_secret_put,
	.secret_get = sqlite_secret_get,
	.deliver = sqlite_deliver,
	.delivery_list = sqlite_delivery_list,
	.audit_append = sqlite_audit_append,
	.audit_query = sqlite_audit_query,
	.report_add = sqlite_report_add,
};
