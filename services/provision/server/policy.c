/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's policy file (policy.h; the format is in
 * docs/provisioning.md). One directive per line (text_lines.h), each at
 * most once; anything not understood is an error, never ignored, and the
 * whole file is refused: a typo must not weaken the policy.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/platform_util.h>

#include "ara/hex.h"
#include "policy.h"
#include "read_whole.h"
#include "text_lines.h"

struct where {
	const struct ara_text_lines *l; /* the file and the line */
	char *why;
	size_t cap;
};

/* "FILE:LINE: " and the message into w's why; returns -1. */
#define fail(w, ...) ara_text_lines_fail((w)->l, (w)->why, (w)->cap, __VA_ARGS__)

/* path relative to the directory of the policy file, unless absolute. */
static int resolve(const struct where *w, const char *path, char out[PATH_MAX])
{
	const char *slash = strrchr(w->l->file, '/');
	int n;

	if (path[0] == '/' || !slash)
		n = snprintf(out, PATH_MAX, "%s", path);
	else
		n = snprintf(out, PATH_MAX, "%.*s/%s", (int)(slash - w->l->file), w->l->file, path);
	return n < 0 || n >= PATH_MAX ? fail(w, "path too long: %s", path) : 0;
}

static int load_ak(const struct where *w, const char *arg, struct ara_policy *p)
{
	char path[PATH_MAX], why[200];
	uint8_t *pem;
	size_t len;
	int r;

	if (resolve(w, arg, path))
		return -1;
	if (ara_read_whole(path, ARA_POLICY_FILE_MAX, &pem, &len))
		return fail(w, "cannot open %s (or it is over %u bytes): %s", path,
			    ARA_POLICY_FILE_MAX, strerror(errno));
	r = ara_tpm_ak_from_pem((const char *)pem, len, p->tpm.ak_pub, why, sizeof(why));
	free(pem);
	return r ? fail(w, "tpm-ak %s: %s", path, why) : 0;
}

/* One line of the secrets file: NAME HEX. */
static int add_secret(const struct where *w, char **field, int fields, struct ara_policy *p)
{
	struct ara_policy_secret *s;
	size_t name_len = fields == 2 ? strlen(field[0]) : 0;
	long n;

	if (fields != 2 || name_len > ARA_WIRE_NAME_MAX ||
	    !ara_wire_name_ok((const uint8_t *)field[0], name_len))
		return fail(w, "expected 'NAME HEX' with NAME of [A-Za-z0-9._-]{1,64}");
	if (ara_policy_secret(p, (const uint8_t *)field[0], name_len))
		return fail(w, "secret '%s' is named twice", field[0]);
	if (p->n_secrets == ARA_POLICY_SECRETS_MAX)
		return fail(w, "more than %u secrets", ARA_POLICY_SECRETS_MAX);
	s = &p->secrets[p->n_secrets];
	n = ara_hex_decode(field[1], s->value, sizeof(s->value));
	if (n < 0) {
		mbedtls_platform_zeroize(s->value, sizeof(s->value));
		return fail(w, "the value of '%s' is not 1..%u bytes of hex", field[0],
			    ARA_WIRE_SECRET_MAX);
	}
	memcpy(s->name, field[0], name_len + 1);
	s->name_len = name_len;
	s->len = (size_t)n;
	p->n_secrets++;
	return 0;
}

/*
 * The secrets file: "NAME HEX" per line (text_lines.h), wiped once read,
 * refused if others than its owner may read or write it.
 */
static int load_secrets(const struct where *pw, const char *arg, struct ara_policy *p)
{
	char path[PATH_MAX], *field[3];
	struct ara_text_lines l;
	struct where w = { &l, pw->why, pw->cap };
	int fields, r = 0;

	if (resolve(pw, arg, path) ||
	    ara_text_lines_read(&l, path, ARA_POLICY_FILE_MAX, ARA_TEXT_PRIVATE, pw->why, pw->cap))
		return -1;
	while (!r && (fields = ara_text_lines_next(&l, field, 2, pw->why, pw->cap)) != 0)
		r = fields < 0 ? -1 : add_secret(&w, field, fields, p);
	ara_text_lines_close(&l);
	return r;
}

