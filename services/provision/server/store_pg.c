/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PostgreSQL backend of the store (store.h), over libpq: for many
 * service instances sharing one database. Every call is one SQL statement
 * (a transaction of its own) but migrate(), whose steps each run in a
 * transaction under an advisory lock, so instances starting together
 * migrate once. "At most once" is the unique index deliveries_once
 * (store_pg_schema.h): a second delivery of a once-only secret version gets
 * SQLSTATE 23505, which is CONFLICT. A policy version is the newest plus
 * one, computed in the INSERT; two instances adding at once collide on the
 * primary key and the loser computes again. A secret version is the
 * caller's, sealed for it (store.h): a collision is the caller's CONFLICT.
 *
 * A lost connection (the server restarted) fails the call that finds it
 * (ERROR: whether a write committed is then unknown, so it is not
 * repeated) and the next call connects again.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "ara/hex.h"
#include "store_pg.h"
#include "store_pg_schema.h"

#define STEPS (sizeof(store_pg_steps) / sizeof(store_pg_steps[0]))
_Static_assert(STEPS == ARA_STORE_SCHEMA_VERSION, "one step per schema version");

/* pg_advisory_xact_lock's key for migrations: "ARAstore". */
#define MIGRATE_LOCK "4724563580411572837"
/* Attempts of a version's INSERT that another instance's races. */
#define VERSION_TRIES 8

/* The statements, prepared on a connection the first time each is used. */
enum stmt {
	S_DEVICE_ADD,
	S_DEVICE_REVOKE,
	S_DEVICE_GET,
	S_DEVICE_LIST,
	S_AK_ADD,
	S_AK_REVOKE,
	S_AK_FIND,
	S_POLICY_ADD,
	S_POLICY_NEWEST,
	S_POLICY_GET,
	S_SECRET_PUT,
	S_SECRET_GET,
	S_SECRET_NEXT,
	S_SECRET_RESEAL,
	S_DELIVER,
	S_DELIVERY_LIST,
	S_AUDIT_APPEND,
	S_AUDIT_QUERY,
	S_REPORT_ADD,
	S_COUNT
};

#define DEVICE_COLS "d.id, d.enrolled_ms, d.revoked_ms, d.revoke_reason, d.last_attest_ms"
#define DELIVERY_COLS \
	"id, time_ms, peer, session, service, device, instance_pub, app, secret, " \
	"secret_version, once"
#define AUDIT_COLS \
	"id, time_ms, peer, session, service, decision, reason, detail, device, secret, " \
	"policy_version"
/* A listing's filter ($1..$5: since, until, device, secret, limit; NULL limit: all). */
#define FILTER(table, cols, extra)                                                      \
	"SELECT " cols " FROM (SELECT " cols " FROM " table                              \
	" WHERE ($1::bigint = 0 OR time_ms >= $1::bigint)"                               \
	" AND ($2::bigint = 0 OR time_ms < $2::bigint)"                                  \
	" AND ($3::text = '' OR device = $3::text) AND ($4::text = '' OR secret = $4::text)" \
	extra                                                                            \
	" ORDER BY id DESC LIMIT $5::bigint) newest ORDER BY id"

