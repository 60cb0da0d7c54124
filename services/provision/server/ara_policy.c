/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-policy: writes an ara-provision policy (docs/provisioning.md, "The
 * policy file") for one App from the manifest ara-manifest wrote for it and
 * the ara-loader the device runs: the digests of the loader, libara, the
 * entry object, the App and the manifest itself, the accepted evidence
 * backends, the evidence's age, and the files it names (the TPM's
 * attestation key, the secrets). Its command line: docs/man/ara-policy.1.
 *
 * A build tool, like ara-manifest: the digests are the manifest's (which
 * ara-loader checks the files against) and the loader's file's. What it
 * writes is first parsed by ara-provision's own parser (policy.c), with the
 * files it names, so that a policy it writes is one ara-provision loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara/hex.h"
#include "ara_cli.h"
#include "digest.h"
#include "elf_fd.h"
#include "manifest.h"
#include "p256_pem.h"
#include "policy.h"
#include "relpath.h"

static const char usage_text[] =
	"usage: ara-policy --manifest FILE --loader FILE --backend NAME... [--max-age SECONDS]\n"
	"                  [--tpm-ak FILE] [--secrets FILE] [--provisioner-key FILE] -o OUT\n"
	"Write the ara-provision policy for the App of an ara-loader manifest: the\n"
	"digests of ara-loader, libara, the entry object, the App and the manifest.\n"
	"\n"
	"  --manifest FILE     the App's manifest (ara-manifest's output)\n"
	"  --loader FILE       the ara-loader the device runs (arm64)\n"
	"  --backend NAME      accepted evidence: tpm or dev-insecure (repeatable)\n"
	"  --max-age SECONDS   how old evidence may be, 1..86400 (default 300)\n"
	"  --tpm-ak FILE       the TPM's enrolled attestation key, PEM (with tpm)\n"
	"  --secrets FILE      the secrets, 'NAME HEX' lines\n"
	"  --provisioner-key FILE  the public key (PEM) ara-provision signs with:\n"
	"                      the manifest must pin it, or ARA refuses every DELIVER\n"
	"  -o, --output OUT    the policy to write (replaced atomically)\n"
	"  -h, --help          print this help and exit 0\n"
	"  -V, --version       print the version and exit 0\n"
	"\n"
	"Paths are written relative to OUT's directory; the files must exist.\n"
	"Exit status: 0 written, 2 usage error or an input that cannot be read or\n"
	"parsed, 3 OUT cannot be written.\n";

/* 2 also for an input that cannot be read or parsed. */
enum ara_policy_exit { EXIT_WRITTEN = ARA_CLI_OK, EXIT_INPUT = ARA_CLI_USAGE, EXIT_IO = ARA_CLI_IO };

#define DEFAULT_MAX_AGE 300u

struct options {
	const char *manifest, *loader, *tpm_ak, *secrets, *provisioner_key, *out;
	int tpm, dev_insecure;
	uint64_t max_age;
};

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_MANIFEST = 256, O_LOADER, O_BACKEND, O_MAX_AGE, O_TPM_AK, O_SECRETS, O_KEY };
	static const struct option longopts[] = {
		{ "manifest", required_argument, NULL, O_MANIFEST },
		{ "loader", required_argument, NULL, O_LOADER },
		{ "backend", required_argument, NULL, O_BACKEND },
		{ "max-age", required_argument, NULL, O_MAX_AGE },
		{ "tpm-ak", required_argument, NULL, O_TPM_AK },
		{ "secrets", required_argument, NULL, O_SECRETS },
		{ "provisioner-key", required_argument, NULL, O_KEY },
		{ "output", required_argument, NULL, 'o' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->max_age = DEFAULT_MAX_AGE;
	while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case O_MANIFEST: o->manifest = optarg; break;
		case O_LOADER: o->loader = optarg; break;
		case O_BACKEND:
			if (strcmp(optarg, "tpm") == 0)
				o->tpm = 1;
			else if (strcmp(optarg, "dev-insecure") == 0)
				o->dev_insecure = 1;
			else
				ara_usage_error("--backend %s: tpm or dev-insecure", optarg);
			break;
		case O_MAX_AGE: o->max_age = ara_cli_number("--max-age", optarg, 1, 86400); break;
		case O_TPM_AK: o->tpm_ak = optarg; break;
		case O_SECRETS: o->secrets = optarg; break;
		case O_KEY: o->provisioner_key = optarg; break;
		case 'o': o->out = optarg; break;
		default: ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind < argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->manifest || !o->loader || !o->out)
		ara_usage_error("--manifest, --loader and -o are needed");
	if (!o->tpm && !o->dev_insecure)
		ara_usage_error("--backend is needed: tpm or dev-insecure (insecure by design)");
	if (o->tpm != !!o->tpm_ak)
		ara_usage_error("--tpm-ak goes with --backend tpm, and --backend tpm needs it");
}

