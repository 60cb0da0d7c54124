/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provisioner's policy file (services/provision/server/policy.c): a
 * good policy loads with its secrets; every mistake is refused with the
 * file, the line and what is wrong, and leaves no secret behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy.h"

#define D32 "0101010101010101010101010101010101010101010101010101010101010101"
#define REQUIRED "max-age 60\nloader " D32 "\nlibara " D32 "\nentry " D32 "\napp " D32 "\n"

static char dir[] = "/tmp/ara-policy-XXXXXX";
static struct ara_policy policy;

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Loads a policy of this text; 0 or -1, with the reason in why. */
static int load(const char *text, char *why, size_t cap)
{
	char path[256];

	write_file("policy", text);
	snprintf(path, sizeof(path), "%s/policy", dir);
	return ara_policy_load(path, &policy, why, cap);
}

static void refused(const char *text, const char *phrase)
{
	char why[512] = "";

	assert_int_equal(load(text, why, sizeof(why)), -1);
	if (!strstr(why, phrase))
		fail_msg("reason '%s' lacks '%s'", why, phrase);
	assert_int_equal(policy.n_secrets, 0);
}

static void good(void **state)
{
	char why[512] = "";

	(void)state;
	write_file("secrets", "# name value\nmedia-key 00112233\nother ff\n");
	assert_int_equal(load("backend dev-insecure\n" REQUIRED "secrets secrets\n", why,
			      sizeof(why)), 0);
	assert_int_equal(policy.backends, 1u << ARA_EVIDENCE_DEV_INSECURE);
	assert_int_equal(policy.max_age, 60);
	assert_int_equal(policy.n_secrets, 2);
	assert_non_null(ara_policy_secret(&policy, (const uint8_t *)"media-key", 9));
	assert_int_equal(ara_policy_secret(&policy, (const uint8_t *)"media-key", 9)->len, 4);
	assert_null(ara_policy_secret(&policy, (const uint8_t *)"media", 5));
	assert_int_equal(policy.tpm.loader_sha256[0], 1);
	ara_policy_wipe(&policy);
}

static void mistakes(void **state)
{
	(void)state;
	refused(REQUIRED, "no 'backend' line");
	refused("backend dev-insecure\nmax-age 60\n", "are all required");
	refused("backend tpm\n" REQUIRED, "needs 'tpm-ak'");
	refused("backend sgx\n" REQUIRED, ":1: backend is tpm or dev-insecure");
	refused("backend dev-insecure\n" REQUIRED "colour blue\n", ":7: unknown directive 'colour'");
	refused("backend dev-insecure\n" REQUIRED "app 01\n", ":7: app needs a SHA-256 digest");
	refused("backend dev-insecure\nmax-age 0\n", ":2: max-age is 1..86400");
	refused("backend dev-insecure\nmax-age -5\n", ":2: max-age");
	refused("backend dev-insecure extra\n", ":1: expected 'DIRECTIVE VALUE'");
	refused("backend dev-insecure\n" REQUIRED "secrets nonexistent\n", "cannot open");
	write_file("bad-secrets", "good 00\nbad zz\n");
	refused("backend dev-insecure\n" REQUIRED "secrets bad-secrets\n", "bad-secrets:2:");
	write_file("twice", "a 00\na 01\n");
	refused("backend dev-insecure\n" REQUIRED "secrets twice\n", "named twice");
	write_file("badname", "a/b 00\n");
	refused("backend dev-insecure\n" REQUIRED "secrets badname\n", "NAME of [A-Za-z0-9._-]");
	write_file("notpem", "not a key\n");
	refused("backend tpm\n" REQUIRED "tpm-ak notpem\n", "tpm-ak");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(good), cmocka_unit_test(mistakes) };
	char cmd[64];
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return r;
}
