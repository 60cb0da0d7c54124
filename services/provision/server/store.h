/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioning service's state (docs/provisioning.md, "The store"):
 * enrolled devices and their attestation keys, policy versions, secrets
 * (sealed under the KEK before they reach a backend: kek.h), delivery
 * records and the audit log. One small interface, an ops table, which
 * each backend implements: SQLite (store_sqlite.c, the embedded default)
 * and PostgreSQL (store_pg.c, for many service instances on one database).
 *
 * Rules every backend keeps:
 * - A handle is used by one thread at a time; a program with worker
 *   threads opens one handle per thread. Handles on the same database,
 *   in one process or many, see each other's committed writes.
 * - Each call is one transaction: all of it or none of it.
 * - "At most once" is the database's: deliver() inserts under a unique
 *   constraint, so two service instances racing for a once-only secret
 *   get one ARA_STORE_OK and one ARA_STORE_CONFLICT, never two OKs.
 * - The audit log and the delivery records are append-only: no call
 *   changes or removes a row of them.
 * - Times are milliseconds since the epoch (UTC).
 * - Every failure (ARA_STORE_ERROR) leaves one line in s->why, naming the
 *   database and what failed; NOT_FOUND and CONFLICT leave one too.
 *
 * Strings in the structs are NUL-terminated and bounded by their arrays;
 * names (device ids, secret names) are [A-Za-z0-9._-]{1,64}, as wire.h's
 * ara_wire_name_ok() says, and a backend refuses others (ARA_STORE_ERROR).
 */
#ifndef ARA_PROVISION_STORE_H
#define ARA_PROVISION_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* The schema version this code writes; migrate() brings a database to it. */
#define ARA_STORE_SCHEMA_VERSION 4

#define ARA_STORE_NAME_MAX ARA_WIRE_NAME_MAX /* device ids and secret names */
#define ARA_STORE_WHY_MAX 256u
#define ARA_STORE_PEER_MAX 128u	      /* "unix PATH", "tcp HOST:PORT" */
#define ARA_STORE_REASON_MAX 32u      /* ara_refusal_name(), "delivered" */
#define ARA_STORE_DETAIL_MAX 320u     /* the decision's one line */
#define ARA_STORE_AK_SIGNER_LEN 34u   /* TPM2B_NAME body: nameAlg (SHA-256) || digest */
#define ARA_STORE_AK_PUB_LEN 65u      /* uncompressed P-256 point (tpm_verify.h) */
#define ARA_STORE_EK_CHAIN_MAX 8192u  /* DER certificates, leaf first, concatenated */
#define ARA_STORE_POLICY_MAX (64u << 10)
/* A sealed secret (kek.h): rule byte || 12-byte nonce || ciphertext || 16-byte tag. */
#define ARA_STORE_SEALED_MAX (1u + 12u + ARA_WIRE_SECRET_MAX + 16u)

enum ara_store_status {
	ARA_STORE_OK = 0,
	ARA_STORE_ERROR = -1,	 /* the database failed, or the input is not valid */
	ARA_STORE_NOT_FOUND = 1, /* no such device, AK, policy or secret */
	ARA_STORE_CONFLICT = 2,	 /* it exists already, or a once-only secret is claimed */
};

struct ara_store_ops;
struct ara_store_secret;

/*
 * Re-seals one secret version, in place, from the rule an earlier release
 * sealed it with to the current one (kek.h's ara_kek_reseal; ctx the KEK).
 * 0, or -1 with one line in why.
 */
typedef int (*ara_store_reseal_fn)(void *ctx, struct ara_store_secret *sec, char *why,
				   size_t why_cap);

/* The part of every backend's handle the callers see. */
struct ara_store {
	const struct ara_store_ops *ops;
	char why[ARA_STORE_WHY_MAX]; /* the last call's failure, one line */
	/*
	 * For migrate()'s re-seal step (schema version 4), which only a
	 * holder of the KEK can take: NULL leaves a database that has secrets
	 * at version 3 for the next open that has it (one with none takes the
	 * step at once). ara_store_open_kek() sets them.
	 */
	ara_store_reseal_fn reseal;
	void *reseal_ctx;
};

