/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's checks of an ATTEST (check.h). The order: the message
 * decodes; its backend is one the policy accepts; its keys are points on
 * the curve; the evidence is fresh; the evidence verifies and binds this
 * instance key to these digests; the digests are the policy's; the
 * instance key signed this session (the provisioner's challenge, this key
 * share); the secret asked for exists. Only then is anything released.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "binding.h"
#include "check.h"
#include "dev_evidence.h"
#include "p256.h"

static int refuse(int code, char *why, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(int code, char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return code;
}

const char *ara_refusal_name(int code)
{
	switch (code) {
	case ARA_REFUSE_MALFORMED: return "malformed";
	case ARA_REFUSE_BACKEND: return "backend";
	case ARA_REFUSE_EVIDENCE: return "evidence";
	case ARA_REFUSE_MEASUREMENT: return "measurement";
	case ARA_REFUSE_STALE: return "stale";
	case ARA_REFUSE_SESSION: return "session";
	case ARA_REFUSE_SECRET: return "secret";
	case ARA_REFUSE_INTERNAL: return "internal";
	default: return "unknown";
	}
}

static const char *backend_name(uint8_t backend)
{
	switch (backend) {
	case ARA_EVIDENCE_DEV_INSECURE: return "dev-insecure";
	case ARA_EVIDENCE_TPM: return "tpm";
	default: return "unknown";
	}
}

/* A file name from the device's IMA log, made fit for a log line. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

static void hex8(char out[17], const uint8_t *d)
{
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The first measured digest that differs from the policy's, or 0. */
static int check_digests(const struct ara_policy *p, const struct ara_wire_digests *got,
			 char *why, size_t cap)
{
	for (size_t i = 0; i < ARA_POLICY_ROLES; i++) {
		const struct ara_policy_role *r = &ara_policy_roles[i];
		const uint8_t *want = (const uint8_t *)&p->expect + r->role;
		const uint8_t *have = (const uint8_t *)got + r->role;
		char w[17], h[17];

		if (r->role == offsetof(struct ara_wire_digests, manifest) && !p->expect_manifest)
			continue;
		if (ara_policy_allows(p, r->role, have))
			continue;
		hex8(w, want);
		hex8(h, have);
		return refuse(ARA_REFUSE_MEASUREMENT, why, cap,
			      "%s measured sha256 %s..., the policy expects %s...", r->what, h, w);
	}
	return 0;
}

static int check_fresh(const struct ara_policy *p, uint64_t issued, uint64_t now, char *why,
		       size_t cap)
{
	if (issued > now + ARA_POLICY_SKEW)
		return refuse(ARA_REFUSE_STALE, why, cap,
			      "evidence issued %llu s in the future (clock skew allowed: %u s)",
			      (unsigned long long)(issued - now), ARA_POLICY_SKEW);
	if (issued + p->max_age < now)
		return refuse(ARA_REFUSE_STALE, why, cap,
			      "evidence issued %llu s ago; the policy allows %u s",
			      (unsigned long long)(now - issued), p->max_age);
	return 0;
}

static int check_evidence(const struct ara_policy *p, const struct ara_wire_attest *a,
			  char *why, size_t cap)
{
	uint8_t binding[32];
	struct ara_tpm_claims claims;
	struct ara_tpm_policy tpm;
	char tpm_why[200];

	if (ara_provision_binding(a, binding))
		return refuse(ARA_REFUSE_INTERNAL, why, cap, "hashing the binding failed");
	if (a->backend == ARA_EVIDENCE_DEV_INSECURE) {
		int r = ara_dev_insecure_verify(a->evidence, a->evidence_len, binding);

		if (r == ARA_DEV_INSECURE_E_FORMAT)
			return refuse(ARA_REFUSE_EVIDENCE, why, cap,
				      "dev-insecure evidence: not of that format");
		if (r != ARA_DEV_INSECURE_OK)
			return refuse(ARA_REFUSE_EVIDENCE, why, cap,
				      "dev-insecure evidence does not bind this instance key and these digests");
		return 0;
	}
	/* The loader the log must hold: the one the instance names, if the policy allows it. */
	tpm = p->tpm;
	if (ara_policy_allows(p, offsetof(struct ara_wire_digests, loader), a->digests.loader))
		memcpy(tpm.loader_sha256, a->digests.loader, sizeof(tpm.loader_sha256));
	if (ara_tpm_verify(&tpm, a->evidence, a->evidence_len, binding, &claims, tpm_why,
			   sizeof(tpm_why)))
		return refuse(ARA_REFUSE_EVIDENCE, why, cap, "tpm evidence: %s", tpm_why);
	/*
	 * The quote proves the log, and the log holds the policy's loader
	 * (tpm_verify.c); the instance must name that loader too.
	 */
	if (memcmp(claims.loader_sha256, a->digests.loader, ARA_WIRE_SHA256) != 0) {
		char named[17];

		hex8(named, a->digests.loader);
		printable(claims.loader_path);
		return refuse(ARA_REFUSE_MEASUREMENT, why, cap,
			      "the instance names ara-loader sha256 %s..., not the one IMA measured "
			      "and the policy expects (%s)",
			      named, claims.loader_path);
	}
	return 0;
}

int ara_check_instance(const struct ara_policy *p, const uint8_t *challenge, size_t challenge_len,
		       const uint8_t *attest, size_t attest_len, uint64_t now,
		       struct ara_wire_attest *a, char *why, size_t cap)
{
	uint8_t hash[32];
	int r = ara_wire_decode_attest(attest, attest_len, a);

	if (r != ARA_WIRE_OK)
		return refuse(ARA_REFUSE_MALFORMED, why, cap, "ATTEST does not decode (error %d)", r);
	if (a->backend >= 8 * sizeof(p->backends) || !(p->backends & 1u << a->backend))
		return refuse(ARA_REFUSE_BACKEND, why, cap,
			      "evidence from the %s backend (%u), which this policy does not accept",
			      backend_name(a->backend), a->backend);
	if (ara_p256_check_public(a->instance_pub) || ara_p256_check_public(a->share_pub))
		return refuse(ARA_REFUSE_MALFORMED, why, cap,
			      "the instance key or the key share is not a P-256 point");
	if ((r = check_fresh(p, a->issued_at, now, why, cap)) ||
	    (r = check_evidence(p, a, why, cap)) || (r = check_digests(p, &a->digests, why, cap)))
		return r;
	if (ara_provision_session_hash(challenge, challenge_len, attest, a->signed_len, hash))
		return refuse(ARA_REFUSE_INTERNAL, why, cap, "hashing the session failed");
	if (ara_p256_verify(a->instance_pub, hash, a->sig))
		return refuse(ARA_REFUSE_SESSION, why, cap,
			      "the key share is not signed by the attested instance key for this challenge");
	return 0;
}

int ara_check_attest(const struct ara_policy *p, const uint8_t *challenge, size_t challenge_len,
		     const uint8_t *attest, size_t attest_len, uint64_t now,
		     struct ara_wire_attest *a, const struct ara_policy_secret **secret, char *why,
		     size_t cap)
{
	int r = ara_check_instance(p, challenge, challenge_len, attest, attest_len, now, a, why, cap);

	if (r)
		return r;
	*secret = ara_policy_secret(p, a->name, a->name_len);
	if (!*secret)
		return refuse(ARA_REFUSE_SECRET, why, cap, "no secret named '%.*s'",
			      (int)a->name_len, (const char *)a->name);
	return 0;
}
