/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's decision on one session, with no I/O: given what the
 * provisioner holds (its context), the peer, the CHALLENGE it sent and the
 * ATTEST it received, the reply to send (a DELIVER or a REFUSE), its code
 * and one log record. The I/O around it (server.c) reads and writes the
 * socket and writes the record (record.h); nothing here blocks or touches
 * a file, so worker threads run it while the I/O goes on, several at once:
 * mbedtls holds no shared mutable state here (contexts per call, AES
 * tables in ROM).
 */
#ifndef ARA_PROVISION_DECIDE_H
#define ARA_PROVISION_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include "decide_store.h"
#include "hpke.h"
#include "p256.h"
#include "policy.h"
#include "wire.h"

/*
 * What the provisioner holds for a decision; read only while it decides,
 * so one context may serve several decisions at once. New state (a store,
 * a signing key) goes here, not into ara_decide's parameters.
 */
/* The provisioner's signing key (ara-provision --signing-key). */
struct ara_signing_key {
	uint8_t sk[ARA_P256_SK];
	uint8_t pk[ARA_P256_PK];
};
struct ara_report_ctx;

struct ara_decide_ctx {
	const struct ara_policy *policy;
	/* Fills out with n fresh random bytes (the DELIVER's ephemeral key): 0, or -1. */
	int (*random)(uint8_t *out, size_t n);
	/*
	 * The state (decide_store.h), or NULL: the policy above alone, nothing
	 * recorded. With a store, the policy is the store's newest version, the
	 * device's AK and the secret come from it, once-only secrets are claimed
	 * before they are sealed, and every decision leaves an audit record.
	 */
	const struct ara_decide_store *store;
	/* Signs every DELIVER (docs/provisioning.md, "Provisioner authentication"); NULL: unsigned. */
	const struct ara_signing_key *key;
	/* RTM reports (report.h); NULL: a REPORT is refused. */
	const struct ara_report_ctx *reports;
};

/* Who the session is with, and when it is decided. */
struct ara_decide_peer {
	unsigned long session; /* the provisioner's number for it, from 1 */
	const char *name;      /* "unix PATH" or "tcp HOST:PORT" of the listener */
	uint64_t now_ms;       /* the provisioner's clock: milliseconds since the epoch */
};

enum ara_decision_kind {
	ARA_DECISION_DELIVERED = 0, /* the DELIVER is the reply */
	ARA_DECISION_REFUSED,	    /* a REFUSE is the reply (or none: the peer left) */
	ARA_DECISION_UNSENT,	    /* delivered but the peer left before the DELIVER: serve.c sets it */
	ARA_DECISION_VERIFIED,	    /* an RTM report verified: the VERDICT is the reply */
	ARA_DECISION_REJECTED,	    /* an RTM report rejected: the VERDICT is the reply */
};

/*
 * The one record a session leaves (the log line, the audit row). Fields
 * the session never reached are empty: no name before the ATTEST decodes.
 */
struct ara_log_record {
	uint64_t time_ms; /* peer.now_ms */
	unsigned long session;
	char peer[128];
	enum ara_decision_kind decision;
	int code;	  /* 0, or an enum ara_refusal */
	char reason[320]; /* why refused: one line; empty when delivered */
	char secret[ARA_WIRE_NAME_MAX + 1]; /* the secret asked for, once decoded */
	size_t secret_len;		    /* the bytes delivered */
	int attested;			    /* instance and app below are set */
	uint8_t instance[ARA_WIRE_POINT];   /* the instance's public key */
	uint8_t app[ARA_WIRE_SHA256];	    /* the attested App digest */
	/* An RTM report's verdict (VERIFIED, REJECTED): reason holds its line. */
	uint8_t report_sha256[ARA_WIRE_SHA256];
	uint64_t rtm_entries; /* the entries the report and segments cover */
	int rtm_final;	      /* they cover the whole run */
	int revoke;	      /* rejected, and the policy says rtm-rejected revoke */
};

/* The reply's largest size: a VERDICT with the longest text and EAR (above a DELIVER's). */
#define ARA_DECIDE_REPLY_MAX (ARA_WIRE_HEADER + 6 + ARA_WIRE_TEXT_MAX + ARA_WIRE_TOKEN_MAX)
_Static_assert(ARA_DECIDE_REPLY_MAX >= ARA_WIRE_DELIVER_MAX, "a signed DELIVER of the largest secret fits the reply");

struct ara_decision {
	int code; /* 0: delivered; else an enum ara_refusal */
	uint8_t reply[ARA_DECIDE_REPLY_MAX];
	size_t reply_len; /* 0 only if even the REFUSE could not be encoded */
	struct ara_log_record record;
};

/*
 * Decides the session: challenge and attest are its two messages as sent
 * and received, whole; an RTM report's REPORT in place of the ATTEST is
 * report.h's to decide. Returns out->code. Every check of check.c passes
 * before a secret is sealed; out holds secrets sealed only (the reply).
 */
int ara_decide(const struct ara_decide_ctx *ctx, const struct ara_decide_peer *peer,
	       const uint8_t *challenge, size_t challenge_len, const uint8_t *attest,
	       size_t attest_len, struct ara_decision *out);

/*
 * A refusal decided before there is an ATTEST to decide on (the I/O's:
 * a bad header, a truncated message, a deadline): the REFUSE and the
 * record, as ara_decide makes them. Returns code.
 */
int ara_decide_refuse(const struct ara_decide_peer *peer, int code, const char *why,
		      struct ara_decision *out);

/*
 * Appends the record to the store's audit log, when ctx has a store: for
 * the records the I/O makes (ara_decide_refuse, an unsent DELIVER);
 * ara_decide appends its own. 0, or -1 with why.
 */
int ara_decide_audit(const struct ara_decide_ctx *ctx, const struct ara_log_record *r,
		     char *why, size_t why_cap);

#endif