struct ara_store_device {
	char id[ARA_STORE_NAME_MAX + 1]; /* the operator's name for it */
	int64_t enrolled_ms;
	int64_t revoked_ms;		 /* 0: not revoked */
	char revoke_reason[ARA_STORE_DETAIL_MAX];
	int64_t last_attest_ms;		 /* the last accepted ATTEST; 0: none yet */
};

/*
 * An attestation key. A device may have several (a TPM replaced, a key
 * rolled); a fleet has as many as it has devices. The decision finds the
 * AK by the quote's TPMS_ATTEST.qualifiedSigner (ak_signer.h computes it
 * from the public key at enrolment), so looking one up costs one indexed
 * read however large the fleet.
 */
struct ara_store_ak {
	char device[ARA_STORE_NAME_MAX + 1];
	uint8_t signer[ARA_STORE_AK_SIGNER_LEN];
	uint8_t pub[ARA_STORE_AK_PUB_LEN];
	uint8_t ek_chain[ARA_STORE_EK_CHAIN_MAX]; /* empty when the TPM has none */
	size_t ek_chain_len;
	int64_t enrolled_ms;
	int64_t revoked_ms; /* 0: not revoked */
};

/* A secret version as a backend keeps it: sealed, never plaintext. */
struct ara_store_secret {
	char name[ARA_STORE_NAME_MAX + 1];
	uint32_t version; /* 1, 2, ...: each the next of its name */
	int once;	  /* delivered at most once, fleet-wide, per version */
	uint8_t sealed[ARA_STORE_SEALED_MAX];
	size_t sealed_len;
	int64_t created_ms;
};

/* One delivery: which instance got which secret version, when, from whom. */
struct ara_store_delivery {
	int64_t id; /* assigned by deliver() */
	int64_t time_ms;
	char peer[ARA_STORE_PEER_MAX];
	uint64_t session;		     /* the service's session number */
	char service[ARA_STORE_NAME_MAX + 1]; /* which service instance */
	char device[ARA_STORE_NAME_MAX + 1];  /* empty for evidence without a device */
	uint8_t instance_pub[ARA_WIRE_POINT]; /* the ARA instance key */
	uint8_t app[ARA_WIRE_SHA256];	      /* the attested App digest */
	char secret[ARA_STORE_NAME_MAX + 1];
	uint32_t secret_version;
	int once;
};

/* One decision, accepted or refused: the service's log record, kept. */
struct ara_store_audit {
	int64_t id; /* assigned by audit_append() or deliver() */
	int64_t time_ms;
	char peer[ARA_STORE_PEER_MAX];
	uint64_t session;
	char service[ARA_STORE_NAME_MAX + 1];
	char decision[16];		      /* "delivered", "refused", "unsent" (the peer left) */
	char reason[ARA_STORE_REASON_MAX];    /* ara_refusal_name(); "" when delivered */
	char detail[ARA_STORE_DETAIL_MAX];    /* the one line the log has */
	char device[ARA_STORE_NAME_MAX + 1];  /* empty when unknown */
	char secret[ARA_STORE_NAME_MAX + 1];  /* the secret asked for; empty if unknown */
	uint32_t policy_version;	      /* 0: the policy was not from the store */
};

/*
 * An RTM report an App submitted (docs/provisioning.md, "RTM reports"),
 * kept with its verdict; append-only like the audit log.
 */
