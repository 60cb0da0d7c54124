/* SPDX-License-Identifier: Apache-2.0 */
#include "manifest_check.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ara_cli.h"
#include "digest.h"
#include "elf_fd.h"
#include "elf_role.h"
#include "exit_status.h"
#include "ara/hex.h"
#include "manifest.h"
#include "relpath.h"

enum verdict { OK, MISMATCH, UNFIT, UNREADABLE };

static const char *const verdict_names[] = {
	[OK] = "ok", [MISMATCH] = "mismatch", [UNFIT] = "unfit",
	[UNREADABLE] = "unreadable",
};

/* One object as found. */
struct found {
	char path[PATH_MAX];
	enum verdict verdict;
	bool hashed;
	uint8_t sha256[ARA_SHA256_BYTES];
	char error[160]; /* why, when the verdict is not OK */
};

static void read_manifest(const char *path, struct ara_manifest *m)
{
	static char buf[ARA_MANIFEST_MAX + 1];
	unsigned int line = 0;
	enum ara_manifest_err err;
	struct stat st;
	size_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		ara_die_file(ARA_MANIFEST_EXIT_IO, path, "cannot open");
	if (fstat(fd, &st) != 0)
		ara_die_file(ARA_MANIFEST_EXIT_IO, path, "cannot stat");
	if (!S_ISREG(st.st_mode))
		ara_die(ARA_MANIFEST_EXIT_IO, "%s: not a regular file", path);
	if (ara_read_upto(fd, buf, sizeof(buf), &len) != 0)
		ara_die_file(ARA_MANIFEST_EXIT_IO, path, "cannot read");
	close(fd);
	err = ara_manifest_parse(buf, len, m, &line);
	if (err != ARA_MANIFEST_OK && line == 0)
		ara_die(ARA_CLI_USAGE, "%s: %s", path, ara_manifest_strerror(err));
	if (err != ARA_MANIFEST_OK)
		ara_die(ARA_CLI_USAGE, "%s:%u: %s", path, line,
			ara_manifest_strerror(err));
}

static void unreadable(struct found *f, const char *what)
{
	f->verdict = UNREADABLE;
	snprintf(f->error, sizeof(f->error), "%s: %s", what, strerror(errno));
}

/* Opens and hashes f->path: its descriptor and size, or -1 (unreadable). */
static int hash_file(struct found *f, uint64_t *size)
{
	struct stat st;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		unreadable(f, "cannot open");
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		unreadable(f, "cannot stat");
	} else if (!S_ISREG(st.st_mode)) {
		f->verdict = UNREADABLE;
		snprintf(f->error, sizeof(f->error), "not a regular file");
	} else if (ara_sha256_fd(fd, 0, (uint64_t)st.st_size, f->sha256) != 0) {
		unreadable(f, "cannot read");
	} else {
		f->hashed = true;
		*size = (uint64_t)st.st_size;
		return fd;
	}
	close(fd);
	return -1;
}

/* Hashes the file, then, if it is the one listed, checks its ELF role. */
static void check_object(enum ara_role role, const uint8_t expected[ARA_SHA256_BYTES],
			 struct found *f)
{
	const char *section = NULL;
	enum ara_elf_err err;
	uint64_t size = 0;
	int fd = hash_file(f, &size);

	if (fd < 0)
		return;
	if (memcmp(f->sha256, expected, ARA_SHA256_BYTES) != 0) {
		f->verdict = MISMATCH;
		snprintf(f->error, sizeof(f->error), "digest mismatch");
	} else {
		const struct ara_elf_src src = ara_elf_fd_src(fd, size);

		err = ara_elf_role_check(&src, role, &section);
		if (err == ARA_ELF_E_IO) {
			unreadable(f, "cannot read");
		} else if (err != ARA_ELF_OK) {
			f->verdict = UNFIT;
			snprintf(f->error, sizeof(f->error), "%s%s%s",
				 section ? section : "", section ? ": " : "",
				 ara_elf_strerror(err));
		}
	}
	close(fd);
}

