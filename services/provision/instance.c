/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioning instance of a process (instance.h), in DOM0: made at
 * initialisation, before any App code runs, and its tables of sessions
 * and secrets.
 */
#include <linux/time.h>

#include "ara/service.h"
#include "dev_evidence.h"
#include "instance.h"
#include "tpm_evidence.h"

/* The module's per-process state. */
struct provision_state {
	struct ara_instance *in; /* made by start, or NULL */
};

struct ara_instance *ara_instance(void)
{
	struct provision_state *s = ara_module_state(&ara_provision_module);

	return s ? s->in : NULL;
}

static uint64_t realtime_seconds(void)
{
	struct timespec ts;

	if (ara_sys2(__NR_clock_gettime, CLOCK_REALTIME, &ts) != 0)
		ara_fatal("clock_gettime(CLOCK_REALTIME) failed", 0);
	return (uint64_t)ts.tv_sec;
}

/* The instance key: HPKE's DeriveKeyPair over fresh kernel randomness. */
static void make_instance_key(struct ara_instance *in)
{
	uint8_t ikm[32];
	int r;

	if (ara_random_bytes(ikm, sizeof(ikm)))
		ara_fatal("getrandom for the instance key failed", 0);
	r = ara_hpke_derive_keypair(ikm, sizeof(ikm), in->sk, in->pub);
	ara_memzero(ikm, sizeof(ikm));
	if (r)
		ara_fatal("making the instance key failed", r);
}

static void take_digests(struct ara_wire_digests *d)
{
	const struct ara_boot *b = ara_measured();

	memcpy(d->loader, b->loader_sha256, sizeof(d->loader));
	memcpy(d->manifest, b->manifest_sha256, sizeof(d->manifest));
	memcpy(d->libara, b->libara_sha256, sizeof(d->libara));
	memcpy(d->entry, b->entry_sha256, sizeof(d->entry));
	memcpy(d->app, b->app_sha256, sizeof(d->app));
}

static void dev_insecure_evidence(struct ara_instance *in, const uint8_t binding[32])
{
	struct ara_msg m = { .len = 0 };

	ara_msg_str(&m, "ara: platform evidence from the dev-insecure backend: INSECURE, "
			"anyone can forge it; for development only\n");
	ara_msg_emit(&m);
	in->evidence = ara_dom0_calloc(1, ARA_DEV_INSECURE_EVIDENCE_BYTES);
	if (!in->evidence)
		ara_fatal("no DOM0 memory for the evidence", 0);
	if (ara_dev_insecure_evidence(binding, in->evidence))
		ara_fatal("making dev-insecure evidence failed", 0);
	in->evidence_len = ARA_DEV_INSECURE_EVIDENCE_BYTES;
}

static void provision_start(char **envp)
{
	const char *backend = ara_env_get(envp, "ARA_EVIDENCE");
	struct provision_state *state;
	struct ara_instance *in;
	struct ara_wire_attest bound;
	uint8_t binding[32];

	if (!backend)
		return;
	if (strcmp(backend, "tpm") == 0 && ara_measured()->svc_page) {
		/*
		 * An image started by execve from an ARA App keeps its
		 * ancestors' filters, which would stop ara-tpm-quote's own
		 * system calls: no instance here (PROVISION_BEGIN says so).
		 */
		struct ara_msg m = { .len = 0 };

		ara_msg_str(&m, "ara: no tpm evidence in a program started by execve from an ARA App; "
				"provisioning is not available in it\n");
		ara_msg_emit(&m);
		return;
	}
	in = ara_dom0_calloc(1, sizeof(*in));
	if (!in)
		ara_fatal("no DOM0 memory for the provisioning instance", 0);
	if (strcmp(backend, "dev-insecure") == 0)
		in->backend = ARA_EVIDENCE_DEV_INSECURE;
	else if (strcmp(backend, "tpm") == 0)
		in->backend = ARA_EVIDENCE_TPM;
	else
		ara_fatal("ARA_EVIDENCE names no evidence backend (dev-insecure or tpm)", 0);
	make_instance_key(in);
	in->issued_at = realtime_seconds();
	take_digests(&in->digests);

	bound = (struct ara_wire_attest){ .backend = in->backend,
					  .issued_at = in->issued_at,
					  .instance_pub = in->pub,
					  .digests = in->digests };
	if (ara_provision_binding(&bound, binding))
		ara_fatal("hashing the evidence binding failed", 0);
	if (in->backend == ARA_EVIDENCE_DEV_INSECURE)
		dev_insecure_evidence(in, binding);
	else
		ara_tpm_evidence(envp, binding, &in->evidence, &in->evidence_len);
	if (!(state = ara_module_state(&ara_provision_module)))
		ara_fatal("no DOM0 memory for the provisioning state", 0);
	state->in = in;
}

/* The RTM, in a domain of its own, has its documents signed (provision_calls.h). */
ARA_MODULE(ara_provision_module, .name = "provision", .state_size = sizeof(struct provision_state),
	   .start = provision_start, .callers = (const char *const[]){ "rtm", NULL });

/* A fresh id for slot i: never 0, and a slot's ids differ between uses. */
static uint32_t next_id(struct ara_instance *in, size_t i)
{
	in->generation = (in->generation + 1) & 0xffffffu;
	return in->generation << 8 | (uint32_t)(i + 1);
}

/* Wipes what a session slot holds, but not its state (the lock holder's). */
static void wipe_session(struct ara_session *s)
{
	ara_memzero((uint8_t *)s + sizeof(s->state), sizeof(*s) - sizeof(s->state));
}

struct ara_session *ara_session_claim(struct ara_instance *in)
{
	struct ara_session *found = NULL, *oldest = NULL;
	size_t at = 0;