struct ara_store_report {
	int64_t id; /* assigned by report_add() */
	int64_t time_ms;
	char peer[ARA_STORE_PEER_MAX];
	uint64_t session;
	char service[ARA_STORE_NAME_MAX + 1];
	char device[ARA_STORE_NAME_MAX + 1];  /* empty for evidence without a device */
	uint8_t instance_pub[ARA_WIRE_POINT]; /* the attested instance key, the report's signer */
	uint8_t app[ARA_WIRE_SHA256];	      /* the attested App digest */
	int verified;			      /* 1 verified, 0 rejected */
	char detail[ARA_STORE_DETAIL_MAX];    /* the verdict's one line */
	uint64_t entries;		      /* the entries the evidence covers */
	int final;			      /* it covers the whole run */
	const uint8_t *report;		      /* the report document, report_len bytes */
	size_t report_len;
	const char *ear;		      /* the VERDICT's EAR; "" without one */
};

/* What a listing returns; zero fields do not filter. */
struct ara_store_filter {
	int64_t since_ms, until_ms; /* since <= time < until */
	const char *device;	    /* NULL or "": any */
	const char *secret;	    /* deliveries and audit */
	const char *decision;	    /* audit: "delivered" or "refused" */
	uint32_t limit;		    /* 0: all; else the newest limit, oldest first */
};

/*
 * Called per row of a listing, oldest first; non-zero stops it (the call
 * returns that). It must not use the handle that lists.
 */
typedef int (*ara_store_delivery_fn)(void *ctx, const struct ara_store_delivery *d);
typedef int (*ara_store_audit_fn)(void *ctx, const struct ara_store_audit *a);
typedef int (*ara_store_device_fn)(void *ctx, const struct ara_store_device *d);

/*
 * A backend. Every call but open and close returns an enum ara_store_status
 * (or, for listings, a callback's non-zero value).
 */
struct ara_store_ops {
	const char *scheme; /* "sqlite", "postgresql": the prefix of a store URL */

	/*
	 * Connects to the store url names (whole, "SCHEME:..." or "SCHEME://..."),
	 * creating an SQLite file (mode 0600) if there is none; does not
	 * migrate. NULL with one line in why.
	 */
	struct ara_store *(*open)(const char *url, char *why, size_t why_cap);
	void (*close)(struct ara_store *s);

	/*
	 * Brings the schema to ARA_STORE_SCHEMA_VERSION, one versioned step at
	 * a time, each in its own transaction, safe against a concurrent
	 * migrate(); *from is the version found (0: an empty database).
	 * ARA_STORE_ERROR for a database newer than this code.
	 *
	 * Step 4 has no SQL: it re-seals every secret version under kek.h's
	 * rule 2 with s->reseal, in the step's one transaction, so it happens
	 * once: a rule-1 value written after it is never re-sealed (a writer
	 * could otherwise launder an old copy into any row). A re-seal that
	 * fails (another KEK) fails the step: ERROR, nothing changed. Without
	 * s->reseal the step waits (OK at version 3) unless there are no
	 * secrets to re-seal.
	 */
	int (*migrate)(struct ara_store *s, int *from);

	/* Devices. CONFLICT if the id exists; NOT_FOUND if it does not. */
	int (*device_add)(struct ara_store *s, const char *id, int64_t now_ms);
	int (*device_revoke)(struct ara_store *s, const char *id, const char *reason,
			     int64_t now_ms);
	int (*device_get)(struct ara_store *s, const char *id, struct ara_store_device *out);
	int (*device_list)(struct ara_store *s, ara_store_device_fn fn, void *ctx);

	/*
	 * AKs. ak_add: the device must exist (NOT_FOUND), the signer must be new
	 * (CONFLICT). ak_find fills *ak and *dev of the AK with that signer,
	 * revoked or not: the caller refuses a revoked AK or device.
	 */
	int (*ak_add)(struct ara_store *s, const struct ara_store_ak *ak);
	int (*ak_revoke)(struct ara_store *s, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
			 int64_t now_ms);
	int (*ak_find)(struct ara_store *s, const uint8_t signer[ARA_STORE_AK_SIGNER_LEN],
		       struct ara_store_ak *ak, struct ara_store_device *dev);

