/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara-loader: verifies libara.so, the entry object and the App against a
 * manifest, then runs the App with ARA in place (loader/README.md).
 *
 * Order: options; platform (POE) and environment; the manifest; the three
 * objects, each copied into a sealed memfd and hashed there; the libara and
 * entry object layout; the App's dynamic linker; the exec. Every check comes
 * before the exec, and every refusal exits with a status of exit_status.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara/boot.h"
#include "ara_cli.h"
#include "digest.h"
#include "elf_fd.h"
#include "elf_gate.h"
#include "exit_status.h"
#include "ara/hex.h"
#include "launch.h"
#include "manifest.h"
#include "relpath.h"
#include "sealed_copy.h"

#define ARA_HWCAP2_POE (1ul << 63) /* uapi/asm/hwcap.h, Linux >= 6.12 */

static const char usage_text[] =
	"usage: ara-loader [--manifest FILE] [--] APP [ARG...]\n"
	"Verify libara.so, the entry object and APP against the manifest, then\n"
	"run APP with ARG... and with ARA in place.\n"
	"\n"
	"  --manifest FILE  the manifest (default: APP.ara-manifest)\n"
	"  -h, --help       print this help to stdout and exit 0\n"
	"  -V, --version    print the version to stdout and exit 0\n"
	"\n"
	"Exit status, when ara-loader refuses to run APP (otherwise APP's own):\n"
	"  1 internal error         2 usage error\n"
	"  3 missing or unreadable file\n"
	"  4 digest differs from the manifest\n"
	"  5 malformed manifest\n"
	"  6 no POE, or APP or the entry object unfit for ARA\n"
	"  7 the dynamic linker could not be executed\n";

struct options {
	const char *manifest; /* NULL: APP.ara-manifest */
	const char *app;
	char **app_args;
};

/* One of libara, the entry object and the App, once loaded. */
struct object {
	enum ara_role role;
	char path[PATH_MAX]; /* as opened; for messages */
	int fd;		     /* its sealed memfd */
	uint64_t size;
	uint8_t sha256[ARA_SHA256_BYTES];
};

static const char *const memfd_names[ARA_ROLES] = {
	[ARA_ROLE_LIBARA] = ARA_MEMFD_LIBARA,
	[ARA_ROLE_ENTRY] = ARA_MEMFD_ENTRY,
	[ARA_ROLE_APP] = ARA_MEMFD_APP,
};

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "manifest", required_argument, NULL, 'm' },
		ARA_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* "+": options end at APP; what follows is the App's. */
	while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			opt->manifest = optarg;
			break;
		default:
			ara_cli_option(c, argv, usage_text);
		}
	}
	if (optind >= argc)
		ara_usage_error("no APP given");
	opt->app = argv[optind];
	opt->app_args = argv + optind + 1;
}

/*
 * If we were started with stdin, stdout or stderr closed, a memfd would take
 * its number and the App would read or write it as one of them.
 */
static void open_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_RDWR) != fd)
			exit(ARA_EXIT_INTERNAL); /* stderr may be the one */
	}
}

static void require_poe(void)
{
	if (!(getauxval(AT_HWCAP2) & ARA_HWCAP2_POE))
		ara_die(ARA_EXIT_UNSUPPORTED,
			"no POE: the CPU or kernel lacks FEAT_S1POE (no HWCAP2_POE in AT_HWCAP2)");
}

/*
 * Started set-user-ID, set-group-ID or with capabilities granted (or with
 * an effective ID other than the real one): the dynamic linker then runs
 * in secure mode and ignores --preload, so the App would run without ARA.
 */
static void require_not_secure(void)
{
	if (getauxval(AT_SECURE))
		ara_die(ARA_EXIT_UNSUPPORTED,
			"started in secure-execution mode (AT_SECURE: set-user-ID, set-group-ID, or an "
			"effective user or group ID other than the real one): the dynamic linker would "
			"not load libara, and the App would run without ARA");
}