static const char *const stmt_sql[S_COUNT] = {
	[S_DEVICE_ADD] = "INSERT INTO devices (id, enrolled_ms) VALUES ($1, $2)",
	[S_DEVICE_REVOKE] = "UPDATE devices SET revoked_ms = $2, revoke_reason = $3"
			    " WHERE id = $1 AND revoked_ms = 0",
	[S_DEVICE_GET] = "SELECT " DEVICE_COLS " FROM devices d WHERE d.id = $1",
	[S_DEVICE_LIST] = "SELECT " DEVICE_COLS " FROM devices d ORDER BY d.id",
	[S_AK_ADD] = "INSERT INTO aks (signer, device, pub, ek_chain, enrolled_ms)"
		     " VALUES ($1, $2, $3, $4, $5)",
	[S_AK_REVOKE] = "UPDATE aks SET revoked_ms = $2 WHERE signer = $1 AND revoked_ms = 0",
	[S_AK_FIND] = "SELECT a.pub, a.ek_chain, a.enrolled_ms, a.revoked_ms, " DEVICE_COLS
		      " FROM aks a JOIN devices d ON d.id = a.device WHERE a.signer = $1",
	[S_POLICY_ADD] = "INSERT INTO policies (version, text, created_ms)"
			 " SELECT coalesce(max(version), 0) + 1, $1, $2 FROM policies"
			 " RETURNING version",
	[S_POLICY_NEWEST] = "SELECT max(version) FROM policies",
	[S_POLICY_GET] = "SELECT text, created_ms FROM policies WHERE version = $1",
	/* Only the next version: 0 rows if $5 is not (a racing writer's: a key violation). */
	[S_SECRET_PUT] = "INSERT INTO secrets (name, version, once, sealed, created_ms)"
			 " SELECT $1::text, $5::integer, $2::integer, $3::bytea, $4::bigint"
			 " WHERE (SELECT coalesce(max(version), 0) FROM secrets"
			 " WHERE name = $1::text) + 1 = $5::integer",
	/* The migration's re-seal (store.h's step 4): the row after ($1, $2), and its update. */
	[S_SECRET_NEXT] = "SELECT name, version, once, sealed, created_ms FROM secrets"
			  " WHERE name > $1::text OR (name = $1::text AND version > $2::integer)"
			  " ORDER BY name, version LIMIT 1",
	[S_SECRET_RESEAL] = "UPDATE secrets SET sealed = $3 WHERE name = $1 AND version = $2",
	[S_SECRET_GET] = "SELECT version, once, sealed, created_ms FROM secrets"
			 " WHERE name = $1 ORDER BY version DESC LIMIT 1",
	/*
	 * deliver(): one statement, so one transaction, one round trip and one
	 * commit. PostgreSQL runs every data-modifying WITH to its end whether
	 * the SELECT reads it or not; a unique violation in d undoes all three.
	 */
	[S_DELIVER] = "WITH d AS (INSERT INTO deliveries (time_ms, peer, session, service, device,"
		      " instance_pub, app, secret, secret_version, once)"
		      " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id),"
		      " a AS (INSERT INTO audit (time_ms, peer, session, service, decision,"
		      " reason, detail, device, secret, policy_version)"
		      " VALUES ($11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id),"
		      " seen AS (UPDATE devices SET last_attest_ms = greatest(last_attest_ms, $11)"
		      " WHERE $18 <> '' AND id = $18 RETURNING id)"
		      " SELECT (SELECT id FROM d), (SELECT id FROM a)",
	[S_DELIVERY_LIST] = FILTER("deliveries", DELIVERY_COLS, ""),
	[S_AUDIT_APPEND] = "INSERT INTO audit (time_ms, peer, session, service, decision,"
			   " reason, detail, device, secret, policy_version)"
			   " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
	[S_AUDIT_QUERY] = FILTER("audit", AUDIT_COLS, " AND ($6::text = '' OR decision = $6::text)"),
	[S_REPORT_ADD] = "INSERT INTO reports (time_ms, peer, session, service, device,"
			 " instance_pub, app, verified, detail, entries, final, report, ear)"
			 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
			 " RETURNING id",
};

struct pg_store {
	struct ara_store base; /* first: the handle callers hold */
	PGconn *conn;
	char name[160]; /* "postgresql HOST:PORT/DB": no password */
	uint32_t prepared; /* bit per enum stmt, on this connection */
};

_Static_assert(S_COUNT <= 32, "prepared is a 32-bit mask");

#define PARAMS_MAX 20

/* A statement's parameters: text, but bytea in binary. */
struct params {
	int n;
	const char *value[PARAMS_MAX];
	int len[PARAMS_MAX], format[PARAMS_MAX];
	char num[PARAMS_MAX][24];
};

static void p_text(struct params *p, const char *s)
{
	p->value[p->n] = s;
	p->len[p->n] = 0;
	p->format[p->n++] = 0;
}

static void p_int(struct params *p, int64_t v)
{
	snprintf(p->num[p->n], sizeof(p->num[0]), "%" PRId64, v);
	p_text(p, p->num[p->n]);
}

/* bytea: binary, so any length including none. */
static void p_bytes(struct params *p, const uint8_t *b, size_t len)
{
	static const char none;

	p->value[p->n] = len ? (const char *)b : &none;
	p->len[p->n] = (int)len;
	p->format[p->n++] = 1;
}

