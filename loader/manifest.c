/* SPDX-License-Identifier: Apache-2.0 */
#include "manifest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ara/hex.h"

#define HEX_LEN (2u * ARA_SHA256_BYTES)

static const char *const role_names[ARA_ROLES] = { "libara", "entry", "app" };

const char *ara_role_name(enum ara_role role)
{
	return (unsigned int)role < ARA_ROLES ? role_names[role] : "?";
}

const char *ara_manifest_strerror(enum ara_manifest_err err)
{
	switch (err) {
	case ARA_MANIFEST_OK:
		return "no error";
	case ARA_MANIFEST_E_SIZE:
		return "empty, or larger than 16384 bytes";
	case ARA_MANIFEST_E_NEWLINE:
		return "the last line does not end in a newline";
	case ARA_MANIFEST_E_CHAR:
		return "control character (NUL, tab, CR, ...) in the line";
	case ARA_MANIFEST_E_HEADER:
		return "the first line must be \"" ARA_MANIFEST_HEADER "\"";
	case ARA_MANIFEST_E_VERSION:
		return "unsupported manifest version (this loader reads version 1)";
	case ARA_MANIFEST_E_FIELDS:
		return "expected \"<role> <sha256> <path>\", separated by single spaces";
	case ARA_MANIFEST_E_ROLE:
		return "unknown role (the roles are libara, entry and app)";
	case ARA_MANIFEST_E_ORDER:
		return "role repeated or out of order (libara, entry, app: one line each)";
	case ARA_MANIFEST_E_DIGEST:
		return "the digest must be 64 lowercase hex digits";
	case ARA_MANIFEST_E_PATH:
		return "the path is empty, longer than 4095 bytes, or starts or ends with a space";
	case ARA_MANIFEST_E_MISSING:
		return "the manifest ends before its libara, entry and app lines are all present";
	case ARA_MANIFEST_E_EXTRA:
		return "unexpected line after the app line (only a provisioner line may follow it)";
	case ARA_MANIFEST_E_KEY:
		return "expected \"provisioner <key>\", the key 130 lowercase hex digits starting 04";
	}
	return "unknown manifest error";
}

static bool path_ok(const char *path, size_t n)
{
	return n > 0 && n <= ARA_MANIFEST_PATH_MAX && path[0] != ' ' &&
	       path[n - 1] != ' ';
}

/* Control bytes have no business in a manifest; '\n' ends lines and is
 * never inside one. */
