/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision's use of the store (decide_store.h). A store call that
 * fails with ARA_STORE_ERROR drops the thread's handle, so the next
 * decision reconnects: a database restarted under load costs the
 * decisions in flight, not the service.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/platform_util.h>

#include "check.h"
#include "decide_store.h"
#include "tpm_verify.h"

/* One thread's handle and its copy of the newest policy. */
struct local {
	struct ara_store *s;
	uint32_t version; /* of policy; 0: none parsed yet */
	struct ara_policy policy;
	struct ara_store_ak ak;
	char text[ARA_STORE_POLICY_MAX + 1];
};

static pthread_key_t local_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void local_free(void *p)
{
	struct local *l = p;

	if (!l)
		return;
	ara_store_close(l->s);
	mbedtls_platform_zeroize(l, sizeof(*l));
	free(l);
}

static void make_key(void)
{
	(void)pthread_key_create(&local_key, local_free);
}

void ara_decide_store_release(void)
{
	pthread_once(&key_once, make_key);
	local_free(pthread_getspecific(local_key));
	pthread_setspecific(local_key, NULL);
}

/* The thread's state with an open handle; NULL with why. */
static struct local *local(const struct ara_decide_store *st, char *why, size_t cap)
{
	struct local *l;

	pthread_once(&key_once, make_key);
	l = pthread_getspecific(local_key);
	if (!l) {
		if (!(l = calloc(1, sizeof(*l)))) {
			snprintf(why, cap, "the store: out of memory");
			return NULL;
		}
		pthread_setspecific(local_key, l);
	}
	/* With the KEK: the first open of a store from before the sealing rule re-seals it. */
	if (!l->s && !(l->s = ara_store_open_kek(st->url, ara_kek_reseal, (void *)st->kek, why, cap)))
		return NULL;
	return l;
}

/* A store failure: the reason, and the handle dropped if the database failed. */
static int store_failed(struct local *l, int status, char *why, size_t cap)
{
	snprintf(why, cap, "the store: %s", l->s->why);
	if (status == ARA_STORE_ERROR) {
		ara_store_close(l->s);
		l->s = NULL;
	}
	return ARA_REFUSE_INTERNAL;
}

/* The newest policy version, parsed into l->policy if it is new. 0, or a refusal. */
static int fresh_policy(struct local *l, char *why, size_t cap)
{
	char name[48], perr[320];
	int64_t created;
	uint32_t v = 0;
	int r = l->s->ops->policy_newest(l->s, &v);

	if (r == ARA_STORE_NOT_FOUND) {
		snprintf(why, cap, "the store holds no policy (give --policy FILE, or add one)");
		return ARA_REFUSE_INTERNAL;
	}
	if (r)
		return store_failed(l, r, why, cap);
	if (v == l->version)
		return 0;
	if ((r = l->s->ops->policy_get(l->s, v, l->text, sizeof(l->text), &created)))
		return store_failed(l, r, why, cap);
	snprintf(name, sizeof(name), "store policy version %u", v);
	if (ara_policy_parse(name, l->text, strlen(l->text), &l->policy, perr, sizeof(perr))) {
		l->version = 0;
		snprintf(why, cap, "%s", perr);
		return ARA_REFUSE_INTERNAL;
	}
	l->version = v;
	return 0;
}