/* A whole regular file, at most cap bytes, into buf; exits EXIT_IO if it cannot be read. */
static size_t read_input(const char *path, const char *what, char *buf, size_t cap)
{
	struct stat st;
	size_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		ara_die_file(EXIT_IO, path, what);
	if (fstat(fd, &st) != 0 || ara_read_upto(fd, buf, cap, &len) != 0)
		ara_die_file(EXIT_IO, path, what);
	close(fd);
	if (!S_ISREG(st.st_mode))
		ara_die(EXIT_INPUT, "%s: not a regular file", path);
	return len;
}

/* The loader's digest; it must be an arm64 ELF (PIE), not any file. */
static void loader_digest(const char *path, uint8_t out[ARA_SHA256_BYTES])
{
	struct stat st;
	struct ara_elf_src src;
	Elf64_Ehdr eh;
	enum ara_elf_err err;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0)
		ara_die_file(EXIT_IO, path, "cannot read the loader");
	if (!S_ISREG(st.st_mode))
		ara_die(EXIT_INPUT, "%s: not a regular file", path);
	src = ara_elf_fd_src(fd, (uint64_t)st.st_size);
	err = ara_elf_header(&src, &eh);
	if (err == ARA_ELF_E_IO)
		ara_die_file(EXIT_IO, path, "cannot read the loader");
	if (err != ARA_ELF_OK)
		ara_die(EXIT_INPUT, "%s: not ara-loader: %s", path, ara_elf_strerror(err));
	if (ara_sha256_fd(fd, 0, (uint64_t)st.st_size, out) != 0)
		ara_die_file(EXIT_IO, path, "cannot read the loader");
	close(fd);
}

/* path as the policy at out names it: relative to out's directory. */
static void policy_path(const char *out, const char *path, char rel[PATH_MAX])
{
	char copy[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];

	if (realpath(path, real) == NULL)
		ara_die_file(EXIT_IO, path, "cannot resolve");
	snprintf(copy, sizeof(copy), "%s", out); /* out's length is checked in main() */
	if (realpath(dirname(copy), dir) == NULL)
		ara_die_file(EXIT_IO, out, "cannot resolve its directory");
	if (ara_relpath(dir, real, rel, PATH_MAX) != 0)
		ara_die(EXIT_INPUT, "%s: cannot be named relative to %s", path, dir);
}

/*
 * --provisioner-key: the manifest pins that key, so the DELIVERs signed
 * with its private half are the ones ARA opens (an App that pins another,
 * or none, is refused here rather than by every session).
 */
static void check_pinned_key(const char *manifest, const struct ara_manifest *m, const char *path)
{
	uint8_t pk[ARA_P256_PK];
	char why[512];

	if (ara_p256_read_public(path, pk, why, sizeof(why)))
		ara_die(EXIT_INPUT, "--provisioner-key %s", why);
	if (!m->provisioner[0])
		ara_die(EXIT_INPUT, "%s pins no provisioner key (ara-manifest --provisioner-key)",
			manifest);
	if (memcmp(m->provisioner, pk, sizeof(pk)) != 0)
		ara_die(EXIT_INPUT, "%s pins another provisioner key than %s", manifest, path);
}

