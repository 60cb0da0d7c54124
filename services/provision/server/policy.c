/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's policy file (policy.h; the format is in
 * docs/provisioning.md). One directive per line, '#' starts a comment;
 * anything not understood is an error, never ignored: a typo must not
 * weaken the policy.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/platform_util.h>

#include "hex.h"
#include "policy.h"

#define LINE_MAX_BYTES 4096
#define FILE_MAX_BYTES (1u << 20)

struct where {
	const char *file;
	unsigned line;
	char *why;
	size_t cap;
};

static int fail(const struct where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(const struct where *w, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(w->why, w->cap, "%s:%u: ", w->file, w->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < w->cap)
		vsnprintf(w->why + n, w->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A file's contents, NUL-terminated, at most FILE_MAX_BYTES; NULL with why. */
static char *read_file(const struct where *w, const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		fail(w, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	buf = calloc(1, FILE_MAX_BYTES + 1);
	n = buf ? fread(buf, 1, FILE_MAX_BYTES + 1, f) : 0;
	if (!buf || ferror(f) || n > FILE_MAX_BYTES) {
		fail(w, "cannot read %s (or it is over %u bytes)", path, FILE_MAX_BYTES);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* path relative to the directory of the policy file, unless absolute. */
static int resolve(const struct where *w, const char *path, char out[PATH_MAX])
{
	const char *slash = strrchr(w->file, '/');
	int n;

	if (path[0] == '/' || !slash)
		n = snprintf(out, PATH_MAX, "%s", path);
	else
		n = snprintf(out, PATH_MAX, "%.*s/%s", (int)(slash - w->file), w->file, path);
	return n < 0 || n >= PATH_MAX ? fail(w, "path too long: %s", path) : 0;
}

static int load_ak(const struct where *w, const char *arg, struct ara_policy *p)
{
	char path[PATH_MAX], why[200];
	size_t len;
	char *pem;
	int r;

	if (resolve(w, arg, path))
		return -1;
	if (!(pem = read_file(w, path, &len)))
		return -1;
	r = ara_tpm_ak_from_pem(pem, len, p->tpm.ak_pub, why, sizeof(why));
	free(pem);
	return r ? fail(w, "tpm-ak %s: %s", path, why) : 0;
}

/* The secrets file: "NAME HEX" per line, '#' comments. */
static int load_secrets(const struct where *pw, const char *arg, struct ara_policy *p)
{
	char path[PATH_MAX];
	size_t len;
	char *text, *line, *save = NULL;
	struct where w = *pw;
	int r = 0;

	if (resolve(pw, arg, path) || !(text = read_file(pw, path, &len)))
		return -1;
	w.file = path;
	w.line = 0;
	for (line = strtok_r(text, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save)) {
		char name[ARA_WIRE_NAME_MAX + 2], hex[2 * ARA_WIRE_SECRET_MAX + 2], extra[2];
		struct ara_policy_secret *s;
		int fields;
		long n;

		w.line++;
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		fields = sscanf(line, "%65s %2049s %1s", name, hex, extra);
		if (fields != 2 || strlen(name) > ARA_WIRE_NAME_MAX ||
		    !ara_wire_name_ok((const uint8_t *)name, strlen(name))) {
			r = fail(&w, "expected 'NAME HEX' with NAME of [A-Za-z0-9._-]{1,64}");
		} else if (ara_policy_secret(p, (const uint8_t *)name, strlen(name))) {
			r = fail(&w, "secret '%s' is named twice", name);
		} else if (p->n_secrets == ARA_POLICY_SECRETS_MAX) {
			r = fail(&w, "more than %u secrets", ARA_POLICY_SECRETS_MAX);
		} else {
			s = &p->secrets[p->n_secrets];
			n = ara_hex_decode(hex, s->value, sizeof(s->value));
			if (n < 0) {
				r = fail(&w, "the value of '%s' is not 1..%u bytes of hex", name,
					 ARA_WIRE_SECRET_MAX);
			} else {
				memcpy(s->name, name, strlen(name) + 1);
				s->name_len = strlen(name);
				s->len = (size_t)n;
				p->n_secrets++;
			}
		}
		mbedtls_platform_zeroize(hex, sizeof(hex));
	}
	mbedtls_platform_zeroize(text, len);
	free(text);
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

enum seen {
	SEEN_LOADER = 1,
	SEEN_LIBARA = 2,
	SEEN_ENTRY = 4,
	SEEN_APP = 8,
	SEEN_AGE = 16,
	SEEN_MANIFEST = 32,
};

static int directive(const struct where *w, const char *key, const char *arg,
		     struct ara_policy *p, unsigned *seen)
{
	if (strcmp(key, "backend") == 0) {
		if (strcmp(arg, "tpm") == 0)
			p->backends |= 1u << ARA_EVIDENCE_TPM;
		else if (strcmp(arg, "dev-insecure") == 0)
			p->backends |= 1u << ARA_EVIDENCE_DEV_INSECURE;
		else
			return fail(w, "backend is tpm or dev-insecure, not '%s'", arg);
		return 0;
	}
	if (strcmp(key, "max-age") == 0) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || *end || arg[0] == '-' || v == 0 || v > 86400)
			return fail(w, "max-age is 1..86400 seconds, not '%s'", arg);
		p->max_age = (uint32_t)v;
		*seen |= SEEN_AGE;
		return 0;
	}
	static const struct {
		const char *key;
		unsigned seen;
		size_t role;
	} roles[] = {
		{ "loader", SEEN_LOADER, offsetof(struct ara_wire_digests, loader) },
		{ "libara", SEEN_LIBARA, offsetof(struct ara_wire_digests, libara) },
		{ "entry", SEEN_ENTRY, offsetof(struct ara_wire_digests, entry) },
		{ "app", SEEN_APP, offsetof(struct ara_wire_digests, app) },
		{ "manifest", SEEN_MANIFEST, offsetof(struct ara_wire_digests, manifest) },
	};

	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		int first = !(*seen & roles[i].seen);

		if (strcmp(key, roles[i].key) != 0)
			continue;
		*seen |= roles[i].seen;
		if (roles[i].seen == SEEN_MANIFEST)
			p->expect_manifest = 1;
		return allow(w, key, arg, p, first, roles[i].role);
	}
	if (strcmp(key, "tpm-ak") == 0 && strcmp(arg, "enrolled") == 0)
		return p->ak_enrolled = 1, 0;
	if (strcmp(key, "tpm-ak") == 0)
		return load_ak(w, arg, p);
	if (strcmp(key, "secrets") == 0)
		return load_secrets(w, arg, p);
	if (strcmp(key, "rtm-rejected") == 0) {
		/* What a rejected RTM report does to its device (docs/provisioning.md). */
		if (strcmp(arg, "revoke") == 0)
			p->rtm_rejected_revokes = 1;
		else if (strcmp(arg, "record") == 0)
			p->rtm_rejected_revokes = 0;
		else
			return fail(w, "rtm-rejected is revoke or record, not '%s'", arg);
		return 0;
	}
	return fail(w, "unknown directive '%s'", key);
}

int ara_policy_parse(const char *name, char *text, struct ara_policy *p, char *why, size_t cap)
{
	struct where w = { name, 0, why, cap };
	static const uint8_t no_key[ARA_TPM_AK_PUB_LEN];
	const unsigned required = SEEN_LOADER | SEEN_LIBARA | SEEN_ENTRY | SEEN_APP | SEEN_AGE;
	unsigned seen = 0;
	char *line, *save = NULL;
	int r = 0;

	memset(p, 0, sizeof(*p));
	for (line = strtok_r(text, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save)) {
		char key[32], arg[PATH_MAX], extra[2];
		int fields;

		w.line++;
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		if (strlen(line) > LINE_MAX_BYTES) {
			r = fail(&w, "line longer than %u bytes", LINE_MAX_BYTES);
			break;
		}
		fields = sscanf(line, "%31s %4095s %1s", key, arg, extra);
		r = fields != 2 ? fail(&w, "expected 'DIRECTIVE VALUE'")
				: directive(&w, key, arg, p, &seen);
	}
	w.line = 0;
	if (!r && !p->backends)
		r = fail(&w, "no 'backend' line: the policy accepts no evidence");
	if (!r && (seen & required) != required)
		r = fail(&w, "loader, libara, entry, app and max-age are all required");
	if (!r && (p->backends & 1u << ARA_EVIDENCE_TPM) && !p->ak_enrolled &&
	    memcmp(p->tpm.ak_pub, no_key, sizeof(no_key)) == 0)
		r = fail(&w, "backend tpm needs 'tpm-ak', the enrolled attestation key "
			     "(a PEM file, or 'enrolled': the store's)");
	if (!r && p->ak_enrolled && memcmp(p->tpm.ak_pub, no_key, sizeof(no_key)) != 0)
		r = fail(&w, "'tpm-ak enrolled' and 'tpm-ak FILE' together");
	memcpy(p->tpm.loader_sha256, p->expect.loader, sizeof(p->tpm.loader_sha256));
	if (r)
		ara_policy_wipe(p);
	return r;
}

int ara_policy_load(const char *path, struct ara_policy *p, char *why, size_t cap)
{
	struct where w = { path, 0, why, cap };
	size_t len;
	char *text = read_file(&w, path, &len);
	int r;

	if (!text) {
		memset(p, 0, sizeof(*p));
		return -1;
	}
	r = ara_policy_parse(path, text, p, why, cap);
	free(text);
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
