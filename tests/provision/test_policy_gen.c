/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-policy (services/provision/server/ara_policy.c), run as a program:
 * the policy it writes from a manifest loads with ara-provision's parser
 * (policy.c) and pins what it must: the loader's digest, computed here
 * from the file, the manifest's three digests, the manifest's own digest,
 * the backends, the age and the files it names, relative to the policy.
 * A failed run leaves an existing policy as it was. The loader is a TEST
 * DOUBLE: an arm64 ELF header with one empty program header and filler.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <mbedtls/sha256.h>

#include "ara/hex.h"
#include "policy.h"

#define D1 "1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "2222222222222222222222222222222222222222222222222222222222222222"
#define D3 "3333333333333333333333333333333333333333333333333333333333333333"
#define MANIFEST "ara-manifest 1\nlibara " D1 " libara.so\nentry " D2 " libara-entry.so\napp " D3 " app\n"
#define SECRET_HEX "00112233445566778899aabbccddeeff"

static char dir[] = "/tmp/ara-policy-gen-XXXXXX";
static struct ara_policy policy;

static void path_of(const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s/%s", dir, name);
}

static void write_file(const char *name, const void *b, size_t n)
{
	char path[256];
	FILE *f;

	path_of(name, path, sizeof(path));
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* ara-policy with these arguments (paths in dir); its exit status. */
static int run(const char *args)
{
	char cmd[2048];
	int status;

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s", dir, ARA_POLICY, args);
	status = system(cmd);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void digest(const char *hex, uint8_t out[32])
{
	assert_int_equal(ara_hex_decode_lower(hex, 64, out, 32), 0);
}

static void test_generated_policy_loads(void **state)
{
	uint8_t loader[4096] = { 0 }, want[32];
	Elf64_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
				       EV_CURRENT },
			  .e_type = ET_DYN, .e_machine = EM_AARCH64, .e_version = EV_CURRENT,
			  .e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
			  .e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1 };
	char path[256], why[512] = "";

	(void)state;
	memcpy(loader, &eh, sizeof(eh));
	for (size_t i = sizeof(eh) + sizeof(Elf64_Phdr); i < sizeof(loader); i++)
		loader[i] = (uint8_t)(i * 7);
	write_file("ara-loader", loader, sizeof(loader));
	write_file("app.ara-manifest", MANIFEST, strlen(MANIFEST));
	write_file("secrets", "media-key " SECRET_HEX "\n", strlen("media-key " SECRET_HEX "\n"));
	path_of("sub", path, sizeof(path));
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(run("--manifest app.ara-manifest --loader ara-loader --backend dev-insecure "
			     "--backend tpm --tpm-ak " AK_PEM " --max-age 77 --secrets secrets "
			     "-o sub/policy"),
			 0);
	/* The secrets and the key are named relative to sub/: the policy loads from there. */
	path_of("sub/policy", path, sizeof(path));
	assert_int_equal(ara_policy_load(path, &policy, why, sizeof(why)), 0);
	assert_int_equal(policy.backends,
			 1u << ARA_EVIDENCE_DEV_INSECURE | 1u << ARA_EVIDENCE_TPM);
	assert_int_equal(policy.max_age, 77);
	assert_int_equal(mbedtls_sha256(loader, sizeof(loader), want, 0), 0);
	assert_memory_equal(policy.expect.loader, want, 32);
	assert_memory_equal(policy.tpm.loader_sha256, want, 32);
	digest(D1, want);
	assert_memory_equal(policy.expect.libara, want, 32);
	digest(D2, want);
	assert_memory_equal(policy.expect.entry, want, 32);
	digest(D3, want);
	assert_memory_equal(policy.expect.app, want, 32);
	assert_int_equal(policy.expect_manifest, 1);
	assert_int_equal(mbedtls_sha256((const uint8_t *)MANIFEST, strlen(MANIFEST), want, 0), 0);
	assert_memory_equal(policy.expect.manifest, want, 32);
	assert_int_equal(policy.n_secrets, 1);
	assert_string_equal(policy.secrets[0].name, "media-key");
	assert_int_equal(policy.secrets[0].len, 16);
	ara_policy_wipe(&policy);

	/* A manifest that does not parse: exit 2, the policy as it was. */
	write_file("bad.ara-manifest", "ara-manifest 1\nlibara 11 x\n", 27);
	assert_int_equal(run("--manifest bad.ara-manifest --loader ara-loader --backend dev-insecure "
			     "-o sub/policy"),
			 2);
	assert_int_equal(ara_policy_load(path, &policy, why, sizeof(why)), 0);
	assert_int_equal(policy.max_age, 77);
	ara_policy_wipe(&policy);
}

static int setup(void **state)
{
	(void)state;
	umask(077); /* the secrets file: only its owner may read it */
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_policy_loads),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