/*
 * The dynamic linker would load these into the App beside the measured
 * objects, and an audit module runs before libara's initialisation.
 */
static void refuse_injection_env(void)
{
	static const char *const names[] = { "LD_PRELOAD", "LD_AUDIT" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (getenv(names[i]) != NULL)
			ara_die(ARA_EXIT_USAGE,
				"%s is set: it would load code that no manifest names into the App; unset it",
				names[i]);
}

/*
 * Opens a file to read, refusing anything but a regular file. Symbolic links
 * are followed: the digest, not the name, decides. O_NONBLOCK: opening a FIFO
 * would otherwise wait for a writer before fstat() could refuse it.
 */
static int open_regular(const char *what, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		ara_die(ARA_EXIT_IO, "%s %s: cannot open: %s", what, path,
			strerror(errno));
	if (fstat(fd, &st) != 0)
		ara_die(ARA_EXIT_IO, "%s %s: cannot stat: %s", what, path,
			strerror(errno));
	if (!S_ISREG(st.st_mode))
		ara_die(ARA_EXIT_IO, "%s %s: not a regular file", what, path);
	return fd;
}

/* Reads the manifest (at most one byte more than a manifest may have),
 * hashes the bytes as read and parses them. */
static void read_manifest(const char *path, struct ara_manifest *m,
			  uint8_t sha256[ARA_SHA256_BYTES])
{
	static char buf[ARA_MANIFEST_MAX + 1];
	size_t len = 0;
	unsigned int line = 0;
	enum ara_manifest_err err;
	int fd = open_regular("manifest", path);

	if (ara_read_upto(fd, buf, sizeof(buf), &len) != 0)
		ara_die(ARA_EXIT_IO, "manifest %s: cannot read: %s", path,
			strerror(errno));
	close(fd);
	if (ara_sha256(buf, len, sha256) != 0)
		ara_die(ARA_EXIT_INTERNAL, "manifest %s: cannot hash: %s", path,
			strerror(errno));
	err = ara_manifest_parse(buf, len, m, &line);
	if (err != ARA_MANIFEST_OK && line == 0)
		ara_die(ARA_EXIT_MANIFEST, "manifest %s: %s", path,
			ara_manifest_strerror(err));
	if (err != ARA_MANIFEST_OK)
		ara_die(ARA_EXIT_MANIFEST, "manifest %s:%u: %s", path, line,
			ara_manifest_strerror(err));
}

/* A path from the manifest: relative ones are relative to its directory. */
static void manifest_relative(char out[PATH_MAX], const char *manifest,
			      const char *path)
{
	if (ara_manifest_relative(manifest, path, out, PATH_MAX) != 0)
		ara_die(ARA_EXIT_IO, "manifest %s: path too long: %s", manifest,
			path);
}

static void report_mismatch(const struct object *o,
			    const uint8_t expected[ARA_SHA256_BYTES])
{
	char want[2 * ARA_SHA256_BYTES + 1], got[2 * ARA_SHA256_BYTES + 1];

	ara_hex_encode(expected, ARA_SHA256_BYTES, want);
	ara_hex_encode(o->sha256, ARA_SHA256_BYTES, got);
	ara_die(ARA_EXIT_INTEGRITY,
		"%s %s: digest mismatch\n  expected sha256 %s\n  found    sha256 %s",
		ara_role_name(o->role), o->path, want, got);
}

/*
 * Copies the object into a sealed memfd, then hashes the memfd. The digest
 * is of the very bytes the dynamic linker will map: they are hashed after
 * sealing, from the memfd, and no descriptor anywhere can change a sealed
 * memfd. Whatever happens to the file at o->path from now on does not
 * matter: there is no window between check and use.
 */
static void load_object(struct object *o,
			const uint8_t expected[ARA_SHA256_BYTES])
{
	const char *role = ara_role_name(o->role);
	const char *failed = "";
	struct stat st;
	int src = open_regular(role, o->path);

	o->fd = ara_sealed_copy(src, memfd_names[o->role], &failed);
	if (o->fd < 0)
		ara_die(strcmp(failed, "read") == 0 ? ARA_EXIT_IO :
						      ARA_EXIT_INTERNAL,
			"%s %s: %s: %s", role, o->path, failed,
			strerror(errno));
	close(src);
	if (fstat(o->fd, &st) != 0 ||
	    ara_sha256_fd(o->fd, 0, (uint64_t)st.st_size, o->sha256) != 0)
		ara_die(ARA_EXIT_INTERNAL, "%s %s: cannot hash its copy: %s",
			role, o->path, strerror(errno));
	o->size = (uint64_t)st.st_size;
	if (memcmp(o->sha256, expected, ARA_SHA256_BYTES) != 0)
		report_mismatch(o, expected);
}

static struct ara_elf_src elf_src(const struct object *o)
{
	return ara_elf_fd_src(o->fd, o->size);
}

static void elf_fail(const struct object *o, enum ara_elf_err err,
		     const char *section)
{
	if (err == ARA_ELF_E_IO)
		ara_die(ARA_EXIT_INTERNAL, "%s %s: cannot read its copy: %s",
			ara_role_name(o->role), o->path, strerror(errno));
	if (section != NULL)
		ara_die(ARA_EXIT_UNSUPPORTED, "%s %s: section %s: %s",
			ara_role_name(o->role), o->path, section,
			ara_elf_strerror(err));
	ara_die(ARA_EXIT_UNSUPPORTED, "%s %s: %s", ara_role_name(o->role),
		o->path, ara_elf_strerror(err));
}

/*
 * A test-only variant of libara or of the entry object (tests/variants/:
 * one protection removed) carries a .ara_test_variant section; it runs
 * only where the tests ask.
 */
static void check_not_variant(const struct object *o)
{
	struct ara_elf_src src = elf_src(o);
	Elf64_Ehdr eh;
	bool variant = false;
	const char *allow = getenv("ARA_ALLOW_TEST_VARIANT");
	enum ara_elf_err err = ara_elf_header(&src, &eh);

	if (err == ARA_ELF_OK)
		err = ara_elf_has_section(&src, ".ara_test_variant", &variant);
	if (err != ARA_ELF_OK)
		elf_fail(o, err, NULL);
	if (variant && (allow == NULL || strcmp(allow, "1") != 0))
		ara_die(ARA_EXIT_UNSUPPORTED,
			"%s %s: a test-only variant with a protection removed; "
			"refused (only tests run it, with ARA_ALLOW_TEST_VARIANT=1)",
			ara_role_name(o->role), o->path);
}

/*
 * The digest of this loader's own file, for the platform evidence: what a
 * platform measurement of the executed loader (Linux IMA's) must match.
 */
static void hash_self(uint8_t out[ARA_SHA256_BYTES])
{
	int fd = open_regular("loader", "/proc/self/exe");
	struct stat st;

	if (fstat(fd, &st) != 0 || ara_sha256_fd(fd, 0, (uint64_t)st.st_size, out) != 0)
		ara_die(ARA_EXIT_IO, "loader /proc/self/exe: cannot hash: %s", strerror(errno));
	close(fd);
}

/* Records a gate section for libara, digest of its file bytes included. */
static void gate_region(const struct object *o, const struct ara_elf_section *s,
			struct ara_boot_region *r)
{
	r->vaddr = s->vaddr;
	r->size = s->size;
	if (!s->nobits && ara_sha256_fd(o->fd, s->offset, s->size, r->sha256) != 0)
		ara_die(ARA_EXIT_INTERNAL, "entry %s: cannot hash a gate section: %s",
			o->path, strerror(errno));
}

static void check_entry(const struct object *o, struct ara_boot *boot)
{
	struct ara_elf_src src = elf_src(o);
	struct ara_elf_gate gate;
	const char *section = NULL;
	enum ara_elf_err err = ara_elf_gate(&src, &gate, &section);

	if (err != ARA_ELF_OK)
		elf_fail(o, err, section);
	gate_region(o, &gate.text, &boot->gate_text);
	gate_region(o, &gate.data, &boot->gate_data);
}

static void check_app(const struct object *o, char interp[ARA_ELF_INTERP_MAX])
{
	struct ara_elf_src src = elf_src(o);
	enum ara_elf_err err = ara_elf_app_interp(&src, interp);

	if (err == ARA_ELF_OK)
		err = ara_elf_app_runs_after_ara(&src);
	if (err != ARA_ELF_OK)
		elf_fail(o, err, NULL);
}

int main(int argc, char **argv)
{
	static struct ara_manifest manifest;
	static struct object obj[ARA_ROLES];
	static char default_manifest[PATH_MAX];
	static char interp[ARA_ELF_INTERP_MAX];
	struct options opt = { 0 };
	struct ara_boot boot = { 0 };
	int n;

	open_std_fds();
	ara_cli_init("ara-loader");
	parse_options(argc, argv, &opt);
	require_poe();
	require_not_secure();
	refuse_injection_env();

	if (opt.manifest == NULL) {
		n = snprintf(default_manifest, sizeof(default_manifest),
			     "%s.ara-manifest", opt.app);
		if (n < 0 || (size_t)n >= sizeof(default_manifest))
			ara_die(ARA_EXIT_IO, "app %s: path too long", opt.app);
		opt.manifest = default_manifest;
	}
	read_manifest(opt.manifest, &manifest, boot.manifest_sha256);

	for (unsigned int r = 0; r < ARA_ROLES; r++)
		obj[r].role = (enum ara_role)r;
	manifest_relative(obj[ARA_ROLE_LIBARA].path, opt.manifest,
			  manifest.obj[ARA_ROLE_LIBARA].path);
	manifest_relative(obj[ARA_ROLE_ENTRY].path, opt.manifest,
			  manifest.obj[ARA_ROLE_ENTRY].path);
	/* The App is the one named on the command line; the manifest's app
	 * path is informational, the digest identifies it (README.md). */
	n = snprintf(obj[ARA_ROLE_APP].path, PATH_MAX, "%s", opt.app);
	if (n < 0 || n >= PATH_MAX)
		ara_die(ARA_EXIT_IO, "app %s: path too long", opt.app);

	for (unsigned int r = 0; r < ARA_ROLES; r++)
		load_object(&obj[r], manifest.obj[r].sha256);
	check_not_variant(&obj[ARA_ROLE_LIBARA]);
	check_not_variant(&obj[ARA_ROLE_ENTRY]);
	check_entry(&obj[ARA_ROLE_ENTRY], &boot);
	check_app(&obj[ARA_ROLE_APP], interp);

	boot.magic = ARA_BOOT_MAGIC;
	boot.version = ARA_BOOT_VERSION;
	boot.size = sizeof(boot);
	boot.app_fd = obj[ARA_ROLE_APP].fd;
	boot.libara_fd = obj[ARA_ROLE_LIBARA].fd;
	boot.entry_fd = obj[ARA_ROLE_ENTRY].fd;
	boot.interp_fd = -1; /* the kernel maps the dynamic linker: no inherited filter */
	ara_boot_comm(boot.comm, opt.app);
	memcpy(boot.app_sha256, obj[ARA_ROLE_APP].sha256, ARA_SHA256_BYTES);
	memcpy(boot.libara_sha256, obj[ARA_ROLE_LIBARA].sha256, ARA_SHA256_BYTES);
	memcpy(boot.entry_sha256, obj[ARA_ROLE_ENTRY].sha256, ARA_SHA256_BYTES);
	hash_self(boot.loader_sha256);
	memcpy(boot.provisioner_pub, manifest.provisioner, ARA_BOOT_KEY_BYTES);

	ara_launch(&(struct ara_launch){
		.interp = interp,
		.app_path = opt.app,
		.app_args = opt.app_args,
		.boot = &boot,
	});
}