static void hex8(char out[17], const uint8_t *d)
{
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int ara_decide_store_policy(const struct ara_decide_store *st, const uint8_t *attest,
			    size_t attest_len, const struct ara_policy **policy,
			    struct ara_decide_device *dev, char *why, size_t cap)
{
	uint8_t signer[ARA_TPM_SIGNER_LEN];
	struct ara_store_device d;
	struct ara_wire_attest a;
	struct local *l = local(st, why, cap);
	char name[17], tpm_why[200];
	int r;

	memset(dev, 0, sizeof(*dev));
	if (!l)
		return ARA_REFUSE_INTERNAL;
	if ((r = fresh_policy(l, why, cap)))
		return r;
	*policy = &l->policy;
	dev->policy_version = l->version;
	memset(l->policy.tpm.ak_pub, 0, sizeof(l->policy.tpm.ak_pub));
	/* Only tpm evidence names a device; check.c refuses what does not decode. */
	if (!l->policy.ak_enrolled || ara_wire_decode_attest(attest, attest_len, &a) != ARA_WIRE_OK ||
	    a.backend != ARA_EVIDENCE_TPM)
		return 0;
	if (ara_tpm_evidence_signer(a.evidence, a.evidence_len, signer, tpm_why, sizeof(tpm_why))) {
		snprintf(why, cap, "tpm evidence: %s", tpm_why);
		return ARA_REFUSE_EVIDENCE;
	}
	hex8(name, signer + 2);
	r = l->s->ops->ak_find(l->s, signer, &l->ak, &d);
	if (r == ARA_STORE_NOT_FOUND) {
		snprintf(why, cap, "tpm evidence: the quote's AK (signer %s...) is not enrolled", name);
		return ARA_REFUSE_EVIDENCE;
	}
	if (r)
		return store_failed(l, r, why, cap);
	snprintf(dev->id, sizeof(dev->id), "%s", d.id);
	if (d.revoked_ms) {
		snprintf(why, cap, "device '%s' is revoked: %s", d.id, d.revoke_reason);
		return ARA_REFUSE_EVIDENCE;
	}
	if (l->ak.revoked_ms) {
		snprintf(why, cap, "the AK (signer %s...) of device '%s' is revoked", name, d.id);
		return ARA_REFUSE_EVIDENCE;
	}
	memcpy(l->policy.tpm.ak_pub, l->ak.pub, sizeof(l->policy.tpm.ak_pub));
	return 0;
}

int ara_decide_store_secret(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			    struct ara_store_delivery *d, struct ara_policy_secret *out,
			    char *why, size_t cap)
{
	struct ara_store_secret sealed;
	struct local *l = local(st, why, cap);
	int r;

	if (!l)
		return ARA_REFUSE_INTERNAL;
	r = l->s->ops->secret_get(l->s, d->secret, &sealed);
	if (r == ARA_STORE_NOT_FOUND) {
		snprintf(why, cap, "no secret named '%s'", d->secret);
		return ARA_REFUSE_SECRET;
	}
	if (r)
		return store_failed(l, r, why, cap);
	memset(out, 0, sizeof(*out));
	/* A row that does not open is refused, never passed over for an older version. */
	if (ara_kek_open(st->kek, &sealed, out->value, &out->len, why, cap))
		return ARA_REFUSE_INTERNAL;
	snprintf(out->name, sizeof(out->name), "%s", sealed.name);
	out->name_len = strlen(out->name);
	snprintf(d->device, sizeof(d->device), "%s", dev->id);
	snprintf(d->service, sizeof(d->service), "%s", st->service);
	d->secret_version = sealed.version;
	d->once = sealed.once;
	return 0;
}

int ara_decide_store_audit(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			   struct ara_store_delivery *delivery, const struct ara_store_audit *in,
			   char *why, size_t cap)
{
	struct ara_store_audit a = *in;
	struct local *l = local(st, why, cap);
	int r;

	if (!l)
		return -1;
	snprintf(a.service, sizeof(a.service), "%s", st->service);
	snprintf(a.device, sizeof(a.device), "%s", dev->id);
	a.policy_version = dev->policy_version;
	r = delivery ? l->s->ops->deliver(l->s, delivery, &a) : l->s->ops->audit_append(l->s, &a);
	if (r == ARA_STORE_CONFLICT && delivery) {
		snprintf(why, cap, "secret '%s' version %u is once-only and was delivered already",
			 delivery->secret, delivery->secret_version);
		return 1;
	}
	if (r) {
		store_failed(l, r, why, cap);
		return -1;
	}
	return 0;
}

void ara_decide_store_warm(void *st)
{
	char why[256];

	(void)local(st, why, sizeof(why));
}

int ara_decide_store_open(struct ara_decide_store *st, const char *url, const char *kek_path,
			  char *why, size_t cap)
{
	char dir[4096], path[4200], host[33] = "";
	struct local *l;

	memset(st, 0, sizeof(*st));
	if (kek_path && *kek_path) {
		if (ara_kek_load(kek_path, st->kek, why, cap))
			return -1;
	} else {
		if (ara_store_state_dir(dir, sizeof(dir), why, cap))
			return -1;
		snprintf(path, sizeof(path), "%s/kek", dir);
		if (access(path, F_OK) == 0 ? ara_kek_load(path, st->kek, why, cap)
					    : ara_kek_create(path, st->kek, why, cap))
			return -1;
	}
	if (url && *url) {
		if (snprintf(st->url, sizeof(st->url), "%s", url) >= (int)sizeof(st->url)) {
			snprintf(why, cap, "the store's URL is too long");
			return -1;
		}
	} else if (ara_store_default_url(st->url, sizeof(st->url), why, cap)) {
		return -1;
	}
	gethostname(host, sizeof(host) - 1);
	snprintf(st->service, sizeof(st->service), "%.32s.%ld", host, (long)getpid());
	/* Opened and migrated now: a store that cannot be is an error at start. */
	l = local(st, why, cap);
	return l ? 0 : -1;
}

int ara_decide_store_report(const struct ara_decide_store *st, const struct ara_decide_device *dev,
			    const struct ara_store_report *in, int revoke, char *why, size_t cap)
{
	struct ara_store_report r = *in;
	struct local *l = local(st, why, cap);
	int rc;

	if (!l)
		return -1;
	snprintf(r.service, sizeof(r.service), "%s", st->service);
	snprintf(r.device, sizeof(r.device), "%s", dev->id);
	rc = l->s->ops->report_add(l->s, &r);
	/* Revoked already (CONFLICT) is revoked: the first reason stands. */
	if (!rc && revoke && dev->id[0] &&
	    (rc = l->s->ops->device_revoke(l->s, dev->id, r.detail, r.time_ms)) == ARA_STORE_CONFLICT)
		rc = 0;
	if (rc) {
		store_failed(l, rc, why, cap);
		return -1;
	}
	return 0;
}

/* Appends one line to out; -1 if it does not fit. */
static int line(char *out, size_t cap, size_t *at, const char *key, const char *value)
{
	int n = snprintf(out + *at, cap - *at, "%s %s\n", key, value);

	if (n < 0 || (size_t)n >= cap - *at)
		return -1;
	*at += (size_t)n;
	return 0;
}

static void hex32(char out[65], const uint8_t *d)
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/*
 * The policy's directives as text the parser reads back to the same
 * policy, without its secrets and with "tpm-ak enrolled" for its AK (the
 * store holds both).
 */
static int policy_text(const struct ara_policy *p, char *out, size_t cap)
{
	char hex[65], age[16];
	size_t at = 0;
	int bad = 0;

	out[0] = '\0';
	snprintf(age, sizeof(age), "%u", p->max_age);
	if (p->backends & 1u << ARA_EVIDENCE_TPM)
		bad |= line(out, cap, &at, "backend", "tpm") | line(out, cap, &at, "tpm-ak", "enrolled");
	if (p->backends & 1u << ARA_EVIDENCE_DEV_INSECURE)
		bad |= line(out, cap, &at, "backend", "dev-insecure");
	bad |= line(out, cap, &at, "max-age", age);
	for (size_t i = 0; i < ARA_POLICY_ROLES; i++) {
		const struct ara_policy_role *r = &ara_policy_roles[i];

		if (r->role == offsetof(struct ara_wire_digests, manifest) && !p->expect_manifest)
			continue;
		hex32(hex, (const uint8_t *)&p->expect + r->role);
		bad |= line(out, cap, &at, r->key, hex);
		for (size_t j = 0; j < p->n_more; j++) {
			if (p->more[j].role != r->role)
				continue;
			hex32(hex, p->more[j].digest);
			bad |= line(out, cap, &at, r->key, hex);
		}
	}
	if (p->rtm_rejected_revokes)
		bad |= line(out, cap, &at, "rtm-rejected", "revoke");
	return bad ? -1 : 0;
}

/* The file's AK as an AK of device "policy-ak-HEX", unless the store has it. */
static int import_ak(struct local *l, const struct ara_policy *p, int64_t now, char *why,
		     size_t cap)
{
	static const uint8_t none[ARA_TPM_AK_PUB_LEN];
	struct ara_store_device d;
	char name[17];
	int r;

	if (memcmp(p->tpm.ak_pub, none, sizeof(none)) == 0)
		return 0;
	memset(&l->ak, 0, sizeof(l->ak));
	if (ara_tpm_ak_signer(p->tpm.ak_pub, l->ak.signer)) {
		snprintf(why, cap, "the policy's tpm-ak: cannot compute its TPM name");
		return -1;
	}
	r = l->s->ops->ak_find(l->s, l->ak.signer, &l->ak, &d);
	if (r != ARA_STORE_NOT_FOUND)
		return r ? store_failed(l, r, why, cap), -1 : 0;
	hex8(name, l->ak.signer + 2);
	snprintf(l->ak.device, sizeof(l->ak.device), "policy-ak-%s", name);
	memcpy(l->ak.pub, p->tpm.ak_pub, sizeof(l->ak.pub));
	l->ak.enrolled_ms = now;
	r = l->s->ops->device_add(l->s, l->ak.device, now);
	if (r == ARA_STORE_OK || r == ARA_STORE_CONFLICT)
		r = l->s->ops->ak_add(l->s, &l->ak);
	return r ? store_failed(l, r, why, cap), -1 : 0;
}

/*
 * The file's secret s as the next version of its name, unless the store's
 * newest holds its value; but never over a once-only version (an
 * operator's, by `ara-provision secret add --once`): the file's value
 * would be a new version, deliverable again, so the import is refused.
 * 0, 1 when another writer added the version first (read again), or -1.
 */
static int import_secret(const struct ara_decide_store *st, struct local *l,
			 const struct ara_policy_secret *s, int64_t now, char *why, size_t cap)
{
	uint8_t plain[ARA_WIRE_SECRET_MAX];
	struct ara_store_secret in = { .version = 0 };
	size_t len = 0;
	int r = l->s->ops->secret_get(l->s, s->name, &in), same;

	if (r && r != ARA_STORE_NOT_FOUND)
		return store_failed(l, r, why, cap), -1;
	if (r == ARA_STORE_OK && ara_kek_open(st->kek, &in, plain, &len, why, cap))
		return -1;
	same = r == ARA_STORE_OK && len == s->len && memcmp(plain, s->value, len) == 0;
	mbedtls_platform_zeroize(plain, sizeof(plain));
	if (same)
		return 0;
	if (r == ARA_STORE_OK && in.once) {
		snprintf(why, cap,
			 "secret '%s': the store's newest version %u is once-only and the "
			 "secrets file holds another value; take the name out of the file, "
			 "or change it with 'ara-provision secret rotate'",
			 s->name, in.version);
		return -1;
	}
	in.version = r == ARA_STORE_OK ? in.version + 1 : 1;
	in.once = 0;
	in.created_ms = now;
	snprintf(in.name, sizeof(in.name), "%s", s->name);
	if (ara_kek_seal(st->kek, &in, s->value, s->len)) {
		snprintf(why, cap, "secret '%s': sealing it failed", s->name);
		return -1;
	}
	r = l->s->ops->secret_put(l->s, &in);
	if (r == ARA_STORE_CONFLICT)
		return 1;
	return r ? store_failed(l, r, why, cap), -1 : 0;
}

/* Each secret of the file (import_secret); a version another writer races for, read again. */
static int import_secrets(const struct ara_decide_store *st, struct local *l,
			  const struct ara_policy *p, int64_t now, char *why, size_t cap)
{
	for (size_t i = 0; i < p->n_secrets; i++) {
		int r = 1;

		for (int tries = 0; r == 1 && tries < 8; tries++)
			r = import_secret(st, l, &p->secrets[i], now, why, cap);
		if (r == 1)
			snprintf(why, cap, "secret '%s': other writers keep adding versions",
				 p->secrets[i].name);
		if (r)
			return -1;
	}
	return 0;
}

int ara_decide_store_import(const struct ara_decide_store *st, const struct ara_policy *p,
			    uint32_t *version, char *why, size_t cap)
{
	struct local *l = local(st, why, cap);
	int64_t now = 0, created;
	uint32_t newest = 0;
	int r;

	if (!l)
		return -1;
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	if (import_ak(l, p, now, why, cap) || import_secrets(st, l, p, now, why, cap))
		return -1;
	if (policy_text(p, l->text, sizeof(l->text))) {
		snprintf(why, cap, "the policy's text is over %u bytes", ARA_STORE_POLICY_MAX);
		return -1;
	}
	/*
	 * A policy that a version already holds adds nothing: the newest
	 * stays. So a stale copy of the file, on one instance's restart or
	 * reload, never replaces what the fleet has moved on to (an operator's
	 * `policy add`, another instance's newer file).
	 */
	r = l->s->ops->policy_newest(l->s, &newest);
	if (r == ARA_STORE_OK) {
		char *stored = malloc(ARA_STORE_POLICY_MAX + 1);
		int same = 0;

		if (!stored) {
			snprintf(why, cap, "the store: out of memory");
			return -1;
		}
		for (uint32_t v = newest; v >= 1 && !same && r == ARA_STORE_OK; v--) {
			r = l->s->ops->policy_get(l->s, v, stored, ARA_STORE_POLICY_MAX + 1,
						  &created);
			same = r == ARA_STORE_OK && strcmp(stored, l->text) == 0;
		}
		free(stored);
		if (same) {
			*version = newest;
			return 0;
		}
	}
	if (r && r != ARA_STORE_NOT_FOUND)
		return store_failed(l, r, why, cap), -1;
	if ((r = l->s->ops->policy_add(l->s, l->text, now, version)))
		return store_failed(l, r, why, cap), -1;
	l->version = 0; /* parse the new version at the next decision */
	return 0;
}
