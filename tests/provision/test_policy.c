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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy.h"

#define D32 "0101010101010101010101010101010101010101010101010101010101010101"
#define REQUIRED "max-age 60\nloader " D32 "\nlibara " D32 "\nentry " D32 "\napp " D32 "\n"

static char dir[] = "/tmp/ara-policy-XXXXXX";
static struct ara_policy policy;

/* name in the test's folder: len bytes of text (which may hold a NUL). */
static void write_bytes(const char *name, const char *text, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void write_file(const char *name, const char *text)
{
	write_bytes(name, text, strlen(text));
}

/* Loads the policy file written last; 0 or -1, with the reason in why. */
static int load_written(char *why, size_t cap)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/policy", dir);
	return ara_policy_load(path, &policy, why, cap);
}

/* Loads a policy of this text; 0 or -1, with the reason in why. */
static int load(const char *text, char *why, size_t cap)
{
	write_file("policy", text);
	return load_written(why, cap);
}

/* The policy file written last is refused, with phrase in the reason. */
static void refused_written(const char *phrase)
{
	char why[512] = "";

	assert_int_equal(load_written(why, sizeof(why)), -1);
	if (!strstr(why, phrase))
		fail_msg("reason '%s' lacks '%s'", why, phrase);
	assert_int_equal(policy.n_secrets, 0);
}

static void refused(const char *text, const char *phrase)
{
	write_file("policy", text);
	refused_written(phrase);
}

/* The same text in memory (ara_policy_parse): len bytes, a NUL after them. */
static void refused_in_memory(const char *text, size_t len, const char *phrase)
{
	char *copy = malloc(len + 1), why[512] = "";

	assert_non_null(copy);
	memcpy(copy, text, len);
	copy[len] = '\0';
	assert_int_equal(ara_policy_parse("mem.policy", copy, len, &policy, why, sizeof(why)), -1);
	if (!strstr(why, phrase))
		fail_msg("reason '%s' lacks '%s'", why, phrase);
	assert_int_equal(policy.n_secrets, 0);
	free(copy);
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
	refused("backend dev-insecure\n" REQUIRED "manifest 01\n", ":7: manifest needs a SHA-256 digest");
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

/* A policy with comments, blank lines and tabs loads; line numbers count every line. */
static void layout(void **state)
{
	char why[512] = "";

	(void)state;
	assert_int_equal(load("# a comment\n\n  \t# an indented one\n\tbackend \t dev-insecure  \n"
			      "\n" REQUIRED, why, sizeof(why)), 0);
	refused("# one\n\n\nbackend sgx\n", "policy:4: backend is tpm or dev-insecure");
	/* No newline at the end: the last line counts all the same. */
	refused("backend dev-insecure\n" REQUIRED "colour blue", ":7: unknown directive 'colour'");
}

/*
 * What the grammar does not allow is refused whole, wherever it is: a
 * byte no line may hold (what follows a NUL must not be ignored), a
 * directive given twice (the earlier must not be silently replaced), an
 * unknown name, a line too long or over its fields, a file too large.
 */
static void refusals(void **state)
{
	static const char nul_policy[] = "backend dev-insecure\n" REQUIRED "#\0app 02\n";
	static const char nul_secrets[] = "a 00\n\0b 01\n";
	static const char *const once[] = { "max-age 86400", "loader " D32, "libara " D32,
					     "entry " D32, "app " D32, "manifest " D32 };
	char text[8192], *big;
	size_t n;

	(void)state;
	write_bytes("policy", nul_policy, sizeof(nul_policy) - 1);
	refused_written("policy:7: a NUL byte: the file is refused whole");
	refused_in_memory(nul_policy, sizeof(nul_policy) - 1, "mem.policy:7: a NUL byte");
	refused("backend dev-insecure\r\n" REQUIRED, ":1: a carriage return");
	refused("backend dev-insecure\n" REQUIRED "# bell \a\n", ":7: a control byte (0x07)");
	refused("backend dev-insecure\n\x7f\n" REQUIRED, ":2: a control byte (0x7f)");
	/*
	 * Every directive at most once (backend once per value), but a digest
	 * role's lines: an allowlist, each digest once.
	 */
	for (size_t i = 0; i < sizeof(once) / sizeof(once[0]); i++) {
		snprintf(text, sizeof(text), "backend dev-insecure\n" REQUIRED "%s\n%s\n", once[i],
			 once[i]);
		refused(text, i == 0 ? "is given twice (first on line " : "is listed twice");
	}
	refused("backend dev-insecure\n" REQUIRED "max-age 86400\n",
		":7: max-age is given twice (first on line 2)");
	refused("backend dev-insecure\nbackend dev-insecure\n" REQUIRED,
		":2: backend dev-insecure is given twice (first on line 1)");
	write_file("secrets", "k 00\n");
	refused("backend dev-insecure\n" REQUIRED "secrets secrets\nsecrets secrets\n",
		":8: secrets is given twice (first on line 7)");
	write_file("notpem", "not a key\n");
	refused("backend tpm\n" REQUIRED "tpm-ak notpem\ntpm-ak notpem\n", "tpm-ak");
	refused("backend dev-insecure\n" REQUIRED "Max-Age 60\n", ":7: unknown directive 'Max-Age'");
	refused("backend dev-insecure\n" REQUIRED "app\n", ":7: expected 'DIRECTIVE VALUE'");
	/* A line over ARA_TEXT_LINE_MAX bytes, even a comment. */
	n = (size_t)snprintf(text, sizeof(text), "backend dev-insecure\n#");
	memset(text + n, 'x', 4096);
	snprintf(text + n + 4096, sizeof(text) - n - 4096, "\n" REQUIRED);
	refused(text, ":2: line longer than 4096 bytes");
	/* The secrets file: the same layer. */
	write_bytes("nul-secrets", nul_secrets, sizeof(nul_secrets) - 1);
	refused("backend dev-insecure\n" REQUIRED "secrets nul-secrets\n",
		"nul-secrets:2: a NUL byte");
	write_file("tab-secrets", "a 00\n\tb\t01 02\n");
	refused("backend dev-insecure\n" REQUIRED "secrets tab-secrets\n",
		"tab-secrets:2: expected 'NAME HEX'");
	/* A secrets file that others may read or write. */
	write_file("open-secrets", "a 00\n");
	snprintf(text, sizeof(text), "%s/open-secrets", dir);
	assert_int_equal(chmod(text, 0640), 0);
	refused("backend dev-insecure\n" REQUIRED "secrets open-secrets\n",
		"open-secrets may be read or written by others (mode 0640)");
	assert_int_equal(chmod(text, 0602), 0);
	refused("backend dev-insecure\n" REQUIRED "secrets open-secrets\n", "(mode 0602)");
	/* Over the bound: refused from its size. */
	big = malloc(ARA_POLICY_FILE_MAX + 1);
	assert_non_null(big);
	memset(big, '\n', ARA_POLICY_FILE_MAX + 1);
	write_bytes("policy", big, ARA_POLICY_FILE_MAX + 1);
	refused_written("policy:0: " );
	refused_written("is over 1048576 bytes");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(good), cmocka_unit_test(mistakes),
					    cmocka_unit_test(layout), cmocka_unit_test(refusals) };
	char cmd[64];
	int r;

	umask(077); /* secrets files: only their owner may read them */
	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return r;
}