static void set_why(struct pg_store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_why(struct pg_store *s, const char *fmt, ...)
{
	int n = snprintf(s->base.why, sizeof(s->base.why), "%s: ", s->name);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(s->base.why))
		vsnprintf(s->base.why + n, sizeof(s->base.why) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* The first line of a libpq message, without "ERROR:  " and the newline. */
static void first_line(const char *msg, char *out, size_t cap)
{
	if (!msg || !*msg)
		msg = "(no message)";
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	snprintf(out, cap, "%.*s", (int)strcspn(msg, "\n"), msg);
}

/* A connection that is not (or no longer) there: connect again, unprepared. */
static int connected(struct pg_store *s)
{
	char line[160];

	if (PQstatus(s->conn) == CONNECTION_OK)
		return 0;
	PQreset(s->conn);
	s->prepared = 0;
	if (PQstatus(s->conn) == CONNECTION_OK)
		return 0;
	first_line(PQerrorMessage(s->conn), line, sizeof(line));
	set_why(s, "cannot connect: %s", line);
	return -1;
}

/* Notices ("already exists, skipping") are not the caller's business. */
static void no_notices(void *arg, const PGresult *res)
{
	(void)arg;
	(void)res;
}

/*
 * Runs a statement: ARA_STORE_OK with *res (the caller clears it);
 * CONFLICT for a unique violation, NOT_FOUND for a missing reference
 * (foreign key), ERROR otherwise, each with why naming what.
 */
static int run_result(struct pg_store *s, enum stmt st, const struct params *p, const char *what,
		      PGresult **res)
{
	ExecStatusType status;
	const char *state;
	char line[160], name[8];
	int rc;

	*res = NULL;
	if (connected(s))
		return ARA_STORE_ERROR;
	snprintf(name, sizeof(name), "s%d", (int)st);
	if (!(s->prepared & (1u << st))) {
		PGresult *r = PQprepare(s->conn, name, stmt_sql[st], 0, NULL);

		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			first_line(PQresultErrorMessage(r), line, sizeof(line));
			set_why(s, "%s: cannot prepare: %s", what, line);
			PQclear(r);
			return ARA_STORE_ERROR;
		}
		PQclear(r);
		s->prepared |= 1u << st;
	}
	*res = PQexecPrepared(s->conn, name, p ? p->n : 0, p ? p->value : NULL, p ? p->len : NULL,
			      p ? p->format : NULL, 0);
	status = PQresultStatus(*res);
	if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
		return ARA_STORE_OK;
	state = PQresultErrorField(*res, PG_DIAG_SQLSTATE);
	first_line(PQresultErrorMessage(*res), line, sizeof(line));
	rc = ARA_STORE_ERROR;
	if (state && !strcmp(state, "23505"))
		rc = ARA_STORE_CONFLICT;
	else if (state && !strcmp(state, "23503"))
		rc = ARA_STORE_NOT_FOUND;
	set_why(s, "%s: %s", what, line);
	PQclear(*res);
	*res = NULL;
	return rc;
}

/* A statement whose rows the caller does not read: the rows it changed in *changed. */
static int run(struct pg_store *s, enum stmt st, const struct params *p, const char *what,
	       long *changed)
{
	PGresult *res;
	int rc = run_result(s, st, p, what, &res);

	if (rc == ARA_STORE_OK && changed)
		*changed = strtol(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return rc;
}

static int name_ok(struct pg_store *s, const char *what, const char *name)
{
	if (name && ara_wire_name_ok((const uint8_t *)name, strlen(name)))
		return 0;
	set_why(s, "%s '%.64s' is not 1..%u of [A-Za-z0-9._-]", what, name ? name : "",
		ARA_STORE_NAME_MAX);
	return -1;
}

/* Column col of row 0..: integers, text and bytea (of at most cap bytes). */
static int64_t col_int(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static void col_text(const PGresult *r, int row, int col, char *out, size_t cap)
{
	snprintf(out, cap, "%s", PQgetvalue(r, row, col));
}

/* bytea in the text output's hex form, "\x..."; -1 if it does not fit cap. */
static long col_bytes(const PGresult *r, int row, int col, uint8_t *out, size_t cap)
{
	const char *v = PQgetvalue(r, row, col);

	if (strncmp(v, "\\x", 2))
		return -1;
	if (!v[2])
		return 0;
	return ara_hex_decode(v + 2, out, cap);
}

/* A row's bytea of exactly len bytes; ERROR naming what if not. */
static int col_exact(struct pg_store *s, const PGresult *r, int row, int col, uint8_t *out,
		     size_t len, const char *what)
{
	if (col_bytes(r, row, col, out, len) == (long)len)
		return ARA_STORE_OK;
	set_why(s, "%s: a stored value of another size than %zu bytes", what, len);
	return ARA_STORE_ERROR;
}

static void row_device(const PGresult *r, int row, int col, struct ara_store_device *d)
{
	memset(d, 0, sizeof(*d));
	col_text(r, row, col, d->id, sizeof(d->id));
	d->enrolled_ms = col_int(r, row, col + 1);
	d->revoked_ms = col_int(r, row, col + 2);
	col_text(r, row, col + 3, d->revoke_reason, sizeof(d->revoke_reason));
	d->last_attest_ms = col_int(r, row, col + 4);
}

static struct ara_store *pg_open(const char *url, char *why, size_t why_cap)
{
	/*
	 * Bounded waits: a server that does not answer must not hold a thread
	 * of the service for the system's TCP timeout, nor a statement for
	 * ever. Given before the URL, so that the URL may set its own.
	 */
	static const char *const keys[] = { "connect_timeout", "options", "dbname", NULL };
	const char *values[] = { "10", "-c statement_timeout=30000", url, NULL };
	struct pg_store *s = calloc(1, sizeof(*s));
	char line[160];

	if (!s) {
		snprintf(why, why_cap, "postgresql: out of memory");
		return NULL;
	}
	s->base.ops = &ara_store_pg_ops;
	s->conn = PQconnectdbParams(keys, values, 1);
	if (!s->conn) {
		snprintf(why, why_cap, "postgresql: out of memory");
		free(s);
		return NULL;
	}
	/* Named by where it is, never by the URL: that may hold a password. */
	snprintf(s->name, sizeof(s->name), "postgresql %s:%s/%s", PQhost(s->conn) ? PQhost(s->conn) : "?",
		 PQport(s->conn) ? PQport(s->conn) : "?", PQdb(s->conn) ? PQdb(s->conn) : "?");
	if (PQstatus(s->conn) != CONNECTION_OK) {
		first_line(PQerrorMessage(s->conn), line, sizeof(line));
		snprintf(why, why_cap, "%s: cannot connect: %s", s->name, line);
		PQfinish(s->conn);
		free(s);
		return NULL;
	}
	PQsetNoticeReceiver(s->conn, no_notices, NULL);
	return &s->base;
}

static void pg_close(struct ara_store *base)
{
	struct pg_store *s = (struct pg_store *)base;

	if (!s)
		return;
	PQfinish(s->conn);
	free(s);
}

/* One command outside the prepared ones (migrations); 0 or -1 with why. */
static int exec_sql(struct pg_store *s, const char *sql, const char *what, PGresult **rows)
{
	PGresult *r = PQexec(s->conn, sql);
	ExecStatusType status = PQresultStatus(r);
	char line[160];

	if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
		if (rows)
			*rows = r;
		else
			PQclear(r);
		return 0;
	}
	first_line(PQresultErrorMessage(r), line, sizeof(line));
	set_why(s, "%s: %s", what, line);
	PQclear(r);
	return -1;
}

/*
 * Step 4 (store.h's migrate()): each secret version re-sealed, one row at a
 * time in (name, version) order, inside the step's transaction. *wait if
 * there is a row but this handle cannot re-seal: the step is left for one
 * that can.
 */
static int reseal_rows(struct pg_store *s, int *wait)
{
	struct ara_store_secret sec;
	char why[ARA_STORE_WHY_MAX];
	int rc = ARA_STORE_OK;

	*wait = 0;
	memset(&sec, 0, sizeof(sec));
	while (rc == ARA_STORE_OK) {
		struct params p = { 0 };
		PGresult *r;
		long len;

		p_text(&p, sec.name);
		p_int(&p, sec.version);
		if ((rc = run_result(s, S_SECRET_NEXT, &p, "migrating: reading a secret", &r)))
			break;
		if (PQntuples(r) == 0 || !s->base.reseal) {
			*wait = PQntuples(r) != 0;
			PQclear(r);
			break;
		}
		col_text(r, 0, 0, sec.name, sizeof(sec.name));
		sec.version = (uint32_t)col_int(r, 0, 1);
		sec.once = col_int(r, 0, 2) != 0;
		len = col_bytes(r, 0, 3, sec.sealed, sizeof(sec.sealed));
		sec.created_ms = col_int(r, 0, 4);
		PQclear(r);
		if (len <= 0) {
			set_why(s, "migrating: secret '%s' version %u: the row is damaged", sec.name,
				sec.version);
			return ARA_STORE_ERROR;
		}
		sec.sealed_len = (size_t)len;
		if (s->base.reseal(s->base.reseal_ctx, &sec, why, sizeof(why))) {
			set_why(s, "migrating to schema version 4: %s; nothing was changed", why);
			return ARA_STORE_ERROR;
		}
		p.n = 0;
		p_text(&p, sec.name);
		p_int(&p, sec.version);
		p_bytes(&p, sec.sealed, sec.sealed_len);
		rc = run(s, S_SECRET_RESEAL, &p, "migrating: re-sealing a secret", NULL);
	}
	return rc;
}

/*
 * One step towards target in its own transaction: the advisory lock makes
 * a concurrent migrate() wait, then read the version it left. *found: the
 * version the first step read (-1 before); *done when it is target.
 */
static int migrate_step(struct pg_store *s, int target, int *found, int *done)
{
	char insert[128];
	PGresult *r;
	int version;

	if (exec_sql(s, "BEGIN", "migrating: begin", NULL))
		return ARA_STORE_ERROR;
	if (exec_sql(s, "SELECT pg_advisory_xact_lock(" MIGRATE_LOCK ")", "migrating: the lock",
		     NULL) ||
	    exec_sql(s, "CREATE TABLE IF NOT EXISTS ara_schema (version INTEGER PRIMARY KEY,"
			" applied_ms BIGINT NOT NULL)", "migrating: the version table", NULL) ||
	    exec_sql(s, "SELECT coalesce(max(version), 0) FROM ara_schema",
		     "migrating: reading the schema version", &r))
		goto fail;
	version = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	if (*found < 0)
		*found = version;
	if (version > (int)STEPS) {
		set_why(s, "the schema is version %d, newer than this program's %d: use a newer program",
			version, (int)STEPS);
		goto fail;
	}
	*done = version >= target;
	if (!*done) {
		snprintf(insert, sizeof(insert),
			 "INSERT INTO ara_schema VALUES (%d,"
			 " (extract(epoch FROM clock_timestamp()) * 1000)::bigint)", version + 1);
		if (store_pg_steps[version] ? exec_sql(s, store_pg_steps[version], "migrating: a step", NULL)
					    : reseal_rows(s, done))
			goto fail;
		if (!*done && exec_sql(s, insert, "migrating: recording the step", NULL))
			goto fail;
	}
	return exec_sql(s, "COMMIT", "migrating: commit", NULL) ? ARA_STORE_ERROR : ARA_STORE_OK;
fail:
	PQclear(PQexec(s->conn, "ROLLBACK"));
	return ARA_STORE_ERROR;
}

int ara_store_pg_migrate_to(struct ara_store *base, int target, int *from)
{
	struct pg_store *s = (struct pg_store *)base;
	int done = 0;

	*from = -1;
	if (target < 1 || target > (int)STEPS) {
		set_why(s, "no schema version %d", target);
		return ARA_STORE_ERROR;
	}
	if (connected(s))
		return ARA_STORE_ERROR;
	while (!done)
		if (migrate_step(s, target, from, &done))
			return ARA_STORE_ERROR;
	return ARA_STORE_OK;
}

static int pg_migrate(struct ara_store *s, int *from)
{
	return ara_store_pg_migrate_to(s, (int)STEPS, from);
}

static int pg_device_add(struct ara_store *base, const char *id, int64_t now_ms)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	int rc;

	if (name_ok(s, "device", id))
		return ARA_STORE_ERROR;
	p_text(&p, id);
	p_int(&p, now_ms);
	rc = run(s, S_DEVICE_ADD, &p, "device add", NULL);
	if (rc == ARA_STORE_CONFLICT)
		set_why(s, "device '%s' is enrolled already", id);
	return rc;
}

static int pg_device_revoke(struct ara_store *base, const char *id, const char *reason,
			    int64_t now_ms)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	long changed = 0;
	int rc;

	if (name_ok(s, "device", id))
		return ARA_STORE_ERROR;
	p_text(&p, id);
	p_int(&p, now_ms);
	p_text(&p, reason ? reason : "");
	rc = run(s, S_DEVICE_REVOKE, &p, "device revoke", &changed);
	if (rc == ARA_STORE_OK && changed == 0) {
		struct ara_store_device d;

		/* Not there, or revoked already: the first revocation stands. */
		rc = ara_store_pg_ops.device_get(base, id, &d);
		if (rc == ARA_STORE_OK) {
			set_why(s, "device '%s' is revoked already", id);
			rc = ARA_STORE_CONFLICT;
		}
	}
	return rc;
}