static int digest(const struct where *w, const char *key, const char *arg, uint8_t out[32])
{
	if (ara_hex_decode(arg, out, 32) != 32)
		return fail(w, "%s needs a SHA-256 digest: 64 hex digits", key);
	return 0;
}

/*
 * A digest line of a role: the first goes to expect, each further one to
 * the allowlist (more), never over an earlier one; the same digest twice
 * is an error.
 */
static int allow(const struct where *w, const char *key, const char *arg, struct ara_policy *p,
		 int first, size_t role)
{
	uint8_t d[32];

	if (first)
		return digest(w, key, arg, (uint8_t *)&p->expect + role);
	if (digest(w, key, arg, d))
		return -1;
	if (ara_policy_allows(p, role, d))
		return fail(w, "%s %s is listed twice", key, arg);
	if (p->n_more == ARA_POLICY_MORE_MAX)
		return fail(w, "more than %u further digests", ARA_POLICY_MORE_MAX);
	p->more[p->n_more].role = role;
	memcpy(p->more[p->n_more++].digest, d, sizeof(d));
	return 0;
}

/*
 * The directives; the line each was first given on. A digest role may be
 * given again (an allowlist, above); every other directive at most once
 * (backend once per value), with a message naming the earlier line.
 */
enum directive {
	D_BACKEND_TPM, D_BACKEND_DEV, D_MAX_AGE,
	D_LOADER, D_LIBARA, D_ENTRY, D_APP, D_MANIFEST, /* ara_policy_roles' order */
	D_TPM_AK, D_SECRETS, D_RTM_REJECTED, D_COUNT
};

const struct ara_policy_role ara_policy_roles[ARA_POLICY_ROLES] = {
	{ "loader", "ara-loader", offsetof(struct ara_wire_digests, loader) },
	{ "libara", "libara", offsetof(struct ara_wire_digests, libara) },
	{ "entry", "the entry object", offsetof(struct ara_wire_digests, entry) },
	{ "app", "the App", offsetof(struct ara_wire_digests, app) },
	{ "manifest", "the manifest", offsetof(struct ara_wire_digests, manifest) },
};

struct seen {
	unsigned line[D_COUNT]; /* 0: not given yet */
};

static int once(const struct where *w, struct seen *seen, enum directive d, const char *what)
{
	if (seen->line[d] != 0)
		return fail(w, "%s is given twice (first on line %u): each is given once", what,
			    seen->line[d]);
	seen->line[d] = w->l->line;
	return 0;
}

static int directive(const struct where *w, const char *key, const char *arg,
		     struct ara_policy *p, struct seen *seen)
{
	if (strcmp(key, "backend") == 0) {
		if (strcmp(arg, "tpm") == 0) {
			p->backends |= 1u << ARA_EVIDENCE_TPM;
			return once(w, seen, D_BACKEND_TPM, "backend tpm");
		}
		if (strcmp(arg, "dev-insecure") == 0) {
			p->backends |= 1u << ARA_EVIDENCE_DEV_INSECURE;
			return once(w, seen, D_BACKEND_DEV, "backend dev-insecure");
		}
		return fail(w, "backend is tpm or dev-insecure, not '%s'", arg);
	}
	if (strcmp(key, "max-age") == 0) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || *end || arg[0] == '-' || v == 0 || v > 86400)
			return fail(w, "max-age is 1..86400 seconds, not '%s'", arg);
		p->max_age = (uint32_t)v;
		return once(w, seen, D_MAX_AGE, key);
	}
	for (size_t i = 0; i < ARA_POLICY_ROLES; i++) {
		enum directive d = (enum directive)(D_LOADER + i);
		int first = seen->line[d] == 0;

		if (strcmp(key, ara_policy_roles[i].key) != 0)
			continue;
		if (first)
			seen->line[d] = w->l->line;
		if (d == D_MANIFEST)
			p->expect_manifest = 1;
		return allow(w, key, arg, p, first, ara_policy_roles[i].role);
	}
	if (strcmp(key, "tpm-ak") == 0 && strcmp(arg, "enrolled") == 0)
		return once(w, seen, D_TPM_AK, key) ? -1 : (p->ak_enrolled = 1, 0);
	if (strcmp(key, "tpm-ak") == 0)
		return once(w, seen, D_TPM_AK, key) || load_ak(w, arg, p) ? -1 : 0;
	if (strcmp(key, "secrets") == 0)
		return once(w, seen, D_SECRETS, key) || load_secrets(w, arg, p) ? -1 : 0;
	if (strcmp(key, "rtm-rejected") == 0) {
		/* What a rejected RTM report does to its device (docs/provisioning.md). */
		if (strcmp(arg, "revoke") == 0)
			p->rtm_rejected_revokes = 1;
		else if (strcmp(arg, "record") == 0)
			p->rtm_rejected_revokes = 0;
		else
			return fail(w, "rtm-rejected is revoke or record, not '%s'", arg);
		return once(w, seen, D_RTM_REJECTED, key);
	}
	return fail(w, "unknown directive '%s'", key);
}