static bool has_control_byte(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

/* "ara-manifest 1"; "ara-manifest <other number>" is another version. */
static enum ara_manifest_err parse_header(const char *s, size_t n)
{
	static const char prefix[] = "ara-manifest ";
	const size_t plen = sizeof(prefix) - 1;

	if (n == strlen(ARA_MANIFEST_HEADER) &&
	    memcmp(s, ARA_MANIFEST_HEADER, n) == 0)
		return ARA_MANIFEST_OK;
	if (n <= plen || memcmp(s, prefix, plen) != 0)
		return ARA_MANIFEST_E_HEADER;
	for (size_t i = plen; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return ARA_MANIFEST_E_HEADER;
	return ARA_MANIFEST_E_VERSION;
}

/* "<role> <sha256> <path>" for the role expected next. */
static enum ara_manifest_err parse_object(const char *s, size_t n,
					  enum ara_role expected,
					  struct ara_manifest_object *obj)
{
	const char *sp1 = memchr(s, ' ', n);
	const char *digest, *sp2, *path;
	size_t role_len, path_len;
	bool known = false;

	if (sp1 == NULL || sp1 == s)
		return ARA_MANIFEST_E_FIELDS;
	role_len = (size_t)(sp1 - s);
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		known |= role_len == strlen(role_names[r]) &&
			 memcmp(s, role_names[r], role_len) == 0;
	if (!known)
		return ARA_MANIFEST_E_ROLE;
	if (role_len != strlen(role_names[expected]) ||
	    memcmp(s, role_names[expected], role_len) != 0)
		return ARA_MANIFEST_E_ORDER;

	digest = sp1 + 1;
	sp2 = memchr(digest, ' ', n - role_len - 1);
	if (sp2 == NULL || sp2 == digest)
		return ARA_MANIFEST_E_FIELDS;
	if (ara_hex_decode_lower(digest, (size_t)(sp2 - digest), obj->sha256,
			   ARA_SHA256_BYTES) != 0)
		return ARA_MANIFEST_E_DIGEST;

	path = sp2 + 1;
	path_len = (size_t)(s + n - path);
	if (!path_ok(path, path_len))
		return ARA_MANIFEST_E_PATH;
	memcpy(obj->path, path, path_len);
	obj->path[path_len] = '\0';
	return ARA_MANIFEST_OK;
}

/* "provisioner <key>": an uncompressed point, whose first byte is 4. */
static enum ara_manifest_err parse_provisioner(const char *s, size_t n, struct ara_manifest *m)
{
	static const char prefix[] = "provisioner ";
	const size_t plen = sizeof(prefix) - 1;

	if (n < plen || memcmp(s, prefix, plen) != 0)
		return ARA_MANIFEST_E_EXTRA;
	if (ara_hex_decode_lower(s + plen, n - plen, m->provisioner, ARA_MANIFEST_KEY_BYTES) != 0 ||
	    m->provisioner[0] != 4)
		return ARA_MANIFEST_E_KEY;
	return ARA_MANIFEST_OK;
}

static enum ara_manifest_err parse_lines(const char *buf, size_t len,
					 struct ara_manifest *m,
					 unsigned int *line)
{
	unsigned int next = ARA_ROLE_LIBARA;
	bool key_line = false;
	size_t pos = 0;

	*line = 0;
	while (pos < len) {
		/* Found: the caller made sure the buffer ends in '\n'. */
		const char *eol = memchr(buf + pos, '\n', len - pos);
		const char *s = buf + pos;
		size_t n = (size_t)(eol - s);
		enum ara_manifest_err err;

		++*line;
		pos += n + 1;
		if (has_control_byte(s, n))
			return ARA_MANIFEST_E_CHAR;
		if (*line == 1) {
			err = parse_header(s, n);
		} else if (next == ARA_ROLES && !key_line) {
			err = parse_provisioner(s, n, m);
			key_line = true;
		} else if (next == ARA_ROLES) {
			err = ARA_MANIFEST_E_EXTRA;
		} else {
			err = parse_object(s, n, (enum ara_role)next,
					   &m->obj[next]);
			next++;
		}
		if (err != ARA_MANIFEST_OK)
			return err;
	}
	if (next != ARA_ROLES) {
		++*line; /* where the missing line should be */
		return ARA_MANIFEST_E_MISSING;
	}
	return ARA_MANIFEST_OK;
}

enum ara_manifest_err ara_manifest_parse(const char *buf, size_t len,
					 struct ara_manifest *m,
					 unsigned int *line)
{
	enum ara_manifest_err err;

	memset(m, 0, sizeof(*m));
	*line = 0;
	if (len == 0 || len > ARA_MANIFEST_MAX)
		return ARA_MANIFEST_E_SIZE;
	if (buf[len - 1] != '\n') {
		for (size_t i = 0; i < len; i++)
			*line += buf[i] == '\n';
		++*line;
		return ARA_MANIFEST_E_NEWLINE;
	}
	err = parse_lines(buf, len, m, line);
	if (err == ARA_MANIFEST_OK)
		*line = 0;
	else
		memset(m, 0, sizeof(*m));
	return err;
}

enum ara_manifest_err ara_manifest_format(const struct ara_manifest *m,
					  char *buf, size_t cap, size_t *len)
{
	size_t used;
	int n;

	n = snprintf(buf, cap, "%s\n", ARA_MANIFEST_HEADER);
	if (n < 0 || (size_t)n >= cap)
		return ARA_MANIFEST_E_SIZE;
	used = (size_t)n;
	for (unsigned int r = 0; r < ARA_ROLES; r++) {
		const struct ara_manifest_object *obj = &m->obj[r];
		size_t path_len = strnlen(obj->path, sizeof(obj->path));
		char hex[HEX_LEN + 1];

		if (!path_ok(obj->path, path_len) ||
		    has_control_byte(obj->path, path_len))
			return ARA_MANIFEST_E_PATH;
		ara_hex_encode(obj->sha256, ARA_SHA256_BYTES, hex);
		n = snprintf(buf + used, cap - used, "%s %s %s\n",
			     role_names[r], hex, obj->path);
		if (n < 0 || (size_t)n >= cap - used)
			return ARA_MANIFEST_E_SIZE;
		used += (size_t)n;
	}
	if (m->provisioner[0]) {
		char hex[2 * ARA_MANIFEST_KEY_BYTES + 1];

		ara_hex_encode(m->provisioner, ARA_MANIFEST_KEY_BYTES, hex);
		n = snprintf(buf + used, cap - used, "provisioner %s\n", hex);
		if (n < 0 || (size_t)n >= cap - used)
			return ARA_MANIFEST_E_SIZE;
		used += (size_t)n;
	}
	*len = used;
	return ARA_MANIFEST_OK;
}
