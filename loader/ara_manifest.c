/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-manifest: writes the manifest that ara-loader checks (manifest.h),
 * from the files as they are now, or checks one (manifest_check.h). A
 * build tool: it runs on the build machine, after libara.so, the entry
 * object and the App are linked.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara_cli.h"
#include "digest.h"
#include "elf_fd.h"
#include "elf_role.h"
#include "exit_status.h"
#include "manifest.h"
#include "manifest_check.h"
#include "p256_pem.h"
#include "relpath.h"

static const char usage_text[] =
	"usage: ara-manifest --libara PATH --entry PATH --app PATH\n"
	"                    [--provisioner-key FILE] -o OUT\n"
	"       ara-manifest --check MANIFEST [--json]\n"
	"Write the ara-loader manifest naming libara.so, the entry object and\n"
	"the App with their SHA-256 digests to OUT (replaced atomically), after\n"
	"checking that each is the arm64 ELF object its role needs. Paths are\n"
	"written relative to OUT's directory.\n"
	"With --check, check that the files MANIFEST names still have its\n"
	"digests and are fit for their roles, and print the result.\n"
	"\n"
	"  --libara PATH       libara.so, an arm64 shared object\n"
	"  --entry PATH        libara-entry.so, the entry object\n"
	"  --app PATH          the App, an arm64 dynamically linked PIE\n"
	"  --provisioner-key FILE  pin the provisioner's P-256 public key (PEM):\n"
	"                      ARA then accepts secrets only from its holder\n"
	"  -o, --output OUT    the manifest to write\n"
	"  -c, --check MANIFEST  check MANIFEST instead of writing one\n"
	"  --json              print the result of --check as JSON\n"
	"  -h, --help          print this help to stdout and exit 0\n"
	"  -V, --version       print the version to stdout and exit 0\n"
	"\n"
	"Exit status: 0 written, or every object matches (--check);\n"
	"  1 an object differs from MANIFEST or is unfit for its role (--check);\n"
	"  2 usage error, an input that is not the ELF object its role needs,\n"
	"    or a malformed MANIFEST;\n"
	"  3 I/O error (a file missing, unreadable or unwritable).\n";

struct options {
	const char *inputs[ARA_ROLES]; /* by role; to write a manifest */
	const char *out;
	const char *provisioner_key; /* a PEM public key to pin, or NULL */
	const char *check; /* the manifest to check, or NULL */
	bool json;
};

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "libara", required_argument, NULL, 'l' },
		{ "entry", required_argument, NULL, 'e' },
		{ "app", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "provisioner-key", required_argument, NULL, 'k' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":o:c:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			opt->inputs[ARA_ROLE_LIBARA] = optarg;
			break;
		case 'e':
			opt->inputs[ARA_ROLE_ENTRY] = optarg;
			break;
		case 'a':
			opt->inputs[ARA_ROLE_APP] = optarg;
			break;
		case 'o':
			opt->out = optarg;
			break;
		case 'c':
			opt->check = optarg;
			break;
		case 'j':
			opt->json = true;
			break;
		case 'k':
			opt->provisioner_key = optarg;
			break;
		default:
			ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind < argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	if (opt->check != NULL) {
		for (unsigned int r = 0; r < ARA_ROLES; r++)
			if (opt->inputs[r] != NULL)
				ara_usage_error("--check takes no --%s",
						ara_role_name((enum ara_role)r));
		if (opt->out != NULL || opt->provisioner_key != NULL)
			ara_usage_error("--check takes no -o and no --provisioner-key");
		return;
	}
	if (opt->json)
		ara_usage_error("--json goes with --check");
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		if (opt->inputs[r] == NULL)
			ara_usage_error("--%s is required",
					ara_role_name((enum ara_role)r));
	if (opt->out == NULL)
		ara_usage_error("-o is required");
}