/* The policy's lines, then what a whole policy needs. */
static int parse(struct ara_text_lines *l, struct ara_policy *p, char *why, size_t cap)
{
	static const uint8_t no_key[ARA_TPM_AK_PUB_LEN];
	static const enum directive required[] = { D_LOADER, D_LIBARA, D_ENTRY, D_APP, D_MAX_AGE };
	struct where w = { l, why, cap };
	struct seen seen = { { 0 } };
	char *field[3];
	int fields, r = 0;

	while (!r && (fields = ara_text_lines_next(l, field, 2, why, cap)) != 0)
		r = fields < 0	  ? -1
		    : fields != 2 ? fail(&w, "expected 'DIRECTIVE VALUE'")
				  : directive(&w, field[0], field[1], p, &seen);
	l->line = 0;
	if (!r && !p->backends)
		r = fail(&w, "no 'backend' line: the policy accepts no evidence");
	for (size_t i = 0; !r && i < sizeof(required) / sizeof(required[0]); i++)
		if (seen.line[required[i]] == 0)
			r = fail(&w, "loader, libara, entry, app and max-age are all required");
	if (!r && (p->backends & 1u << ARA_EVIDENCE_TPM) && !p->ak_enrolled &&
	    memcmp(p->tpm.ak_pub, no_key, sizeof(no_key)) == 0)
		r = fail(&w, "backend tpm needs 'tpm-ak', the enrolled attestation key "
			     "(a PEM file, or 'enrolled': the store's)");
	memcpy(p->tpm.loader_sha256, p->expect.loader, sizeof(p->tpm.loader_sha256));
	return r;
}

int ara_policy_parse(const char *name, char *text, size_t len, struct ara_policy *p, char *why,
		     size_t cap)
{
	struct ara_text_lines l;
	int r;

	memset(p, 0, sizeof(*p));
	r = ara_text_lines_over(&l, name, text, len, why, cap) ? -1 : parse(&l, p, why, cap);
	if (r)
		ara_policy_wipe(p);
	return r;
}

int ara_policy_load(const char *path, struct ara_policy *p, char *why, size_t cap)
{
	struct ara_text_lines l;
	int r;

	memset(p, 0, sizeof(*p));
	r = ara_text_lines_read(&l, path, ARA_POLICY_FILE_MAX, 0, why, cap);
	if (r)
		return r == ARA_TEXT_UNREADABLE ? ARA_POLICY_UNREADABLE : -1;
	r = parse(&l, p, why, cap);
	ara_text_lines_close(&l);
	if (r)
		ara_policy_wipe(p);
	return r;
}

const struct ara_policy_secret *ara_policy_secret(const struct ara_policy *p, const uint8_t *name,
						  size_t name_len)
{
	for (size_t i = 0; i < p->n_secrets; i++)
		if (p->secrets[i].name_len == name_len && memcmp(p->secrets[i].name, name, name_len) == 0)
			return &p->secrets[i];
	return NULL;
}

int ara_policy_allows(const struct ara_policy *p, size_t role, const uint8_t *digest)
{
	if (memcmp((const uint8_t *)&p->expect + role, digest, ARA_WIRE_SHA256) == 0)
		return 1;
	for (size_t i = 0; i < p->n_more; i++)
		if (p->more[i].role == role && memcmp(p->more[i].digest, digest, 32) == 0)
			return 1;
	return 0;
}

void ara_policy_wipe(struct ara_policy *p)
{
	mbedtls_platform_zeroize(p->secrets, sizeof(p->secrets));
	p->n_secrets = 0;
}