static int pg_device_get(struct ara_store *base, const char *id, struct ara_store_device *out)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	if (name_ok(s, "device", id))
		return ARA_STORE_ERROR;
	p_text(&p, id);
	if ((rc = run_result(s, S_DEVICE_GET, &p, "device get", &r)))
		return rc;
	if (PQntuples(r) == 0) {
		set_why(s, "no device '%s'", id);
		rc = ARA_STORE_NOT_FOUND;
	} else {
		row_device(r, 0, 0, out);
	}
	PQclear(r);
	return rc;
}

static int pg_device_list(struct ara_store *base, ara_store_device_fn fn, void *ctx)
{
	struct pg_store *s = (struct pg_store *)base;
	struct ara_store_device d;
	PGresult *r;
	int rc;

	if ((rc = run_result(s, S_DEVICE_LIST, NULL, "device list", &r)))
		return rc;
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		row_device(r, i, 0, &d);
		rc = fn(ctx, &d);
	}
	PQclear(r);
	return rc;
}

static int pg_ak_add(struct ara_store *base, const struct ara_store_ak *ak)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	int rc;

	if (name_ok(s, "device", ak->device))
		return ARA_STORE_ERROR;
	if (ak->ek_chain_len > sizeof(ak->ek_chain)) {
		set_why(s, "ak add: an EK chain over %zu bytes", sizeof(ak->ek_chain));
		return ARA_STORE_ERROR;
	}
	p_bytes(&p, ak->signer, sizeof(ak->signer));
	p_text(&p, ak->device);
	p_bytes(&p, ak->pub, sizeof(ak->pub));
	p_bytes(&p, ak->ek_chain, ak->ek_chain_len);
	p_int(&p, ak->enrolled_ms);
	rc = run(s, S_AK_ADD, &p, "ak add", NULL);
	if (rc == ARA_STORE_CONFLICT)
		set_why(s, "this AK is enrolled already");
	else if (rc == ARA_STORE_NOT_FOUND)
		set_why(s, "no device '%s'", ak->device);
	return rc;
}