/* The policy's text, from the command line and the manifest's digests. */
static size_t policy_text(const struct options *o, char *text, size_t cap)
{
	static char mtext[ARA_MANIFEST_MAX + 1];
	static struct ara_manifest m;
	uint8_t loader[ARA_SHA256_BYTES], manifest[ARA_SHA256_BYTES];
	char h[5][2 * ARA_SHA256_BYTES + 1], ak[PATH_MAX], secrets[PATH_MAX];
	size_t mlen = read_input(o->manifest, "cannot read the manifest", mtext, sizeof(mtext));
	enum ara_manifest_err err;
	unsigned int line;
	int n;

	err = mlen > ARA_MANIFEST_MAX ? ARA_MANIFEST_E_SIZE : ara_manifest_parse(mtext, mlen, &m, &line);
	if (err != ARA_MANIFEST_OK)
		ara_die(EXIT_INPUT, "%s:%u: %s", o->manifest, line, ara_manifest_strerror(err));
	if (ara_sha256(mtext, mlen, manifest) != 0)
		ara_die_file(EXIT_INPUT, o->manifest, "SHA-256 failed");
	if (o->provisioner_key)
		check_pinned_key(o->manifest, &m, o->provisioner_key);
	loader_digest(o->loader, loader);
	ara_hex_encode(loader, ARA_SHA256_BYTES, h[0]);
	ara_hex_encode(m.obj[ARA_ROLE_LIBARA].sha256, ARA_SHA256_BYTES, h[1]);
	ara_hex_encode(m.obj[ARA_ROLE_ENTRY].sha256, ARA_SHA256_BYTES, h[2]);
	ara_hex_encode(m.obj[ARA_ROLE_APP].sha256, ARA_SHA256_BYTES, h[3]);
	ara_hex_encode(manifest, ARA_SHA256_BYTES, h[4]);
	if (o->tpm_ak)
		policy_path(o->out, o->tpm_ak, ak);
	if (o->secrets)
		policy_path(o->out, o->secrets, secrets);
	n = snprintf(text, cap,
		     "# ara-provision policy, written by ara-policy from %s\n"
		     "%s%s"
		     "max-age %llu\n"
		     "loader %s\nlibara %s\nentry %s\napp %s\nmanifest %s\n"
		     "%s%s%s%s%s%s",
		     o->manifest, o->tpm ? "backend tpm\n" : "",
		     o->dev_insecure ? "backend dev-insecure\n" : "", (unsigned long long)o->max_age,
		     h[0], h[1], h[2], h[3], h[4], o->tpm_ak ? "tpm-ak " : "", o->tpm_ak ? ak : "",
		     o->tpm_ak ? "\n" : "", o->secrets ? "secrets " : "", o->secrets ? secrets : "",
		     o->secrets ? "\n" : "");
	if (n < 0 || (size_t)n >= cap)
		ara_die(EXIT_INPUT, "the policy does not fit in %zu bytes", cap);
	return (size_t)n;
}

/* ara-provision's parser, as it will read the policy at out. */
static void check_policy(const char *out, const char *text, size_t len)
{
	static struct ara_policy p; /* large: secrets inline */
	static char copy[2 * PATH_MAX + 1024];
	char why[512];
	int r;

	memcpy(copy, text, len + 1);
	r = ara_policy_parse(out, copy, len, &p, why, sizeof(why));
	ara_policy_wipe(&p);
	if (r)
		ara_die(EXIT_INPUT, "the policy would not load: %s", why);
}

/* OUT appears whole or not at all (ara_out). */
static void write_policy(const char *path, const char *text, size_t len)
{
	struct ara_out out;

	if (ara_out_open(&out, path, 0644) != 0)
		ara_die_file(EXIT_IO, path, "cannot create a temporary file beside it");
	if (ara_write_all(out.fd, text, len) != 0) {
		ara_out_discard(&out);
		ara_die_file(EXIT_IO, path, "cannot write");
	}
	if (ara_out_commit(&out) != 0)
		ara_die_file(EXIT_IO, path, "cannot write");
}

int main(int argc, char **argv)
{
	static struct options o;
	static char text[2 * PATH_MAX + 1024];
	size_t len;

	ara_cli_init("ara-policy");
	parse_options(argc, argv, &o);
	if (strlen(o.out) + sizeof(".XXXXXX") > PATH_MAX)
		ara_usage_error("-o %s: path too long", o.out);
	len = policy_text(&o, text, sizeof(text));
	check_policy(o.out, text, len);
	write_policy(o.out, text, len);
	return EXIT_WRITTEN;
}
