/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-verify: the RTM's verifier (docs/rtm.md, "Verification"; its command
 * line in docs/man/ara-verify.1).
 *
 * The signer's key is given (--instance-key), or learnt from the run's own
 * attestation: the instance's ATTEST for a CHALLENGE of the nonce, checked
 * under an ara-provision policy (--attest, --policy), which also gives the
 * measured App's digest. --app names the App's file: the module ara-loader
 * mapped from its sealed copy; the App's checks (its digest, full RELRO)
 * apply to that module however its file is found (modules.h).
 * Without --interim the run must end with a final report (docs/rtm.md).
 *
 * Exit 0: the run verifies; 1: rejected (the one line, or --json's object,
 * says at what); 2: bad usage, or an input of the verifier's own (policy,
 * App or module file) or any file that cannot be read or parsed: no
 * decision, nothing on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara_cli.h"
#include "attested_key.h"
#include "bounds.h"
#include "ear_out.h"
#include "elf_image.h"
#include "ara/hex.h"
#include "p256.h"
#include "verdict_out.h"
#include "verify.h"
#include "wire.h"

#define MODULES_MAX 64

static const char usage_text[] =
	"usage: ara-verify (--instance-key HEX65 | --attest FILE --policy FILE) --nonce HEX32\n"
	"                  (--report FILE | --checkpoints FILE) [--segments FILE]\n"
	"                  [--root DIR] [--module PATH=FILE ...] [--app FILE] [--app-sha256 HEX32]\n"
	"                  [--interim] [--json | --ear KEYFILE]\n"
	"Verify the evidence of an RTM-instrumented run: the signer, the nonce, the\n"
	"chain over the segments and every logged transfer against the binaries.\n"
	"\n"
	"  --instance-key HEX65  the instance key that signed the evidence\n"
	"  --attest FILE         the run's ATTEST, checked under --policy FILE\n"
	"                        (an ara-provision policy): it gives the key and the App\n"
	"  --nonce HEX32         the verifier's nonce (or the batch nonce)\n"
	"  --report FILE         the run's report\n"
	"  --checkpoints FILE    batch mode: the checkpoints, concatenated\n"
	"  --segments FILE       the exported segments, concatenated in order\n"
	"  --root DIR            read module paths under DIR\n"
	"  --module PATH=FILE    read the module PATH from FILE\n"
	"  --app FILE            the App's file (its digest must be the measured one)\n"
	"  --app-sha256 HEX32    the App's digest, with --instance-key\n"
	"  --interim             accept evidence without a final report\n"
	"  --json                print the verdict as one JSON object\n"
	"  --ear KEYFILE         print the verdict as an EAR, a JWT signed (ES256) with\n"
	"                        the P-256 key in KEYFILE (docs/ear.md)\n"
	"  -h, --help            print this help and exit 0\n"
	"  -V, --version         print the version and exit 0\n"
	"\n"
	"Exit status: 0 verified, 1 rejected, 2 usage error or an input that cannot\n"
	"be read or parsed (no decision).\n";

/* 2 also when an input cannot be read or parsed: no decision is made. */
enum ara_verify_exit {
	EXIT_VERIFIED = ARA_CLI_OK,
	EXIT_REJECTED = ARA_CLI_REFUSED,
	EXIT_NO_DECISION = ARA_CLI_USAGE,
	EXIT_UNREADABLE = ARA_CLI_IO, /* no decision either: a file named on the command line */
};

struct options {
	uint8_t key[ARA_RTM_PUB_BYTES], nonce[ARA_RTM_NONCE_BYTES], app[ARA_RTM_HASH_BYTES];
	int have_key, have_nonce, have_app_sha256, interim, json, attested;
	const char *ear, *attest, *policy, *app_file, *report, *segments, *checkpoints, *root;
	struct ara_rtm_module_override overrides[MODULES_MAX];
	size_t noverrides;
};

