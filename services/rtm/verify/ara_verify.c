/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify: the RTM's verifier (docs/rtm.md, "Verification").
 *
 *   ara-verify (--instance-key HEX65 | --attest FILE --policy FILE)
 *              --nonce HEX32 --report FILE
 *              [--segments FILE] [--checkpoints FILE] [--root DIR]
 *              [--module PATH=FILE ...] [--app FILE] [--app-sha256 HEX]
 *              [--interim]
 *
 * The signer's key is given (--instance-key), or learnt from the run's own
 * attestation: the instance's ATTEST for a CHALLENGE of the nonce, checked
 * under an ara-provision policy (--attest, --policy), which also gives the
 * measured App's digest. --app names the App's file: the module ara-loader
 * mapped from its sealed copy, whose digest must be the measured one.
 * Without --interim the run must end with a final report (docs/rtm.md).
 *
 * Exit 0: the run verifies; 1: rejected (the one line says at what);
 * 2: bad usage or unreadable input (no decision).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/sha256.h>

#include "ara/boot.h"
#include "attested_key.h"
#include "elf_image.h"
#include "file_io.h"
#include "hex.h"
#include "p256.h"
#include "verify.h"

#define MODULES_MAX 64

static const char usage[] =
	"usage: ara-verify (--instance-key HEX65 | --attest FILE --policy FILE) --nonce HEX32\n"
	"                  (--report FILE | --checkpoints FILE)\n"
	"                  [--report FILE] [--segments FILE] [--checkpoints FILE] [--root DIR]\n"
	"                  [--module PATH=FILE ...] [--app FILE] [--app-sha256 HEX32] [--interim]\n";

/* How the App's sealed copy appears in /proc/self/maps (loader/sealed_copy.c). */
#define APP_MODULE_PATH "/memfd:" ARA_MEMFD_APP " (deleted)"

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ara-verify: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	return 2;
}

struct input {
	const char *path;
	uint8_t *buf;
	size_t len;
};

static int load(struct input *f, const uint8_t **buf, size_t *len)
{
	if (f->path == NULL)
		return 0;
	if (ara_rtm_read_file(f->path, &f->buf, &f->len)) {
		fprintf(stderr, "ara-verify: cannot read %s: %s\n", f->path, strerror(errno));
		return 2;
	}
	*buf = f->buf;
	*len = f->len;
	return 0;
}

/* True if --module already named path. */
static int module_given(const struct ara_rtm_modcache *mc, const char *path)
{
	for (size_t i = 0; i < mc->noverrides; i++)
		if (strcmp(mc->overrides[i].path, path) == 0)
			return 1;
	return 0;
}

/*
 * --app FILE: its digest must be the measured App's (attested, or given);
 * with neither, it becomes the digest the report must carry. 0, 1 (not the
 * measured App) or 2 (unreadable).
 */
