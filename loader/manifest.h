/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The manifest: which libara.so, entry object and App ara-loader may run,
 * each identified by its SHA-256. ara-manifest writes it at build time and
 * ara-loader parses it strictly (loader/README.md has the rationale):
 *
 *	ara-manifest 1
 *	libara <sha256> <path>
 *	entry <sha256> <path>
 *	app <sha256> <path>
 *	provisioner <key>
 *
 * <sha256> is 64 lowercase hex digits; <path> runs to the end of the line
 * and, when relative, is relative to the manifest's directory. Fields are
 * separated by exactly one space, every line ends in '\n', and the three
 * object lines come in this order, one each: a manifest has one spelling,
 * so its digest (which the boot block carries) names its content. The
 * provisioner line is optional: <key> is the provisioner's P-256 public key,
 * uncompressed (130 lowercase hex digits, starting "04"); ARA then opens
 * only a DELIVER signed with that key (docs/provisioning.md).
 */
#ifndef ARA_LOADER_MANIFEST_H
#define ARA_LOADER_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "ara/boot.h"

#define ARA_MANIFEST_HEADER "ara-manifest 1"
/* A valid manifest is at most 12,658 bytes; anything longer is refused
 * before it is parsed. */
#define ARA_MANIFEST_MAX 16384u
/* Bytes in a path, without the NUL: PATH_MAX less one. */
#define ARA_MANIFEST_PATH_MAX 4095u

enum ara_role {
	ARA_ROLE_LIBARA = 0,
	ARA_ROLE_ENTRY = 1,
	ARA_ROLE_APP = 2,
};
#define ARA_ROLES 3u
#define ARA_MANIFEST_KEY_BYTES 65u /* an uncompressed P-256 point */

struct ara_manifest_object {
	uint8_t sha256[ARA_SHA256_BYTES];
	char path[ARA_MANIFEST_PATH_MAX + 1];
};

struct ara_manifest {
	struct ara_manifest_object obj[ARA_ROLES]; /* indexed by enum ara_role */
	uint8_t provisioner[ARA_MANIFEST_KEY_BYTES]; /* the pinned key; all zero: none */
};

/* Values are stable; ara_manifest_strerror() describes each. */
enum ara_manifest_err {
	ARA_MANIFEST_OK = 0,
	ARA_MANIFEST_E_SIZE = 1,    /* empty, or larger than ARA_MANIFEST_MAX */
	ARA_MANIFEST_E_NEWLINE = 2, /* the last line has no final newline */
	ARA_MANIFEST_E_CHAR = 3,    /* a NUL, tab, CR or other control byte */
	ARA_MANIFEST_E_HEADER = 4,  /* first line is not "ara-manifest <n>" */
	ARA_MANIFEST_E_VERSION = 5, /* "ara-manifest <n>" with n other than 1 */
	ARA_MANIFEST_E_FIELDS = 6,  /* not "<role> <sha256> <path>" */
	ARA_MANIFEST_E_ROLE = 7,    /* a role other than libara, entry, app */
	ARA_MANIFEST_E_ORDER = 8,   /* a role repeated or out of order */
	ARA_MANIFEST_E_DIGEST = 9,  /* not 64 lowercase hex digits */
	ARA_MANIFEST_E_PATH = 10,   /* empty, too long, or space at either end */
	ARA_MANIFEST_E_MISSING = 11, /* ends before the app line */
	ARA_MANIFEST_E_EXTRA = 12,  /* a line after the app line (other than provisioner) */
	ARA_MANIFEST_E_KEY = 13,    /* "provisioner" without an uncompressed point's hex */
};

/*
 * Parses the len bytes at buf into *m. Returns ARA_MANIFEST_OK (*line = 0),
 * or the first fault found, with *line set to its 1-based line number (0 for
 * a fault of the whole file: E_SIZE); on any fault *m is zeroed.
 */
enum ara_manifest_err ara_manifest_parse(const char *buf, size_t len,
					 struct ara_manifest *m,
					 unsigned int *line);

/*
 * Writes *m in the one spelling ara_manifest_parse() accepts into buf (cap
 * bytes; ARA_MANIFEST_MAX always suffices) and its length into *len.
 * Returns ARA_MANIFEST_OK, or E_PATH if a path could not be parsed back.
 */
enum ara_manifest_err ara_manifest_format(const struct ara_manifest *m,
					  char *buf, size_t cap, size_t *len);

/* "libara", "entry" or "app"; "?" for a value outside enum ara_role. */
const char *ara_role_name(enum ara_role role);

/* A one-line description; never NULL. */
const char *ara_manifest_strerror(enum ara_manifest_err err);

#endif
