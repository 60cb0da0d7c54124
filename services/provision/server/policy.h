/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's policy: which evidence it accepts, which measured
 * digests it expects, how old evidence may be, and the secrets it holds.
 * The file format is in docs/provisioning.md ("The policy file"); every
 * error names the file, the line and what is wrong.
 */
#ifndef ARA_PROVISION_POLICY_H
#define ARA_PROVISION_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "tpm_verify.h"
#include "wire.h"

#define ARA_POLICY_SECRETS_MAX 64u
/* The largest policy, secrets or tpm-ak file, checked before it is read. */
#define ARA_POLICY_FILE_MAX (1u << 20)

struct ara_policy_secret {
	char name[ARA_WIRE_NAME_MAX + 1];
	size_t name_len;
	uint8_t value[ARA_WIRE_SECRET_MAX];
	size_t len;
};

/* Accepted digests beyond the first of each role, all roles together. */
#define ARA_POLICY_MORE_MAX 32u

/*
 * A further accepted digest (an allowlist: a role's second and later
 * lines, so a rollout accepts the old and the new build). role is the
 * digest's offsetof in struct ara_wire_digests.
 */
struct ara_policy_more {
	size_t role;
	uint8_t digest[ARA_WIRE_SHA256];
};

/* The digest roles, in the ATTEST's order. */
struct ara_policy_role {
	const char *key;  /* the policy's directive */
	const char *what; /* a refusal's name for it */
	size_t role;	  /* the digest's offsetof in struct ara_wire_digests */
};

#define ARA_POLICY_ROLES 5
extern const struct ara_policy_role ara_policy_roles[ARA_POLICY_ROLES];

struct ara_policy {
	unsigned backends; /* bit 1 << enum ara_evidence_backend per accepted backend */
	uint32_t max_age;  /* seconds; evidence may also be up to ARA_POLICY_SKEW ahead */
	struct ara_wire_digests expect; /* the first accepted digest of each role */
	int expect_manifest; /* 0: any manifest (the others pin what it names) */
	struct ara_policy_more more[ARA_POLICY_MORE_MAX];
	size_t n_more;
	struct ara_tpm_policy tpm; /* ak_pub set by tpm-ak; loader_sha256 = expect.loader */
	int ak_enrolled; /* "tpm-ak enrolled": the AK is the device's, from the store */
	struct ara_policy_secret secrets[ARA_POLICY_SECRETS_MAX];
	size_t n_secrets;
	/* rtm-rejected revoke: a rejected RTM report revokes its device's future sessions. */
	int rtm_rejected_revokes;
};

/* Clock difference tolerated between device and provisioner, seconds. */
#define ARA_POLICY_SKEW 60u

/*
 * Reads path into *p. 0; ARA_POLICY_UNREADABLE if path itself cannot be
 * read; or -1 if the policy is malformed, including a file it names that
 * cannot be read. Either error with one line in why ("FILE:LINE: ...").
 * Secrets read from files are wiped from every buffer but *p.
 */
#define ARA_POLICY_UNREADABLE (-2)
int ara_policy_load(const char *path, struct ara_policy *p, char *why, size_t why_cap);

/*
 * The same from text (len bytes and a NUL after them, changed in place);
 * name is the file name for messages and the directory that relative
 * paths start from.
 */
int ara_policy_parse(const char *name, char *text, size_t len, struct ara_policy *p, char *why,
		     size_t why_cap);

/* The secret of that name, or NULL. */
const struct ara_policy_secret *ara_policy_secret(const struct ara_policy *p, const uint8_t *name,
						  size_t name_len);

/*
 * Whether digest is one the policy accepts for the role (an offsetof in
 * struct ara_wire_digests).
 */
int ara_policy_allows(const struct ara_policy *p, size_t role, const uint8_t *digest);

/* Wipes every secret in *p. */
void ara_policy_wipe(struct ara_policy *p);

#endif
