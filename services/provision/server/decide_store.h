/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision's use of the store (docs/provisioning.md, "The store"):
 * the newest policy version, the device's AK and its revocation, the
 * secret (opened with the KEK), and one audit record per decision,
 * committed with the once-only claim for a delivery. decide.c calls these when its context has a store.
 *
 * Each thread that decides has its own store handle and its own parsed
 * copy of the newest policy, opened on its first decision; before each
 * decision it asks the store for the newest policy version (one indexed
 * read) and parses the new text when it changed, so an operator's new
 * policy holds from the next decision on, with no restart.
 */
#ifndef ARA_PROVISION_DECIDE_STORE_H
#define ARA_PROVISION_DECIDE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "kek.h"
#include "policy.h"
#include "store.h"

/* The store a service decides with. */
struct ara_decide_store {
	char url[4200];			/* store.h's URL */
	uint8_t kek[ARA_KEK_LEN];	/* opens the secrets */
	char service[ARA_STORE_NAME_MAX + 1]; /* this instance's name in the records */
};

/*
 * Fills *st: url, or the default store (created on first start) if url is
 * empty; the KEK from kek_path, or if that is empty from the state
 * directory's file "kek", created with 32 random bytes if missing; the
 * service's name (HOST.PID). The KEK is read before the store is made, so a
 * refused KEK leaves no database behind. 0, or -1 with why.
 */
int ara_decide_store_open(struct ara_decide_store *st, const char *url, const char *kek_path,
			  char *why, size_t why_cap);

/* Who the decision found: the device of the AK that signed the quote. */
struct ara_decide_device {
	char id[ARA_STORE_NAME_MAX + 1]; /* empty: evidence without a device (dev-insecure) */
	uint32_t policy_version;
};

/*
 * The policy to check attest against (the thread's copy of the newest
 * version) and, for tpm evidence under "tpm-ak enrolled", the AK of the
 * device that signed it, set in the policy's tpm.ak_pub. 0, or an enum
 * ara_refusal with why: no policy, an unknown or revoked AK or device.
 */
int ara_decide_store_policy(const struct ara_decide_store *st, const uint8_t *attest,
			    size_t attest_len, const struct ara_policy **policy,
			    struct ara_decide_device *dev, char *why, size_t why_cap);

/*
 * The newest version of the secret d names, opened into *out, and d made
 * the record of its delivery (device, service, version, once) for
 * ara_decide_store_audit(), which claims it. 0, or an enum ara_refusal
 * with why: no such secret, or the store or the KEK failed.
 */
int ara_decide_store_secret(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			    struct ara_store_delivery *d, struct ara_policy_secret *out,
			    char *why, size_t why_cap);

/*
 * Records the decision in the audit log; for a delivery (delivery not
 * NULL), in the same transaction, its delivery record (the once-only
 * claim) and the device's attestation time: one commit a delivered
 * session (store.h's deliver()). 0; 1 when the secret is once-only and was
 * delivered already (nothing recorded: the caller records the refusal);
 * or -1 with why: then no record was kept.
 */
int ara_decide_store_audit(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			   struct ara_store_delivery *delivery, const struct ara_store_audit *a,
			   char *why, size_t why_cap);

/*
 * Keeps an RTM report and its verdict (r's service and device are set
 * here) and, with revoke, revokes the device (when the evidence has one)
 * with the verdict as the reason. 0, or -1 with why.
 */
int ara_decide_store_report(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			    const struct ara_store_report *r, int revoke, char *why, size_t why_cap);

/*
 * Puts a policy read from a file into the store (at start, and on a
 * reload): its directives as a new policy version if no version holds
 * them yet (a stale file never replaces a newer policy); each of its
 * secrets as a new version where the value differs, never over a
 * once-only version (refused);
 * its tpm-ak as an AK of device "policy-ak-HEX" if the store lacks it.
 * *version: the newest policy version after. 0, or -1 with why.
 */
int ara_decide_store_import(const struct ara_decide_store *st, const struct ara_policy *p,
			    uint32_t *version, char *why, size_t why_cap);

/*
 * Opens the calling thread's handle (a worker's warm-up; st is the
 * struct ara_decide_store): a PostgreSQL connection and its schema check
 * cost milliseconds, under a lock every instance takes, which the first
 * session on each thread would otherwise wait for. A failure is left to
 * that session, which meets it again and is refused with its reason.
 */
void ara_decide_store_warm(void *st);

/* Closes the calling thread's handle and wipes its policy copy (at exit). */
void ara_decide_store_release(void);

#endif