/* The canonical directory OUT will be written in. */
static void output_dir(const char *out, char dir[PATH_MAX])
{
	char copy[PATH_MAX];

	if (snprintf(copy, sizeof(copy), "%s", out) >= (int)sizeof(copy))
		ara_die(ARA_MANIFEST_EXIT_IO, "%s: path too long", out);
	if (realpath(dirname(copy), dir) == NULL)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s: cannot resolve its directory: %s",
			out, strerror(errno));
}

/* The ELF checks ara-loader will make of the object in its role. */
static void check_role(enum ara_role role, const char *path, int fd,
		       uint64_t size)
{
	const char *section = NULL;
	const struct ara_elf_src src = ara_elf_fd_src(fd, size);
	enum ara_elf_err err = ara_elf_role_check(&src, role, &section);

	if (err == ARA_ELF_E_IO)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: cannot read: %s",
			ara_role_name(role), path, strerror(errno));
	if (err != ARA_ELF_OK && section != NULL)
		ara_die(ARA_CLI_USAGE, "%s %s: section %s: %s",
			ara_role_name(role), path, section, ara_elf_strerror(err));
	if (err != ARA_ELF_OK)
		ara_die(ARA_CLI_USAGE, "%s %s: %s", ara_role_name(role), path,
			ara_elf_strerror(err));
}

/* Checks and hashes one input and stores its path relative to out_dir. */
static void describe(enum ara_role role, const char *path,
		     const char *out_dir, struct ara_manifest_object *obj)
{
	const char *name = ara_role_name(role);
	char real[PATH_MAX];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: cannot open: %s", name, path,
			strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: not a regular file", name, path);
	check_role(role, path, fd, (uint64_t)st.st_size);
	if (ara_sha256_fd(fd, 0, (uint64_t)st.st_size, obj->sha256) != 0)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: cannot read: %s", name, path,
			strerror(errno));
	close(fd);
	if (realpath(path, real) == NULL)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: cannot resolve: %s", name, path,
			strerror(errno));
	if (ara_relpath(out_dir, real, obj->path, sizeof(obj->path)) != 0)
		ara_die(ARA_MANIFEST_EXIT_IO, "%s %s: path too long", name, path);
}

/* Via a temporary file and rename(): OUT is old or new, never half. */
static void write_atomically(const char *out, const char *buf, size_t len)
{
	struct ara_out o;

	if (ara_out_open(&o, out, 0644) != 0)
		ara_die_file(ARA_MANIFEST_EXIT_IO, out, "cannot create a temporary file beside it");
	if (ara_write_all(o.fd, buf, len) != 0 || ara_out_commit(&o) != 0)
		ara_die_file(ARA_MANIFEST_EXIT_IO, out, "cannot write");
}

int main(int argc, char **argv)
{
	static struct ara_manifest m;
	static char text[ARA_MANIFEST_MAX];
	struct options opt = { 0 };
	char out_dir[PATH_MAX], why[512];
	size_t len = 0;

	ara_cli_init("ara-manifest");
	parse_options(argc, argv, &opt);
	if (opt.check != NULL)
		return ara_manifest_check(opt.check, opt.json);
	output_dir(opt.out, out_dir);
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		describe((enum ara_role)r, opt.inputs[r], out_dir, &m.obj[r]);
	if (opt.provisioner_key) {
		int r = ara_p256_read_public(opt.provisioner_key, m.provisioner, why, sizeof(why));

		if (r)
			ara_die(r == ARA_P256_PEM_E_IO ? ARA_MANIFEST_EXIT_IO : ARA_CLI_USAGE,
				"--provisioner-key %s", why);
	}
	if (ara_manifest_format(&m, text, sizeof(text), &len) != ARA_MANIFEST_OK)
		ara_die(ARA_CLI_USAGE,
			"a path cannot be written into a manifest (a control character, or a space at either end)");
	write_atomically(opt.out, text, len);
	return ARA_CLI_OK;
}
