/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite backend's schema (store_sqlite.c), one migration per version:
 * step N brings a database from version N-1 to N. A step is never changed
 * once released; a change of schema is a new step at the end (and the same
 * step in store_pg_schema.h). ara_schema holds one row per applied step.
 */
#ifndef ARA_PROVISION_STORE_SQLITE_SCHEMA_H
#define ARA_PROVISION_STORE_SQLITE_SCHEMA_H

static const char *const store_sqlite_steps[] = {
	/* 1: the state. */
	"CREATE TABLE devices ("
	" id TEXT PRIMARY KEY,"
	" enrolled_ms INTEGER NOT NULL,"
	" revoked_ms INTEGER NOT NULL DEFAULT 0,"
	" revoke_reason TEXT NOT NULL DEFAULT '',"
	" last_attest_ms INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE aks ("
	" signer BLOB PRIMARY KEY,"
	" device TEXT NOT NULL REFERENCES devices(id),"
	" pub BLOB NOT NULL,"
	" ek_chain BLOB NOT NULL,"
	" enrolled_ms INTEGER NOT NULL,"
	" revoked_ms INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX aks_device ON aks(device);"
	"CREATE TABLE policies ("
	" version INTEGER PRIMARY KEY,"
	" text TEXT NOT NULL,"
	" created_ms INTEGER NOT NULL);"
	"CREATE TABLE secrets ("
	" name TEXT NOT NULL,"
	" version INTEGER NOT NULL,"
	" once INTEGER NOT NULL,"
	" sealed BLOB NOT NULL,"
	" created_ms INTEGER NOT NULL,"
	" PRIMARY KEY (name, version));"
	"CREATE TABLE deliveries ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" time_ms INTEGER NOT NULL,"
	" peer TEXT NOT NULL,"
	" session INTEGER NOT NULL,"
	" service TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" instance_pub BLOB NOT NULL,"
	" app BLOB NOT NULL,"
	" secret TEXT NOT NULL,"
	" secret_version INTEGER NOT NULL,"
	" once INTEGER NOT NULL);"
	/* At most once: the database refuses a second delivery of a once-only version. */
	"CREATE UNIQUE INDEX deliveries_once ON deliveries(secret, secret_version) WHERE once = 1;"
	"CREATE TABLE audit ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" time_ms INTEGER NOT NULL,"
	" peer TEXT NOT NULL,"
	" session INTEGER NOT NULL,"
	" service TEXT NOT NULL,"
	" decision TEXT NOT NULL,"
	" reason TEXT NOT NULL,"
	" detail TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" secret TEXT NOT NULL,"
	" policy_version INTEGER NOT NULL);",

	/* 2: append-only audit and delivery records; the listings' indexes. */
	"CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit"
	" BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;"
	"CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit"
	" BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;"
	"CREATE TRIGGER deliveries_no_update BEFORE UPDATE ON deliveries"
	" BEGIN SELECT RAISE(ABORT, 'delivery records are append-only'); END;"
	"CREATE TRIGGER deliveries_no_delete BEFORE DELETE ON deliveries"
	" BEGIN SELECT RAISE(ABORT, 'delivery records are append-only'); END;"
	"CREATE INDEX audit_time ON audit(time_ms);"
	"CREATE INDEX audit_device ON audit(device, time_ms);"
	"CREATE INDEX deliveries_time ON deliveries(time_ms);",

	/* 3: RTM reports submitted by Apps, with their verdicts; append-only. */
	"CREATE TABLE reports ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" time_ms INTEGER NOT NULL,"
	" peer TEXT NOT NULL,"
	" session INTEGER NOT NULL,"
	" service TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" instance_pub BLOB NOT NULL,"
	" app BLOB NOT NULL,"
	" verified INTEGER NOT NULL,"
	" detail TEXT NOT NULL,"
	" entries INTEGER NOT NULL,"
	" final INTEGER NOT NULL,"
	" report BLOB NOT NULL,"
	" ear TEXT NOT NULL);"
	"CREATE TRIGGER reports_no_update BEFORE UPDATE ON reports"
	" BEGIN SELECT RAISE(ABORT, 'RTM reports are append-only'); END;"
	"CREATE TRIGGER reports_no_delete BEFORE DELETE ON reports"
	" BEGIN SELECT RAISE(ABORT, 'RTM reports are append-only'); END;"
	"CREATE INDEX reports_device ON reports(device, time_ms);",

	/*
	 * 4: every secret version re-sealed under kek.h's rule 2, which binds
	 * its name, version, once flag and time: no SQL, the backend's
	 * migrate() runs the KEK holder's re-seal over each row (store.h).
	 */
	NULL,
};

#endif
