/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EAT Attestation Results (draft-ietf-rats-ear) as a signed JWT (ES256):
 * what ara-verify --ear prints and what the provisioning service answers a
 * submitted RTM report with. docs/ear.md documents every claim; the
 * AR4SI trustworthiness claims and tiers below are the draft's values.
 */
#ifndef ARA_EAR_H
#define ARA_EAR_H

#include <stddef.h>
#include <stdint.h>

#define ARA_EAR_PROFILE "tag:github.com,2023:veraison/ear"
#define ARA_EAR_SUBMOD "ara"

/* ear.status: the appraisal's tier. */
enum ara_ear_status {
	ARA_EAR_NONE = 0,
	ARA_EAR_AFFIRMING = 2,
	ARA_EAR_WARNING = 32,
	ARA_EAR_CONTRAINDICATED = 96,
};

/* The AR4SI claims ARA makes (0: no claim; the claim is then left out). */
enum ara_ear_claim {
	ARA_EAR_NO_CLAIM = 0,
	ARA_EAR_TRUSTWORTHY_INSTANCE = 2,    /* instance-identity */
	ARA_EAR_UNTRUSTWORTHY_INSTANCE = 96, /* instance-identity */
	ARA_EAR_APPROVED_RUNTIME = 2,	     /* executables */
	ARA_EAR_CONTRAINDICATED_RUNTIME = 96, /* executables */
};

/* What the RTM's appraisal covered (ara-verify's figures). */
struct ara_ear_rtm {
	uint64_t entries, segments;
	uint32_t pending;
	uint64_t checkpoints;
	int final;
};

struct ara_ear_result {
	const char *verifier_build; /* ear.verifier-id's build: "<program> <version>" */
	uint64_t iat;		    /* seconds since the epoch */
	const uint8_t *nonce;	    /* 32 bytes (eat_nonce), or NULL */
	enum ara_ear_status status;
	int instance_identity, executables; /* enum ara_ear_claim */
	const char *policy_id;		    /* ear.appraisal-policy-id, or NULL */
	const uint8_t *app_sha256;	    /* 32 bytes, or NULL: not known */
	const uint8_t *instance_pub;	    /* 65 bytes (SEC1), or NULL */
	const char *reason;		    /* why not affirming, or NULL */
	const struct ara_ear_rtm *rtm;	    /* NULL: no RTM evidence appraised */
};

/* The verifier's signing key (a P-256 scalar) and its public point. */
struct ara_ear_key {
	uint8_t sk[32];
	uint8_t pub[65];
};

/*
 * The key from its file, read as ara_p256_read_secret() reads a key
 * (p256_pem.h: PEM, SEC1 or PKCS#8, its owner's only). 0, or -1 with one
 * line in why.
 */
int ara_ear_key_load(const char *path, struct ara_ear_key *k, char *why, size_t cap);

/* Wipes k. */
void ara_ear_key_wipe(struct ara_ear_key *k);

/* The claim set as compact JSON (malloc'd, NUL-terminated), or NULL. */
char *ara_ear_claims(const struct ara_ear_result *r);

/* The signed EAR, a compact JWS (malloc'd, NUL-terminated), or NULL. */
char *ara_ear_sign(const struct ara_ear_result *r, const struct ara_ear_key *k);

#endif
