/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The opens ARA performs for App code (libara/src/dom0/open.c) behave as
 * the kernel's own: creation, truncation, O_EXCL, O_NOFOLLOW, O_DIRECTORY,
 * O_PATH, O_TMPFILE, relative paths, missing files, bad pointers, long
 * paths, and openat2. Only memory files of procfs are refused (the attack
 * tests cover those).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ara/domains.h"
#include "por_sysreg.h"

static unsigned int checks, failures;

/* rc is a descriptor or -1; want_errno 0 means "must succeed". */
static int expect(const char *what, int rc, int want_errno)
{
	checks++;
	if (want_errno == 0 ? rc < 0 : (rc >= 0 || errno != want_errno)) {
		failures++;
		printf("FAIL: %s: got %d (%s), expected %s\n", what, rc, rc < 0 ? strerror(errno) : "ok",
		       want_errno ? strerror(want_errno) : "success");
	}
	return rc;
}

static void expect_true(const char *what, int ok)
{
	checks++;
	if (!ok) {
		failures++;
		printf("FAIL: %s\n", what);
	}
}

int main(void)
{
	char dir[] = "/tmp/ara-open-XXXXXX", path[256], buf[16] = { 0 };
	char *long_path = malloc(8192);
	struct open_how how = { .flags = O_RDONLY };
	struct stat st;
	int fd, dfd;
	void *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (por_el0_read() != ARA_POR_DOM2 || !mkdtemp(dir) || !long_path || unmapped == MAP_FAILED ||
	    munmap(unmapped, 4096)) {
		printf("FAIL: setup (not under ARA?)\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/file", dir);

	fd = expect("O_CREAT of a new file", open(path, O_CREAT | O_WRONLY, 0600), 0);
	expect_true("write to it", write(fd, "hello", 5) == 5);
	close(fd);
	expect("O_CREAT | O_EXCL of an existing file", open(path, O_CREAT | O_EXCL | O_WRONLY, 0600),
	       EEXIST);
	fd = expect("O_CREAT of an existing file", open(path, O_CREAT | O_RDONLY, 0600), 0);
	expect_true("it reads what was written", read(fd, buf, sizeof(buf)) == 5 && !memcmp(buf, "hello", 5));
	close(fd);
	fd = expect("O_APPEND", open(path, O_WRONLY | O_APPEND), 0);
	expect_true("appends", write(fd, "!", 1) == 1 && fstat(fd, &st) == 0 && st.st_size == 6);
	close(fd);
	fd = expect("O_TRUNC", open(path, O_WRONLY | O_TRUNC), 0);
	expect_true("truncates", fstat(fd, &st) == 0 && st.st_size == 0);
	close(fd);
	expect_true("mode of the created file", stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	expect("a missing file", open("/nonexistent/ara", O_RDONLY), ENOENT);
	expect("O_DIRECTORY on a file", open(path, O_RDONLY | O_DIRECTORY), ENOTDIR);

	snprintf(buf, sizeof(buf), "link");
	dfd = expect("the directory, O_PATH", open(dir, O_PATH | O_DIRECTORY), 0);
	expect_true("a symbolic link in it", symlinkat("file", dfd, "link") == 0);
	fd = expect("a relative path through the link", openat(dfd, "link", O_RDONLY), 0);
	expect_true("is the file", fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode));
	close(fd);
	expect("O_NOFOLLOW on the link", openat(dfd, "link", O_RDONLY | O_NOFOLLOW), ELOOP);
	fd = expect("O_PATH | O_NOFOLLOW on the link", openat(dfd, "link", O_PATH | O_NOFOLLOW), 0);
	expect_true("gives the link itself",
		    fd >= 0 && fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISLNK(st.st_mode));
	close(fd);
	fd = expect("O_PATH without O_CLOEXEC", open(path, O_PATH), 0);
	expect_true("has no FD_CLOEXEC", fcntl(fd, F_GETFD) == 0);
	close(fd);
	fd = expect("O_CLOEXEC", open(path, O_RDONLY | O_CLOEXEC), 0);
	expect_true("has FD_CLOEXEC", fcntl(fd, F_GETFD) == FD_CLOEXEC);
	close(fd);
	expect_true("a dangling link", symlinkat("new", dfd, "dangling") == 0);
	fd = expect("O_CREAT through a dangling link creates its target",
		    openat(dfd, "dangling", O_CREAT | O_WRONLY, 0600), 0);
	close(fd);
	fd = expect("O_TMPFILE", open(dir, O_TMPFILE | O_RDWR, 0600), 0);
	close(fd);
	fd = expect("openat2", (int)syscall(SYS_openat2, dfd, "file", &how, sizeof(how)), 0);
	close(fd);
	how.resolve = RESOLVE_NO_SYMLINKS;
	expect("openat2 RESOLVE_NO_SYMLINKS through a link",
	       (int)syscall(SYS_openat2, dfd, "link", &how, sizeof(how)), ELOOP);
	expect("openat2 with a short struct", (int)syscall(SYS_openat2, dfd, "file", &how, 8), EINVAL);
	expect("a path at an unmapped address", open((const char *)unmapped, O_RDONLY), EFAULT);
	memset(long_path, 'a', 8191);
	long_path[8191] = '\0';
	expect("a path longer than PATH_MAX", open(long_path, O_RDONLY), ENAMETOOLONG);
	fd = expect("/proc/self/maps", open("/proc/self/maps", O_RDONLY), 0);
	expect_true("is readable", fd >= 0 && read(fd, buf, 4) == 4);
	close(fd);
	close(dfd);

	printf("ara-evidence: open: %u checks of opens ARA performs, %u failed\n", checks, failures);
	return failures ? 1 : 0;
}