static int check_app_file(const char *path, struct ara_rtm_verify_in *in,
			  uint8_t digest[ARA_RTM_HASH_BYTES])
{
	uint8_t got[ARA_RTM_HASH_BYTES], *buf;
	struct ara_rtm_elf elf;
	size_t len;

	if (ara_rtm_read_file(path, &buf, &len)) {
		fprintf(stderr, "ara-verify: cannot read %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (mbedtls_sha256(buf, len, got, 0)) {
		free(buf);
		fprintf(stderr, "ara-verify: SHA-256 of %s failed\n", path);
		return 2;
	}
	if (in->app_sha256 && memcmp(in->app_sha256, got, sizeof(got)) != 0) {
		free(buf);
		printf("ara-verify: REJECTED: --app %s is not the App the evidence measured\n", path);
		return 1;
	}
	/*
	 * The runtime reaches secure_call through the App's GOT: were it
	 * writable, a data-only write could silence the log without a single
	 * illegal transfer (docs/rtm.md, "Attacks").
	 */
	if (ara_rtm_elf_open(&elf, buf, len) != ARA_RTM_ELF_OK || !ara_rtm_elf_full_relro(&elf)) {
		free(buf);
		printf("ara-verify: REJECTED: --app %s is not linked with full RELRO (-z relro -z now): "
		       "its GOT, through which the RTM runtime calls secure_call, stays writable\n",
		       path);
		return 1;
	}
	free(buf);
	memcpy(digest, got, sizeof(got));
	in->app_sha256 = digest;
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t key[ARA_RTM_PUB_BYTES], nonce[ARA_RTM_NONCE_BYTES], app[ARA_RTM_HASH_BYTES];
	struct ara_rtm_module_override overrides[MODULES_MAX];
	struct ara_rtm_modcache mc = { .overrides = overrides };
	struct ara_rtm_verify_in in = { 0 };
	struct input report = { 0 }, segments = { 0 }, checkpoints = { 0 }, attest = { 0 };
	const char *policy_path = NULL, *app_file = NULL;
	const uint8_t *attest_buf = NULL;
	size_t attest_len = 0;
	int have_key = 0, have_nonce = 0, rc;
	enum ara_rtm_verdict v;
	char msg[1024];

	for (int i = 1; i < argc; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--interim") == 0) {
			in.interim = 1;
			i--; /* no value */
			continue;
		}
		if (val == NULL)
			return fail("%s: needs a value", opt);
		if (strcmp(opt, "--instance-key") == 0) {
			if (ara_hex_decode(val, key, sizeof(key)) != sizeof(key) || ara_p256_check_public(key))
				return fail("--instance-key %s: not a P-256 point in 65-byte "
					    "uncompressed hex", val);
			have_key = 1;
		} else if (strcmp(opt, "--nonce") == 0) {
			if (ara_hex_decode(val, nonce, sizeof(nonce)) != sizeof(nonce))
				return fail("--nonce %s: not 32 bytes of hex", val);
			have_nonce = 1;
		} else if (strcmp(opt, "--app-sha256") == 0) {
			if (ara_hex_decode(val, app, sizeof(app)) != sizeof(app))
				return fail("--app-sha256 %s: not 32 bytes of hex", val);
			in.app_sha256 = app;
		} else if (strcmp(opt, "--attest") == 0) {
			attest.path = val;
		} else if (strcmp(opt, "--policy") == 0) {
			policy_path = val;
		} else if (strcmp(opt, "--app") == 0) {
			app_file = val;
		} else if (strcmp(opt, "--report") == 0) {
			report.path = val;
		} else if (strcmp(opt, "--segments") == 0) {
			segments.path = val;
		} else if (strcmp(opt, "--checkpoints") == 0) {
			checkpoints.path = val;
		} else if (strcmp(opt, "--root") == 0) {
			mc.root = val;
		} else if (strcmp(opt, "--module") == 0) {
			/* The last '=': a report's path may hold one, rarely a file name given here. */
			char *eq = strrchr(val, '=');

			if (eq == NULL || eq == val || eq[1] == '\0')
				return fail("--module %s: not PATH=FILE", val);
			if (mc.noverrides == MODULES_MAX)
				return fail("--module %s: more than %d modules", val, MODULES_MAX);
			*eq = '\0';
			if (module_given(&mc, val))
				return fail("--module %s: given twice", val);
			overrides[mc.noverrides++] = (struct ara_rtm_module_override){
				.path = val, .file = eq + 1 };
		} else {
			return fail("unknown option %s", opt);
		}
	}
	if (!!have_key + !!attest.path != 1 || !attest.path != !policy_path || !have_nonce ||
	    (report.path == NULL && checkpoints.path == NULL))
		return fail("--instance-key or --attest with --policy, --nonce, and --report or "
			    "--checkpoints are needed");
	if (attest.path) {
		struct ara_attested_key k;
		char why[512];

		if ((rc = load(&attest, &attest_buf, &attest_len)) != 0)
			goto out;
		if (in.app_sha256)
			return fail("--app-sha256 and --attest: the attestation names the App");
		if (ara_verify_attested_key(policy_path, nonce, attest_buf, attest_len, &k, why,
					    sizeof(why))) {
			printf("ara-verify: REJECTED: %s\n", why);
			rc = 1;
			goto out;
		}
		memcpy(key, k.instance_pub, sizeof(key));
		memcpy(app, k.app_sha256, sizeof(app));
		in.app_sha256 = app;
	}
	if (!app_file && !in.app_sha256)
		return fail("--app or --app-sha256 is needed with --instance-key: which App ran?");
	if (app_file) {
		if (module_given(&mc, APP_MODULE_PATH))
			return fail("--app %s and --module '" APP_MODULE_PATH "=...': one App file",
				    app_file);
		if ((rc = check_app_file(app_file, &in, app)) != 0)
			goto out;
		if (mc.noverrides == MODULES_MAX)
			return fail("--app %s: more than %d modules", app_file, MODULES_MAX);
		overrides[mc.noverrides++] =
			(struct ara_rtm_module_override){ .path = APP_MODULE_PATH, .file = app_file };
	}
	in.key = key;
	in.nonce = nonce;
	if ((rc = load(&report, &in.report, &in.report_len)) != 0 ||
	    (rc = load(&segments, &in.segments, &in.segments_len)) != 0 ||
	    (rc = load(&checkpoints, &in.checkpoints, &in.checkpoints_len)) != 0)
		goto out;
	v = ara_rtm_verify(&in, &mc, msg, sizeof(msg));
	if (v == ARA_RTM_VERDICT_ERROR)
		fprintf(stderr, "ara-verify: %s\n", msg);
	else
		printf("ara-verify: %s\n", msg);
	rc = (int)v;
out:
	ara_rtm_modcache_free(&mc);
	free(report.buf);
	free(segments.buf);
	free(checkpoints.buf);
	free(attest.buf);
	return rc;
}
