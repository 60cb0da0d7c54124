/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PostgreSQL backend's schema (store_pg.c): the same steps as
 * store_sqlite_schema.h, with the same tables and columns, in PostgreSQL's
 * SQL: step N brings a database from version N-1 to N. A step is never
 * changed once released; a change of schema is a new step at the end of
 * both files. ara_schema holds one row per applied step.
 */
#ifndef ARA_PROVISION_STORE_PG_SCHEMA_H
#define ARA_PROVISION_STORE_PG_SCHEMA_H

static const char *const store_pg_steps[] = {
	/* 1: the state. */
	"CREATE TABLE devices ("
	" id TEXT PRIMARY KEY,"
	" enrolled_ms BIGINT NOT NULL,"
	" revoked_ms BIGINT NOT NULL DEFAULT 0,"
	" revoke_reason TEXT NOT NULL DEFAULT '',"
	" last_attest_ms BIGINT NOT NULL DEFAULT 0);"
	"CREATE TABLE aks ("
	" signer BYTEA PRIMARY KEY,"
	" device TEXT NOT NULL REFERENCES devices(id),"
	" pub BYTEA NOT NULL,"
	" ek_chain BYTEA NOT NULL,"
	" enrolled_ms BIGINT NOT NULL,"
	" revoked_ms BIGINT NOT NULL DEFAULT 0);"
	"CREATE INDEX aks_device ON aks(device);"
	"CREATE TABLE policies ("
	" version INTEGER PRIMARY KEY,"
	" text TEXT NOT NULL,"
	" created_ms BIGINT NOT NULL);"
	"CREATE TABLE secrets ("
	" name TEXT NOT NULL,"
	" version INTEGER NOT NULL,"
	" once INTEGER NOT NULL,"
	" sealed BYTEA NOT NULL,"
	" created_ms BIGINT NOT NULL,"
	" PRIMARY KEY (name, version));"
	"CREATE TABLE deliveries ("
	" id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	" time_ms BIGINT NOT NULL,"
	" peer TEXT NOT NULL,"
	" session BIGINT NOT NULL,"
	" service TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" instance_pub BYTEA NOT NULL,"
	" app BYTEA NOT NULL,"
	" secret TEXT NOT NULL,"
	" secret_version INTEGER NOT NULL,"
	" once INTEGER NOT NULL);"
	/* At most once: the database refuses a second delivery of a once-only version. */
	"CREATE UNIQUE INDEX deliveries_once ON deliveries(secret, secret_version) WHERE once = 1;"
	"CREATE TABLE audit ("
	" id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	" time_ms BIGINT NOT NULL,"
	" peer TEXT NOT NULL,"
	" session BIGINT NOT NULL,"
	" service TEXT NOT NULL,"
	" decision TEXT NOT NULL,"
	" reason TEXT NOT NULL,"
	" detail TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" secret TEXT NOT NULL,"
	" policy_version INTEGER NOT NULL);",

	/* 2: append-only audit and delivery records; the listings' indexes. */
	"CREATE FUNCTION ara_append_only() RETURNS trigger LANGUAGE plpgsql AS $$"
	" BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$;"
	"CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit"
	" FOR EACH STATEMENT EXECUTE FUNCTION ara_append_only();"
	"CREATE TRIGGER deliveries_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON deliveries"
	" FOR EACH STATEMENT EXECUTE FUNCTION ara_append_only();"
	"CREATE INDEX audit_time ON audit(time_ms);"
	"CREATE INDEX audit_device ON audit(device, time_ms);"
	"CREATE INDEX deliveries_time ON deliveries(time_ms);",

	/* 3: RTM reports submitted by Apps, with their verdicts; append-only. */
	"CREATE TABLE reports ("
	" id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	" time_ms BIGINT NOT NULL,"
	" peer TEXT NOT NULL,"
	" session BIGINT NOT NULL,"
	" service TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" instance_pub BYTEA NOT NULL,"
	" app BYTEA NOT NULL,"
	" verified INTEGER NOT NULL,"
	" detail TEXT NOT NULL,"
	" entries BIGINT NOT NULL,"
	" final INTEGER NOT NULL,"
	" report BYTEA NOT NULL,"
	" ear TEXT NOT NULL);"
	"CREATE TRIGGER reports_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON reports"
	" FOR EACH STATEMENT EXECUTE FUNCTION ara_append_only();"
	"CREATE INDEX reports_device ON reports(device, time_ms);",

	/*
	 * 4: every secret version re-sealed under kek.h's rule 2, which binds
	 * its name, version, once flag and time: no SQL, the backend's
	 * migrate() runs the KEK holder's re-seal over each row (store.h).
	 */
	NULL,
};

#endif