static int pg_ak_revoke(struct ara_store *base, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
			int64_t now_ms)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	long changed = 0;
	int rc;

	p_bytes(&p, signer, ARA_STORE_AK_SIGNER_LEN);
	p_int(&p, now_ms);
	rc = run(s, S_AK_REVOKE, &p, "ak revoke", &changed);
	if (rc == ARA_STORE_OK && changed == 0) {
		set_why(s, "no AK with that name that is not revoked already");
		rc = ARA_STORE_NOT_FOUND;
	}
	return rc;
}

static int pg_ak_find(struct ara_store *base, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
		      struct ara_store_ak *ak, struct ara_store_device *dev)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	long chain;
	int rc;

	p_bytes(&p, signer, ARA_STORE_AK_SIGNER_LEN);
	if ((rc = run_result(s, S_AK_FIND, &p, "ak find", &r)))
		return rc;
	if (PQntuples(r) == 0) {
		set_why(s, "no AK with that name");
		PQclear(r);
		return ARA_STORE_NOT_FOUND;
	}
	memset(ak, 0, sizeof(*ak));
	memcpy(ak->signer, signer, sizeof(ak->signer));
	rc = col_exact(s, r, 0, 0, ak->pub, sizeof(ak->pub), "ak find");
	chain = col_bytes(r, 0, 1, ak->ek_chain, sizeof(ak->ek_chain));
	if (rc == ARA_STORE_OK && chain < 0) {
		set_why(s, "ak find: a stored EK chain over %zu bytes", sizeof(ak->ek_chain));
		rc = ARA_STORE_ERROR;
	}
	ak->ek_chain_len = chain < 0 ? 0 : (size_t)chain;
	ak->enrolled_ms = col_int(r, 0, 2);
	ak->revoked_ms = col_int(r, 0, 3);
	row_device(r, 0, 4, dev);
	memcpy(ak->device, dev->id, sizeof(ak->device));
	PQclear(r);
	return rc;
}