	ara_lock(&in->lock);
	for (size_t i = 0; i < ARA_PROVISION_SESSIONS && !found; i++) {
		struct ara_session *s = &in->sessions[i];

		if (s->state == ARA_SLOT_FREE)
			found = s, at = i;
		else if (s->state == ARA_SLOT_ACTIVE && (!oldest || s->begun < oldest->begun))
			oldest = s, at = i;
	}
	if (!found && oldest) {
		found = oldest;
		wipe_session(found);
	}
	if (found) {
		found->state = ARA_SLOT_BUSY;
		found->id = next_id(in, at);
		found->begun = ++in->sessions_begun;
	}
	ara_unlock(&in->lock);
	return found;
}

struct ara_session *ara_session_take(struct ara_instance *in, uint32_t id)
{
	struct ara_session *found = NULL;
	size_t i = (id & 0xffu) - 1; /* wraps to a huge index for slot byte 0 */

	ara_lock(&in->lock);
	if (i < ARA_PROVISION_SESSIONS && in->sessions[i].id == id &&
	    in->sessions[i].state == ARA_SLOT_ACTIVE) {
		found = &in->sessions[i];
		found->state = ARA_SLOT_BUSY;
	}
	ara_unlock(&in->lock);
	return found;
}

void ara_session_release(struct ara_instance *in, struct ara_session *s, enum ara_slot_state to)
{
	if (to == ARA_SLOT_FREE)
		wipe_session(s); /* the share's key with the rest */
	ara_lock(&in->lock);
	s->state = to;
	ara_unlock(&in->lock);
}

/* The active secret with this handle, with the lock held; NULL if none. */
static struct ara_secret *secret_locked(struct ara_instance *in, uint32_t handle)
{
	size_t i = (handle & 0xffu) - 1;

	if (i < ARA_PROVISION_SECRETS && in->secrets[i].handle == handle &&
	    in->secrets[i].state == ARA_SLOT_ACTIVE)
		return &in->secrets[i];
	return NULL;
}

/*
 * A recipient's box holds as many secrets as this table: with one handed
 * secret a name (drop_handed), a module never has more handed to it than
 * there are slots here, so a hand-over the core delivers later always
 * finds room.
 */
_Static_assert(ARA_PROVISION_SECRETS <= ARA_HANDOVER_HELD, "the recipients' boxes");

/* Frees the slots of secrets handed under this name, but for keep; with the lock held. */
static void drop_handed(struct ara_instance *in, const struct ara_secret *keep, const uint8_t *name,
			size_t name_len)
{
	for (size_t i = 0; i < ARA_PROVISION_SECRETS; i++) {
		struct ara_secret *s = &in->secrets[i];

		if (s != keep && s->state == ARA_SLOT_ACTIVE && s->handed && s->name_len == name_len &&
		    memcmp(s->name, name, name_len) == 0)
			ara_memzero(s, sizeof(*s)); /* state FREE with the rest */
	}
}

enum ara_status ara_secret_store(struct ara_instance *in, const uint8_t *name, size_t name_len,
				 const uint8_t *value, size_t len, uint32_t *handle)
{
	struct ara_secret *s = NULL;
	enum ara_status st = ARA_E_NOMEM;

	/* Under the lock throughout: a destroy's withdrawal cannot cross the hand-over. */
	ara_lock(&in->lock);
	for (size_t i = 0; i < ARA_PROVISION_SECRETS && !s; i++)
		if (in->secrets[i].state == ARA_SLOT_FREE)
			s = &in->secrets[i];
	if (s) {
		st = ara_handover(&ara_provision_module, name, name_len, value, len);
		if (st == ARA_OK) {
			s->handed = 1;
			drop_handed(in, s, name, name_len);
		} else if (st == ARA_E_NOENT) { /* no module takes it: provisioning's own */
			memcpy(s->value, value, len);
			st = ARA_OK;
		}
	}
	if (st == ARA_OK) {
		memcpy(s->name, name, name_len);
		s->name_len = (uint32_t)name_len;
		s->len = (uint32_t)len;
		s->handle = *handle = next_id(in, (size_t)(s - in->secrets));
		s->state = ARA_SLOT_ACTIVE;
	}
	ara_unlock(&in->lock);
	return st;
}

enum ara_status ara_secret_copy(struct ara_instance *in, uint32_t handle, uint8_t *out,
				uint32_t *len)
{
	struct ara_secret *s;
	enum ara_status st = ARA_E_NOENT;

	ara_lock(&in->lock);
	if ((s = secret_locked(in, handle)) && s->handed) {
		st = ARA_E_SECURITY;
	} else if (s) {
		memcpy(out, s->value, s->len);
		*len = s->len;
		st = ARA_OK;
	}
	ara_unlock(&in->lock);
	return st;
}

int ara_secret_describe(struct ara_instance *in, uint32_t handle, uint8_t *name,
			uint32_t *name_len, uint32_t *len)
{
	struct ara_secret *s;
	int r = -1;

	ara_lock(&in->lock);
	if ((s = secret_locked(in, handle))) {
		memcpy(name, s->name, s->name_len);
		*name_len = s->name_len;
		*len = s->len;
		r = 0;
	}
	ara_unlock(&in->lock);
	return r;
}

enum ara_status ara_secret_destroy(struct ara_instance *in, uint32_t handle)
{
	struct ara_secret *s;
	enum ara_status st = ARA_E_NOENT;

	ara_lock(&in->lock);
	if ((s = secret_locked(in, handle))) {
		st = s->handed ? ara_handover(&ara_provision_module, s->name, s->name_len, NULL, 0)
			       : ARA_OK;
		if (st == ARA_OK)
			ara_memzero(s, sizeof(*s)); /* state FREE with the rest */
	}
	ara_unlock(&in->lock);
	return st;
}
