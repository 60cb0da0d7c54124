/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EAR claim set (ear.h, docs/ear.md), built with jansson and signed by
 * jws.c. Byte strings of the draft's own claims (eat_nonce) are base64url,
 * as EAT's JSON serialisation wants; ARA's digests and keys are lower-case
 * hex, as its policy files and logs write them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ara/hex.h"
#include "ear.h"
#include "jws.h"

#define DEVELOPER "ARA (Application Run-time Anchor)"

static const char *status_name(enum ara_ear_status s)
{
	switch (s) {
	case ARA_EAR_AFFIRMING: return "affirming";
	case ARA_EAR_WARNING: return "warning";
	case ARA_EAR_CONTRAINDICATED: return "contraindicated";
	default: return "none";
	}
}

/* Steals v into o under key; -1 if v is NULL or the set fails. */
static int put(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) ? -1 : 0;
}

/* n is at most 65 (a P-256 point). */
static json_t *hex(const uint8_t *b, size_t n)
{
	char s[2 * 65 + 1];

	ara_hex_encode(b, n, s);
	return json_stringn(s, 2 * n);
}

/* A line of ours that may quote a file name: printable ASCII only (JSON wants UTF-8). */
static json_t *text(const char *s)
{
	char buf[1024];
	size_t n = 0;

	for (; s[n] && n < sizeof(buf) - 1; n++)
		buf[n] = s[n] >= 0x20 && s[n] <= 0x7e ? s[n] : '?';
	return json_stringn(buf, n);
}

static json_t *b64url(const uint8_t *b, size_t n)
{
	char s[64];

	return ara_b64url(b, n, s, sizeof(s)) ? NULL : json_string(s);
}

static json_t *trust_vector(const struct ara_ear_result *r)
{
	json_t *tv = json_object();

	if (!tv || (r->instance_identity &&
		    put(tv, "instance-identity", json_integer(r->instance_identity))) ||
	    (r->executables && put(tv, "executables", json_integer(r->executables)))) {
		json_decref(tv);
		return NULL;
	}
	return tv;
}

static json_t *rtm(const struct ara_ear_rtm *m)
{
	json_t *o = json_object();

	if (!o || put(o, "entries", json_integer((json_int_t)m->entries)) ||
	    put(o, "segments", json_integer((json_int_t)m->segments)) ||
	    put(o, "pending", json_integer(m->pending)) ||
	    put(o, "checkpoints", json_integer((json_int_t)m->checkpoints)) ||
	    put(o, "final", json_boolean(m->final))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The one appraisal, ARA's submodule. */
static json_t *appraisal(const struct ara_ear_result *r)
{
	json_t *a = json_object();

	if (!a || put(a, "ear.status", json_string(status_name(r->status))) ||
	    ((r->instance_identity || r->executables) &&
	     put(a, "ear.trustworthiness-vector", trust_vector(r))) ||
	    (r->policy_id && put(a, "ear.appraisal-policy-id", text(r->policy_id))) ||
	    (r->app_sha256 && put(a, "ear.ara.app-sha256", hex(r->app_sha256, 32))) ||
	    (r->instance_pub && put(a, "ear.ara.instance-key", hex(r->instance_pub, 65))) ||
	    (r->reason && put(a, "ear.ara.reason", text(r->reason))) ||
	    (r->rtm && put(a, "ear.ara.rtm", rtm(r->rtm)))) {
		json_decref(a);
		return NULL;
	}
	return a;
}

char *ara_ear_claims(const struct ara_ear_result *r)
{
	json_t *c = json_object(), *vid = json_object(), *sub = json_object();
	char *s = NULL;

	if (!c || !vid || !sub || put(vid, "developer", json_string(DEVELOPER)) ||
	    put(vid, "build", text(r->verifier_build)) ||
	    put(sub, ARA_EAR_SUBMOD, appraisal(r)))
		goto out;
	if (put(c, "eat_profile", json_string(ARA_EAR_PROFILE)) ||
	    put(c, "iat", json_integer((json_int_t)r->iat)) ||
	    put(c, "ear.verifier-id", json_incref(vid)) ||
	    (r->nonce && put(c, "eat_nonce", b64url(r->nonce, 32))) ||
	    put(c, "submods", json_incref(sub)))
		goto out;
	s = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
out:
	json_decref(vid);
	json_decref(sub);
	json_decref(c);
	return s;
}

char *ara_ear_sign(const struct ara_ear_result *r, const struct ara_ear_key *k)
{
	char *claims = ara_ear_claims(r), *jwt;

	if (!claims)
		return NULL;
	jwt = ara_jws_es256(claims, strlen(claims), k->sk);
	free(claims);
	return jwt;
}