/* An INSERT that numbers the next version: again while another instance wins the race. */
static int insert_version(struct pg_store *s, enum stmt st, const struct params *p,
			  const char *what, uint32_t *version)
{
	PGresult *r;
	int rc = ARA_STORE_CONFLICT;

	for (int i = 0; i < VERSION_TRIES && rc == ARA_STORE_CONFLICT; i++)
		rc = run_result(s, st, p, what, &r);
	if (rc == ARA_STORE_OK) {
		*version = (uint32_t)col_int(r, 0, 0);
		PQclear(r);
	}
	return rc;
}

static int pg_policy_add(struct ara_store *base, const char *text, int64_t now_ms,
			 uint32_t *version)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };

	if (strlen(text) > ARA_STORE_POLICY_MAX) {
		set_why(s, "policy add: a policy over %u bytes", ARA_STORE_POLICY_MAX);
		return ARA_STORE_ERROR;
	}
	p_text(&p, text);
	p_int(&p, now_ms);
	return insert_version(s, S_POLICY_ADD, &p, "policy add", version);
}

static int pg_policy_newest(struct ara_store *base, uint32_t *version)
{
	struct pg_store *s = (struct pg_store *)base;
	PGresult *r;
	int rc;

	if ((rc = run_result(s, S_POLICY_NEWEST, NULL, "policy newest", &r)))
		return rc;
	if (PQgetisnull(r, 0, 0)) {
		set_why(s, "no policy yet");
		rc = ARA_STORE_NOT_FOUND;
	} else {
		*version = (uint32_t)col_int(r, 0, 0);
	}
	PQclear(r);
	return rc;
}

static int pg_policy_get(struct ara_store *base, uint32_t version, char *text, size_t cap,
			 int64_t *created_ms)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	p_int(&p, version);
	if ((rc = run_result(s, S_POLICY_GET, &p, "policy get", &r)))
		return rc;
	if (PQntuples(r) == 0) {
		set_why(s, "no policy version %" PRIu32, version);
		rc = ARA_STORE_NOT_FOUND;
	} else if ((size_t)PQgetlength(r, 0, 0) >= cap) {
		set_why(s, "policy version %" PRIu32 ": over %zu bytes", version, cap - 1);
		rc = ARA_STORE_ERROR;
	} else {
		memcpy(text, PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0) + 1);
		if (created_ms)
			*created_ms = col_int(r, 0, 1);
	}
	PQclear(r);
	return rc;
}