/* True if --module already named path. */
static int module_given(const struct options *o, const char *path)
{
	for (size_t i = 0; i < o->noverrides; i++)
		if (strcmp(o->overrides[i].path, path) == 0)
			return 1;
	return 0;
}

static void add_module(struct options *o, char *arg)
{
	/* The last '=': a report's path may hold one, rarely a file name given here. */
	char *eq = strrchr(arg, '=');

	if (eq == NULL || eq == arg || eq[1] == '\0')
		ara_usage_error("--module %s: not PATH=FILE", arg);
	if (o->noverrides == MODULES_MAX)
		ara_usage_error("--module %s: more than %d modules", arg, MODULES_MAX);
	*eq = '\0';
	if (module_given(o, arg))
		ara_usage_error("--module %s: given twice", arg);
	o->overrides[o->noverrides++] =
		(struct ara_rtm_module_override){ .path = arg, .file = eq + 1 };
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_KEY = 256, O_NONCE, O_APP_SHA, O_ATTEST, O_POLICY, O_APP, O_REPORT, O_SEGMENTS,
	       O_CHECKPOINTS, O_ROOT, O_MODULE, O_INTERIM, O_JSON, O_EAR };
	static const struct option longopts[] = {
		{ "instance-key", required_argument, NULL, O_KEY },
		{ "nonce", required_argument, NULL, O_NONCE },
		{ "app-sha256", required_argument, NULL, O_APP_SHA },
		{ "attest", required_argument, NULL, O_ATTEST },
		{ "policy", required_argument, NULL, O_POLICY },
		{ "app", required_argument, NULL, O_APP },
		{ "report", required_argument, NULL, O_REPORT },
		{ "segments", required_argument, NULL, O_SEGMENTS },
		{ "checkpoints", required_argument, NULL, O_CHECKPOINTS },
		{ "root", required_argument, NULL, O_ROOT },
		{ "module", required_argument, NULL, O_MODULE },
		{ "interim", no_argument, NULL, O_INTERIM },
		{ "json", no_argument, NULL, O_JSON },
		{ "ear", required_argument, NULL, O_EAR },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seen = 0;
	int c, at = 0;

	while ((c = getopt_long(argc, argv, ":hV", longopts, &at)) != -1) {
		/* Each option once (--module once per path): a second must not replace the first. */
		if (c >= O_KEY && c <= O_EAR && c != O_MODULE) {
			if (seen & 1ul << (c - O_KEY))
				ara_usage_error("--%s is given twice", longopts[at].name);
			seen |= 1ul << (c - O_KEY);
		}
		switch (c) {
		case O_KEY:
			if (ara_hex_decode(optarg, o->key, sizeof(o->key)) != sizeof(o->key) ||
			    ara_p256_check_public(o->key))
				ara_usage_error("--instance-key %s: not a P-256 point in 65-byte "
						"uncompressed hex",
						optarg);
			o->have_key = 1;
			break;
		case O_NONCE:
			if (ara_hex_decode(optarg, o->nonce, sizeof(o->nonce)) != sizeof(o->nonce))
				ara_usage_error("--nonce %s: not 32 bytes of hex", optarg);
			o->have_nonce = 1;
			break;
		case O_APP_SHA:
			if (ara_hex_decode(optarg, o->app, sizeof(o->app)) != sizeof(o->app))
				ara_usage_error("--app-sha256 %s: not 32 bytes of hex", optarg);
			o->have_app_sha256 = 1;
			break;
		case O_ATTEST: o->attest = optarg; break;
		case O_POLICY: o->policy = optarg; break;
		case O_APP: o->app_file = optarg; break;
		case O_REPORT: o->report = optarg; break;
		case O_SEGMENTS: o->segments = optarg; break;
		case O_CHECKPOINTS: o->checkpoints = optarg; break;
		case O_ROOT: o->root = optarg; break;
		case O_MODULE: add_module(o, optarg); break;
		case O_INTERIM: o->interim = 1; break;
		case O_JSON: o->json = 1; break;
		case O_EAR: o->ear = optarg; break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind < argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->have_key + !!o->attest != 1 || !o->attest != !o->policy || !o->have_nonce ||
	    (o->report == NULL && o->checkpoints == NULL))
		ara_usage_error("--instance-key or --attest with --policy, --nonce, and --report or "
				"--checkpoints are needed");
	if (o->json && o->ear)
		ara_usage_error("--json and --ear: one form of the verdict");
	if (o->attest && o->have_app_sha256)
		ara_usage_error("--app-sha256 and --attest: the attestation names the App");
	if (o->app_file && module_given(o, ARA_RTM_APP_MODULE_PATH))
		ara_usage_error("--app %s and --module '" ARA_RTM_APP_MODULE_PATH "=...': one App file",
				o->app_file);
	if (!o->attest && !o->app_file && !o->have_app_sha256 &&
	    !module_given(o, ARA_RTM_APP_MODULE_PATH))
		ara_usage_error("--app or --app-sha256 is needed with --instance-key: which App ran?");
	if (o->app_file && o->noverrides == MODULES_MAX)
		ara_usage_error("--app %s: more than %d modules", o->app_file, MODULES_MAX);
}

/*
 * A file of at most max bytes into *buf (NULL path: none); 0, or
 * EXIT_UNREADABLE or EXIT_NO_DECISION (over max) with the reason said.
 */
static int load(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	if (path != NULL && ara_read_whole(path, max, buf, len)) {
		if (errno == EFBIG) {
			ara_msg("%s: over %zu bytes, the most ara-verify reads there", path, max);
			return EXIT_NO_DECISION;
		}
		ara_file_error(path, "cannot read");
		return EXIT_UNREADABLE;
	}
	return 0;
}

/*
 * An App file given on the command line (--app, or --module for the App's
 * path) is checked before the evidence, whether or not an entry reaches
 * it: the module cache applies the App's checks (modules.h). 0,
 * EXIT_REJECTED with why, or EXIT_UNREADABLE or EXIT_NO_DECISION said on
 * stderr.
 */
static int check_given_app(struct ara_rtm_modcache *mc, char *why, size_t cap)
{
	const char *reason;
	enum ara_rtm_module_fail fail;

	if (ara_rtm_modcache_get(mc, (const uint8_t *)ARA_RTM_APP_MODULE_PATH,
				 (uint32_t)strlen(ARA_RTM_APP_MODULE_PATH), &reason, &fail))
		return 0;
	if (fail == ARA_RTM_MODULE_REJECTED) {
		snprintf(why, cap, "REJECTED: %s", reason);
		return EXIT_REJECTED;
	}
	ara_msg("%s", reason);
	return fail == ARA_RTM_MODULE_UNREADABLE ? EXIT_UNREADABLE : EXIT_NO_DECISION;
}

/*
 * The decision: EXIT_VERIFIED or EXIT_REJECTED with why saying "OK: ..." or
 * "REJECTED: ..." (as verify.h's message), or EXIT_NO_DECISION, said on stderr.
 */
static int decide(struct options *o, struct ara_rtm_modcache *mc,
		  struct ara_rtm_verify_figures *fig, char *why, size_t cap)
{
	struct ara_rtm_verify_in in = { .interim = o->interim };
	uint8_t *attest = NULL, *report = NULL, *segments = NULL, *checkpoints = NULL;
	size_t attest_len = 0;
	int rc;

	if (o->attest) {
		struct ara_attested_key k;
		char reason[512];

		if ((rc = load(o->attest, ARA_WIRE_HEADER + ARA_WIRE_BODY_MAX, &attest,
			       &attest_len)) != 0)
			goto out;
		switch (ara_verify_attested_key(o->policy, o->nonce, attest, attest_len, &k, reason,
						sizeof(reason))) {
		case ARA_ATTESTED_KEY_OK: break;
		case ARA_ATTESTED_KEY_REFUSED:
			snprintf(why, cap, "REJECTED: %s", reason);
			rc = EXIT_REJECTED;
			goto out;
		case ARA_ATTESTED_KEY_UNREADABLE:
			ara_msg("%s", reason);
			rc = EXIT_UNREADABLE;
			goto out;
		default:
			ara_msg("%s", reason);
			rc = EXIT_NO_DECISION;
			goto out;
		}
		memcpy(o->key, k.instance_pub, sizeof(o->key));
		memcpy(o->app, k.app_sha256, sizeof(o->app));
		o->have_app_sha256 = o->have_key = o->attested = 1;
	}
	if (o->app_file)
		o->overrides[o->noverrides++] = (struct ara_rtm_module_override){
			.path = ARA_RTM_APP_MODULE_PATH, .file = o->app_file };
	mc->overrides = o->overrides;
	mc->noverrides = o->noverrides;
	mc->root = o->root;
	memcpy(mc->app_sha256, o->app, sizeof(mc->app_sha256));
	mc->app_known = o->have_app_sha256;
	if (module_given(o, ARA_RTM_APP_MODULE_PATH) && (rc = check_given_app(mc, why, cap)) != 0)
		goto out;
	/* Without --app-sha256 or --attest, the App file given set the digest. */
	in.key = o->key;
	in.nonce = o->nonce;
	in.app_sha256 = mc->app_sha256;
	if ((rc = load(o->report, ARA_RTM_REPORT_FILE_MAX, &report, &in.report_len)) != 0 ||
	    (rc = load(o->segments, ARA_RTM_SEGMENTS_FILE_MAX, &segments, &in.segments_len)) != 0 ||
	    (rc = load(o->checkpoints, ARA_RTM_CHECKPOINTS_FILE_MAX, &checkpoints,
		       &in.checkpoints_len)) != 0)
		goto out;
	in.report = report;
	in.segments = segments;
	in.checkpoints = checkpoints;
	switch (ara_rtm_verify(&in, mc, fig, why, cap)) {
	case ARA_RTM_VERDICT_OK: rc = EXIT_VERIFIED; break;
	case ARA_RTM_VERDICT_REJECTED: rc = EXIT_REJECTED; break;
	default:
		ara_msg("%s", why);
		rc = EXIT_NO_DECISION;
		break;
	}
out:
	free(attest);
	free(report);
	free(segments);
	free(checkpoints);
	return rc;
}

/* The verdict on stdout, in the form asked for: 0, or -1 (said on stderr). */
static int print_verdict(const struct options *o, const struct ara_ear_key *k, int rc,
			 const char *why, const struct ara_rtm_verify_figures *fig)
{
	struct ara_verify_outcome out = {
		.ok = rc == EXIT_VERIFIED,
		.msg = why,
		.fig = fig,
		.nonce = o->nonce,
		.instance_pub = o->have_key ? o->key : NULL,
		.app_sha256 = o->have_app_sha256 ? o->app : NULL,
		.attested = o->attested,
	};

	if (o->ear)
		return ara_verify_ear_print(stdout, k, &out);
	return ara_verdict_print(stdout, o->json, out.ok, why, fig);
}

int main(int argc, char **argv)
{
	static struct options o;
	struct ara_rtm_modcache mc = { 0 };
	struct ara_rtm_verify_figures fig = { 0 };
	struct ara_ear_key k;
	char why[1024];
	int rc;

	ara_cli_init("ara-verify");
	parse_options(argc, argv, &o);
	/* The key before any work: a verdict that cannot be signed is no verdict. */
	if (o.ear && ara_ear_key_load(o.ear, &k, why, sizeof(why)))
		ara_die(EXIT_NO_DECISION, "--ear %s", why);
	rc = decide(&o, &mc, &fig, why, sizeof(why));
	ara_rtm_modcache_free(&mc);
	if (rc != EXIT_NO_DECISION && rc != EXIT_UNREADABLE && print_verdict(&o, &k, rc, why, &fig))
		rc = EXIT_NO_DECISION;
	if (o.ear)
		ara_ear_key_wipe(&k);
	return rc;
}