	/*
	 * Policy versions: the text of a policy (docs/provisioning.md), checked
	 * by the caller before it is added. policy_add assigns the next version;
	 * policy_newest gives the newest version number (NOT_FOUND: none yet),
	 * cheap enough to ask before every decision; policy_get copies a
	 * version's text, NUL-terminated, into text (ERROR if over cap).
	 */
	int (*policy_add)(struct ara_store *s, const char *text, int64_t now_ms,
			  uint32_t *version);
	int (*policy_newest)(struct ara_store *s, uint32_t *version);
	int (*policy_get)(struct ara_store *s, uint32_t version, char *text, size_t cap,
			  int64_t *created_ms);

	/*
	 * Secrets, sealed (kek.h), which binds the version: so the caller
	 * picks it before sealing. secret_put adds in->version of in->name,
	 * which must be the next (the newest plus one; 1 for a new name):
	 * CONFLICT if it is not (another writer was first: read the newest,
	 * seal again). secret_get fills *out with the newest version of name.
	 */
	int (*secret_put)(struct ara_store *s, struct ara_store_secret *in);
	int (*secret_get)(struct ara_store *s, const char *name, struct ara_store_secret *out);

	/*
	 * A delivery's records, in one transaction with one commit, before the
	 * DELIVER goes out: the delivery (sets d->id), its audit record (sets
	 * a->id) and, when a->device is not empty, the device's last accepted
	 * attestation (last_attest_ms, never moved back; a device that is not
	 * there is left so: devices are never removed). For a once-only secret
	 * version that has a delivery already: CONFLICT and nothing recorded,
	 * the audit record neither (the caller records the refusal). A DELIVER
	 * that then fails to reach the peer stays recorded: at most once, never
	 * twice.
	 */
	int (*deliver)(struct ara_store *s, struct ara_store_delivery *d,
		       struct ara_store_audit *a);
	int (*delivery_list)(struct ara_store *s, const struct ara_store_filter *f,
			     ara_store_delivery_fn fn, void *ctx);

	/* RTM reports and their verdicts: append (sets r->id). */
	int (*report_add)(struct ara_store *s, struct ara_store_report *r);

	/* The audit log: append (sets a->id) and query. */
	int (*audit_append)(struct ara_store *s, struct ara_store_audit *a);
	int (*audit_query)(struct ara_store *s, const struct ara_store_filter *f,
			   ara_store_audit_fn fn, void *ctx);
};

/*
 * Opens the store a URL names: "sqlite:PATH" or "postgresql://..." (libpq's
 * URI, given to it whole), then migrates it. NULL with one line in why.
 */
struct ara_store *ara_store_open(const char *url, char *why, size_t why_cap);

/* ara_store_open() for a holder of the KEK: the migration may re-seal (migrate()). */
struct ara_store *ara_store_open_kek(const char *url, ara_store_reseal_fn reseal, void *ctx,
				     char *why, size_t why_cap);

/*
 * The service's state directory when it is given no store and no KEK:
 * $ARA_PROVISION_STATE if set; else /var/lib/ara-provision for root; else
 * $XDG_STATE_HOME/ara-provision (~/.local/state/ara-provision). Created
 * (mode 0700, parents too) if missing. 0, or -1 with why.
 */
int ara_store_state_dir(char *dir, size_t cap, char *why, size_t why_cap);

/* The default store, "sqlite:" DIR "/store.db" of that directory. 0, or -1 with why. */
int ara_store_default_url(char *url, size_t cap, char *why, size_t why_cap);

/*
 * url as a log or a message may show it: a password in it (a URI's
 * "user:PASSWORD@", a "password=" parameter) replaced by "***".
 */
void ara_store_url_redacted(const char *url, char *out, size_t cap);

void ara_store_close(struct ara_store *s);

/* The backends; store.c lists those this build has for ara_store_open(). */
extern const struct ara_store_ops ara_store_sqlite_ops;
extern const struct ara_store_ops ara_store_pg_ops;

#endif