static int pg_secret_put(struct ara_store *base, struct ara_store_secret *in)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	long changed = 0;
	int rc;

	if (name_ok(s, "secret", in->name))
		return ARA_STORE_ERROR;
	if (in->sealed_len == 0 || in->sealed_len > sizeof(in->sealed)) {
		set_why(s, "secret put: a sealed secret of %zu bytes", in->sealed_len);
		return ARA_STORE_ERROR;
	}
	p_text(&p, in->name);
	p_int(&p, in->once ? 1 : 0);
	p_bytes(&p, in->sealed, in->sealed_len);
	p_int(&p, in->created_ms);
	p_int(&p, in->version);
	rc = run(s, S_SECRET_PUT, &p, "secret put", &changed);
	if (rc == ARA_STORE_OK && changed != 1)
		rc = ARA_STORE_CONFLICT;
	if (rc == ARA_STORE_CONFLICT)
		set_why(s, "secret '%s': version %u is not the next", in->name, in->version);
	return rc;
}

static int pg_secret_get(struct ara_store *base, const char *name, struct ara_store_secret *out)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	long len;
	int rc;

	if (name_ok(s, "secret", name))
		return ARA_STORE_ERROR;
	p_text(&p, name);
	if ((rc = run_result(s, S_SECRET_GET, &p, "secret get", &r)))
		return rc;
	if (PQntuples(r) == 0) {
		set_why(s, "no secret '%s'", name);
		PQclear(r);
		return ARA_STORE_NOT_FOUND;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->version = (uint32_t)col_int(r, 0, 0);
	out->once = col_int(r, 0, 1) != 0;
	len = col_bytes(r, 0, 2, out->sealed, sizeof(out->sealed));
	out->created_ms = col_int(r, 0, 3);
	PQclear(r);
	if (len <= 0) {
		set_why(s, "secret '%s': a stored value that is not a sealed secret", name);
		return ARA_STORE_ERROR;
	}
	out->sealed_len = (size_t)len;
	return ARA_STORE_OK;
}

/* A listing's parameters $1..$5 (and the caller's $6). */
static void filter_params(struct params *p, const struct ara_store_filter *f)
{
	p_int(p, f->since_ms);
	p_int(p, f->until_ms);
	p_text(p, f->device ? f->device : "");
	p_text(p, f->secret ? f->secret : "");
	if (f->limit)
		p_int(p, f->limit);
	else
		p_text(p, NULL); /* LIMIT NULL: all */
}

static int pg_delivery_list(struct ara_store *base, const struct ara_store_filter *f,
			    ara_store_delivery_fn fn, void *ctx)
{
	struct pg_store *s = (struct pg_store *)base;
	struct ara_store_delivery d;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	filter_params(&p, f);
	if ((rc = run_result(s, S_DELIVERY_LIST, &p, "delivery list", &r)))
		return rc;
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		memset(&d, 0, sizeof(d));
		d.id = col_int(r, i, 0);
		d.time_ms = col_int(r, i, 1);
		col_text(r, i, 2, d.peer, sizeof(d.peer));
		d.session = (uint64_t)col_int(r, i, 3);
		col_text(r, i, 4, d.service, sizeof(d.service));
		col_text(r, i, 5, d.device, sizeof(d.device));
		if (col_exact(s, r, i, 6, d.instance_pub, sizeof(d.instance_pub), "delivery list") ||
		    col_exact(s, r, i, 7, d.app, sizeof(d.app), "delivery list")) {
			rc = ARA_STORE_ERROR;
			break;
		}
		col_text(r, i, 8, d.secret, sizeof(d.secret));
		d.secret_version = (uint32_t)col_int(r, i, 9);
		d.once = col_int(r, i, 10) != 0;
		rc = fn(ctx, &d);
	}
	PQclear(r);
	return rc;
}

/* An audit record's ten parameters, in the order of the INSERTs into audit. */
static void audit_params(struct params *p, const struct ara_store_audit *a)
{
	p_int(p, a->time_ms);
	p_text(p, a->peer);
	p_int(p, (int64_t)a->session);
	p_text(p, a->service);
	p_text(p, a->decision);
	p_text(p, a->reason);
	p_text(p, a->detail);
	p_text(p, a->device);
	p_text(p, a->secret);
	p_int(p, a->policy_version);
}

static int pg_audit_append(struct ara_store *base, struct ara_store_audit *a)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	audit_params(&p, a);
	if ((rc = run_result(s, S_AUDIT_APPEND, &p, "audit append", &r)))
		return rc;
	a->id = col_int(r, 0, 0);
	PQclear(r);
	return ARA_STORE_OK;
}