static void print_text(const struct ara_manifest *m, const struct found f[ARA_ROLES])
{
	char hex[2 * ARA_SHA256_BYTES + 1];

	for (unsigned int r = 0; r < ARA_ROLES; r++) {
		printf("%s %s: %s", ara_role_name((enum ara_role)r), f[r].path,
		       f[r].verdict == OK ? "ok" : f[r].error);
		if (f[r].verdict == MISMATCH) {
			ara_hex_encode(m->obj[r].sha256, ARA_SHA256_BYTES, hex);
			printf(": expected sha256 %s", hex);
			ara_hex_encode(f[r].sha256, ARA_SHA256_BYTES, hex);
			printf(", found sha256 %s", hex);
		}
		putchar('\n');
	}
	if (m->provisioner[0]) {
		char key[2 * ARA_MANIFEST_KEY_BYTES + 1];

		ara_hex_encode(m->provisioner, ARA_MANIFEST_KEY_BYTES, key);
		printf("provisioner %s: pinned\n", key);
	}
}

static void print_json(const char *path, const struct ara_manifest *m,
		       const struct found f[ARA_ROLES], int status)
{
	char hex[2 * ARA_SHA256_BYTES + 1];

	fputs("{\"manifest\": ", stdout);
	ara_json_string(stdout, path);
	printf(", \"ok\": %s, \"objects\": [", status == ARA_CLI_OK ? "true" : "false");
	for (unsigned int r = 0; r < ARA_ROLES; r++) {
		printf("%s{\"role\": \"%s\", \"path\": ", r ? ", " : "",
		       ara_role_name((enum ara_role)r));
		ara_json_string(stdout, f[r].path);
		printf(", \"result\": \"%s\"", verdict_names[f[r].verdict]);
		ara_hex_encode(m->obj[r].sha256, ARA_SHA256_BYTES, hex);
		printf(", \"expected_sha256\": \"%s\", \"sha256\": ", hex);
		if (f[r].hashed) {
			ara_hex_encode(f[r].sha256, ARA_SHA256_BYTES, hex);
			printf("\"%s\"", hex);
		} else {
			fputs("null", stdout);
		}
		fputs(", \"error\": ", stdout);
		if (f[r].verdict == OK)
			fputs("null", stdout);
		else
			ara_json_string(stdout, f[r].error);
		putchar('}');
	}
	fputs("], \"provisioner\": ", stdout);
	if (m->provisioner[0]) {
		char key[2 * ARA_MANIFEST_KEY_BYTES + 1];

		ara_hex_encode(m->provisioner, ARA_MANIFEST_KEY_BYTES, key);
		printf("\"%s\"}\n", key);
	} else {
		puts("null}");
	}
}

int ara_manifest_check(const char *path, bool json)
{
	static struct ara_manifest m;
	static struct found f[ARA_ROLES];
	int status = ARA_CLI_OK;

	read_manifest(path, &m);
	for (unsigned int r = 0; r < ARA_ROLES; r++) {
		if (ara_manifest_relative(path, m.obj[r].path, f[r].path,
					  sizeof(f[r].path)) != 0)
			ara_die(ARA_CLI_USAGE, "%s: path too long: %s", path,
				m.obj[r].path);
		check_object((enum ara_role)r, m.obj[r].sha256, &f[r]);
		if (f[r].verdict == UNREADABLE)
			status = ARA_MANIFEST_EXIT_IO;
		else if (f[r].verdict != OK && status == ARA_CLI_OK)
			status = ARA_CLI_REFUSED;
	}
	if (json)
		print_json(path, &m, f, status);
	else
		print_text(&m, f);
	if (fflush(stdout) != 0 || ferror(stdout))
		ara_die_file(ARA_MANIFEST_EXIT_IO, "stdout", "cannot write");
	return status;
}
