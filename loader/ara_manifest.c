/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-manifest: writes the manifest that ara-loader checks (manifest.h),
 * from the files as they are now. A build tool: it runs on the build
 * machine, after libara.so, the entry object and the App are linked.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara_cli.h"
#include "digest.h"
#include "exit_status.h"
#include "manifest.h"
#include "relpath.h"

static const char usage_text[] =
	"usage: ara-manifest --libara PATH --entry PATH --app PATH -o OUT\n"
	"Write the ara-loader manifest naming libara.so, the entry object and\n"
	"the App with their SHA-256 digests to OUT (replaced atomically).\n"
	"Paths are written relative to OUT's directory.\n"
	"\n"
	"  --libara PATH       libara.so\n"
	"  --entry PATH        libara-entry.so, the entry object\n"
	"  --app PATH          the App\n"
	"  -o, --output OUT    the manifest to write\n"
	"  -h, --help          print this help to stdout and exit 0\n"
	"  -V, --version       print the version to stdout and exit 0\n"
	"\n"
	"Exit status: 0 written, 2 usage error,\n"
	"             3 I/O error (a file missing, unreadable or unwritable).\n";

/* inputs[role] and the output path, all required. */
static const char *parse_options(int argc, char **argv,
				 const char *inputs[ARA_ROLES])
{
	static const struct option longopts[] = {
		{ "libara", required_argument, NULL, 'l' },
		{ "entry", required_argument, NULL, 'e' },
		{ "app", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	int c;

	while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			inputs[ARA_ROLE_LIBARA] = optarg;
			break;
		case 'e':
			inputs[ARA_ROLE_ENTRY] = optarg;
			break;
		case 'a':
			inputs[ARA_ROLE_APP] = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind < argc)
		ara_usage_error("unexpected argument '%s'", argv[optind]);
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		if (inputs[r] == NULL)
			ara_usage_error("--%s is required",
					ara_role_name((enum ara_role)r));
	if (out == NULL)
		ara_usage_error("-o is required");
	return out;
}

/* The canonical directory OUT will be written in. */
static void output_dir(const char *out, char dir[PATH_MAX])
{
	char copy[PATH_MAX];

	if (snprintf(copy, sizeof(copy), "%s", out) >= (int)sizeof(copy))
		ara_die(ARA_EXIT_IO, "%s: path too long", out);
	if (realpath(dirname(copy), dir) == NULL)
		ara_die(ARA_EXIT_IO, "%s: cannot resolve its directory: %s",
			out, strerror(errno));
}

/* Hashes one input and stores its path relative to out_dir. */
static void describe(enum ara_role role, const char *path,
		     const char *out_dir, struct ara_manifest_object *obj)
{
	const char *name = ara_role_name(role);
	char real[PATH_MAX];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		ara_die(ARA_EXIT_IO, "%s %s: cannot open: %s", name, path,
			strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		ara_die(ARA_EXIT_IO, "%s %s: not a regular file", name, path);
	if (ara_sha256_fd(fd, 0, (uint64_t)st.st_size, obj->sha256) != 0)
		ara_die(ARA_EXIT_IO, "%s %s: cannot read: %s", name, path,
			strerror(errno));
	close(fd);
	if (realpath(path, real) == NULL)
		ara_die(ARA_EXIT_IO, "%s %s: cannot resolve: %s", name, path,
			strerror(errno));
	if (ara_relpath(out_dir, real, obj->path, sizeof(obj->path)) != 0)
		ara_die(ARA_EXIT_IO, "%s %s: path too long", name, path);
}

/* Writes via a temporary file and rename(): OUT is old or new, never half. */
static void write_atomically(const char *out, const char *buf, size_t len)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp))
		ara_die(ARA_EXIT_IO, "%s: path too long", out);
	fd = mkstemp(tmp);
	if (fd < 0 || fchmod(fd, 0644) != 0)
		ara_die(ARA_EXIT_IO, "%s: cannot create: %s", tmp,
			strerror(errno));
	f = fdopen(fd, "w");
	if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0 ||
	    rename(tmp, out) != 0) {
		int saved = errno;

		unlink(tmp);
		ara_die(ARA_EXIT_IO, "%s: cannot write: %s", out,
			strerror(saved));
	}
}

int main(int argc, char **argv)
{
	static struct ara_manifest m;
	static char text[ARA_MANIFEST_MAX];
	const char *inputs[ARA_ROLES] = { NULL };
	char out_dir[PATH_MAX];
	size_t len = 0;
	const char *out;

	ara_cli_init("ara-manifest");
	out = parse_options(argc, argv, inputs);
	output_dir(out, out_dir);
	for (unsigned int r = 0; r < ARA_ROLES; r++)
		describe((enum ara_role)r, inputs[r], out_dir, &m.obj[r]);
	if (ara_manifest_format(&m, text, sizeof(text), &len) != ARA_MANIFEST_OK)
		ara_die(ARA_EXIT_IO,
			"a path cannot be written into a manifest (a control character, or a space at either end)");
	write_atomically(out, text, len);
	return ARA_EXIT_OK;
}