static int pg_deliver(struct ara_store *base, struct ara_store_delivery *d,
		      struct ara_store_audit *a)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	if (name_ok(s, "secret", d->secret) || (d->device[0] && name_ok(s, "device", d->device)) ||
	    (a->device[0] && name_ok(s, "device", a->device)))
		return ARA_STORE_ERROR;
	p_int(&p, d->time_ms);
	p_text(&p, d->peer);
	p_int(&p, (int64_t)d->session);
	p_text(&p, d->service);
	p_text(&p, d->device);
	p_bytes(&p, d->instance_pub, sizeof(d->instance_pub));
	p_bytes(&p, d->app, sizeof(d->app));
	p_text(&p, d->secret);
	p_int(&p, d->secret_version);
	p_int(&p, d->once ? 1 : 0);
	audit_params(&p, a);
	rc = run_result(s, S_DELIVER, &p, "delivery", &r);
	if (rc == ARA_STORE_CONFLICT)
		set_why(s, "secret '%s' version %" PRIu32 " is once-only and was delivered already",
			d->secret, d->secret_version);
	if (rc == ARA_STORE_OK) {
		d->id = col_int(r, 0, 0);
		a->id = col_int(r, 0, 1);
		PQclear(r);
	}
	return rc;
}

static int pg_audit_query(struct ara_store *base, const struct ara_store_filter *f,
			  ara_store_audit_fn fn, void *ctx)
{
	struct pg_store *s = (struct pg_store *)base;
	struct ara_store_audit a;
	struct params p = { 0 };
	PGresult *r;
	int rc;

	filter_params(&p, f);
	p_text(&p, f->decision ? f->decision : "");
	if ((rc = run_result(s, S_AUDIT_QUERY, &p, "audit query", &r)))
		return rc;
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		memset(&a, 0, sizeof(a));
		a.id = col_int(r, i, 0);
		a.time_ms = col_int(r, i, 1);
		col_text(r, i, 2, a.peer, sizeof(a.peer));
		a.session = (uint64_t)col_int(r, i, 3);
		col_text(r, i, 4, a.service, sizeof(a.service));
		col_text(r, i, 5, a.decision, sizeof(a.decision));
		col_text(r, i, 6, a.reason, sizeof(a.reason));
		col_text(r, i, 7, a.detail, sizeof(a.detail));
		col_text(r, i, 8, a.device, sizeof(a.device));
		col_text(r, i, 9, a.secret, sizeof(a.secret));
		a.policy_version = (uint32_t)col_int(r, i, 10);
		rc = fn(ctx, &a);
	}
	PQclear(r);
	return rc;
}

static int pg_report_add(struct ara_store *base, struct ara_store_report *r)
{
	struct pg_store *s = (struct pg_store *)base;
	struct params p = { 0 };
	PGresult *res;
	int rc;

	if (r->report_len > INT_MAX) {
		set_why(s, "report add: a report of %zu bytes", r->report_len);
		return ARA_STORE_ERROR;
	}
	p_int(&p, r->time_ms);
	p_text(&p, r->peer);
	p_int(&p, (int64_t)r->session);
	p_text(&p, r->service);
	p_text(&p, r->device);
	p_bytes(&p, r->instance_pub, sizeof(r->instance_pub));
	p_bytes(&p, r->app, sizeof(r->app));
	p_int(&p, r->verified ? 1 : 0);
	p_text(&p, r->detail);
	p_int(&p, (int64_t)r->entries);
	p_int(&p, r->final ? 1 : 0);
	p_bytes(&p, r->report, r->report_len);
	p_text(&p, r->ear ? r->ear : "");
	if ((rc = run_result(s, S_REPORT_ADD, &p, "recording the RTM report", &res)))
		return rc;
	r->id = col_int(res, 0, 0);
	PQclear(res);
	return ARA_STORE_OK;
}

const struct ara_store_ops ara_store_pg_ops = {
	.scheme = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.migrate = pg_migrate,
	.device_add = pg_device_add,
	.device_revoke = pg_device_revoke,
	.device_get = pg_device_get,
	.device_list = pg_device_list,
	.ak_add = pg_ak_add,
	.ak_revoke = pg_ak_revoke,
	.ak_find = pg_ak_find,
	.policy_add = pg_policy_add,
	.policy_newest = pg_policy_newest,
	.policy_get = pg_policy_get,
	.secret_put = pg_secret_put,
	.secret_get = pg_secret_get,
	.deliver = pg_deliver,
	.delivery_list = pg_delivery_list,
	.audit_append = pg_audit_append,
	.audit_query = pg_audit_query,
	.report_add = pg_report_add,
};
