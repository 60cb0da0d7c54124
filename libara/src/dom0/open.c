/* SPDX-License-Identifier: Apache-2.0 */
/*
 * openat and openat2 for App code (IV4), which the filter traps: some files
 * give what a denied system call would (/proc/<pid>/mem reads and writes any
 * mapping ignoring keys, /dev/userfaultfd makes a userfaultfd), expose
 * DOM0's state (a thread's registers while it runs inside ARA) or step out
 * of the process (physical memory, a program the kernel starts as root).
 * Which ones is the table of file classes (file_class.c, docs/files.md),
 * told by what the kernel says about the opened object, never by the path.
 *
 * The check must hold for the descriptor the App gets, and no other App
 * thread may use a descriptor before it is checked (descriptor numbers are
 * easy to guess). So ARA first opens the path with O_PATH, which gives a
 * descriptor that cannot read or write, asks the kernel about the object
 * it names (fstatfs, statx, and for procfs and sysfs the kernel's name of
 * it), and only then opens that same object for the App through
 * /proc/thread-self/fd/N, which cannot name another file whatever happens
 * to the path meanwhile. The path is walked in the App's thread (so that
 * /proc/thread-self is that thread); the check and the reopen happen in
 * ARA's task with a private copy of the descriptor table (private_files.h),
 * where no App thread can put another object behind N between the two.
 * Whatever N held when the copy was made is what is checked and what is
 * reopened; only the result comes back. An O_PATH open of a refused class is refused too;
 * one of a class that may only be read is allowed, and reopening it for
 * writing through /proc/self/fd comes back here. A file the App creates is
 * made with O_EXCL, so it is new, in a directory held and checked first.
 *
 * The TPM has a class of its own: with one, App code could have the TPM
 * quote a binding of its own key, and the tpm evidence backend rests on
 * only ARA asking (docs/provisioning.md). Linux numbers them
 * (drivers/char/tpm/tpm-chip.c, tpm-interface.c): /dev/tpm0 is the misc
 * device 10:224; every other tpmN and every tpmrmN has the major of the one
 * "tpm" region in /proc/devices.
 */
#include "dom0.h"
#include "file_class.h"
#include "kernel.h"
#include "mem.h"
#include "private_files.h"
#include "sys.h"

#define ARA_PATH_MAX 4096u
/* The flags the kernel keeps with O_PATH (fs/internal.h). */
#define O_PATH_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define ROUNDS 40 /* dangling links followed to create a file: the kernel's MAXSYMLINKS */

/* The major of the TPM driver's character devices (0: none registered). */
static uint32_t tpm_major;

/* "  NNN name" of /proc/devices: NNN if name is the word given, else 0. */
static uint32_t major_of(const char *line, size_t len, const char *name)
{
	size_t i = 0, n = 0;
	uint32_t major = 0;

	while (i < len && line[i] == ' ')
		i++;
	for (; i < len && line[i] >= '0' && line[i] <= '9' && major < 100000; i++)
		major = major * 10 + (uint32_t)(line[i] - '0');
	if (i == len || line[i] != ' ')
		return 0;
	i++;
	while (name[n] && i + n < len && line[i + n] == name[n])
		n++;
	return name[n] == '\0' && i + n == len ? major : 0;
}

void ara_open_init(void)
{
	static char text[8192];
	long fd = ara_sys4(__NR_openat, AT_FDCWD, "/proc/devices", O_RDONLY | O_CLOEXEC, 0);
	long got = 0, r;
	size_t start = 0;

	if (fd < 0)
		ara_fatal("cannot open /proc/devices", fd);
	while ((r = ara_sys3(__NR_read, fd, text + got, sizeof(text) - 1 - (size_t)got)) > 0)
		got += r;
	ara_sys1(__NR_close, fd);
	if (r < 0 || (size_t)got == sizeof(text) - 1)
		ara_fatal("cannot read /proc/devices", r);
	/* The character devices come first, up to "Block devices:". */
	for (size_t i = 0; i <= (size_t)got; i++) {
		if (i < (size_t)got && text[i] != '\n')
			continue;
		if (i - start >= 14 && memcmp(text + start, "Block devices:", 14) == 0)
			break;
		if (!tpm_major)
			tpm_major = major_of(text + start, i - start, "tpm");
		start = i + 1;
	}
}

/* May App code open the object behind an O_PATH descriptor for access? Fails closed. */
static int denied(long probe, enum ara_file_access access)
{
	struct statfs fs;
	struct statx stx;
	struct ara_file f = { .tpm_major = tpm_major };
	char link[48], name[ARA_PATH_MAX];
	enum ara_file_class c;

	if (ara_sys5(__NR_statx, probe, "", AT_EMPTY_PATH, STATX_TYPE, &stx) != 0 ||
	    !(stx.stx_mask & STATX_TYPE))
		return 1;
	if (ara_sys2(__NR_fstatfs, probe, &fs) != 0)
		return 1;
	f.fs_magic = (uint64_t)fs.f_type;
	f.type = stx.stx_mode & S_IFMT;
	f.rdev_major = stx.stx_rdev_major;
	f.rdev_minor = stx.stx_rdev_minor;
	if (ara_file_needs_name(f.fs_magic)) {
		long n;

		/* this thread's table, which need not be the process's (clone without CLONE_FILES) */
		ara_put_fd(link, "/proc/thread-self/fd/", probe);
		n = ara_sys4(__NR_readlinkat, AT_FDCWD, link, name, sizeof(name));
		if (n <= 0 || (size_t)n >= sizeof(name))
			return 1;
		f.name = name;
		f.name_len = (size_t)n;
	}
	c = ara_file_classify(&f);
#ifdef ARA_TEST_VARIANT_NO_FILE_POLICY
	/* The variant knows only what the check knew before the file classes. */
	(void)access;
	return c == ARA_FILE_DEV_TPM || c == ARA_FILE_PROC_MEMORY;
#else
	return !ara_file_class_allows(c, access);
#endif
}

static long open_path(long dirfd, const char *path, const struct open_how *how, int use_openat2)
{
	if (use_openat2)
		return ara_sys4(__NR_openat2, dirfd, path, how, sizeof(*how));
	return ara_sys4(__NR_openat, dirfd, path, (long)how->flags, (long)how->mode);
}

struct use_job {
	long probe;
	enum ara_file_access access;
	const char *name; /* a new file's name in the directory probe; NULL: reopen probe */
	const struct open_how *how;
	int use_openat2;
};

/*
 * In ARA's task (private_files.h): the object behind probe checked, then
 * used: reopened with the App's flags, given as it is (O_PATH), or, for a
 * directory, the App's new file made in it. Returns a descriptor of the
 * task's table, or -errno.
 */
static long use_job_run(void *arg)
{
	const struct use_job *j = arg;
	char link[48];

	if (denied(j->probe, j->access))
		return -EACCES;
	if (j->name)
		return open_path(j->probe, j->name, j->how, j->use_openat2);
	if (j->how->flags & O_PATH)
		return ara_sys3(__NR_fcntl, j->probe, F_DUPFD_CLOEXEC, 0);
	/*
	 * The file exists: no O_CREAT. .../fd/N is itself a link, so no
	 * O_NOFOLLOW either; the probe honoured it, and opening the symbolic
	 * link it then holds fails with ELOOP, as the App's open would have.
	 */
	ara_put_fd(link, "/proc/thread-self/fd/", j->probe);
	return ara_sys4(__NR_openat, AT_FDCWD, link,
			(long)(j->how->flags & ~(uint64_t)(O_CREAT | O_NOFOLLOW)), 0);
}

/*
 * The object behind probe, an O_PATH descriptor of the App's table, checked
 * for access and used (use_job_run) in ARA's task: the App's descriptor, or
 * -errno. probe is closed.
 */
static long check_and_use(long probe, enum ara_file_access access, const char *name,
			  const struct open_how *how, int use_openat2)
{
	const struct use_job j = {
		.probe = probe, .access = access, .name = name, .how = how, .use_openat2 = use_openat2
	};
	/* Close-on-exec until it takes the probe's number: no exec meanwhile may inherit it. */
	long fd = ara_private_files_open(use_job_run, (void *)&j, probe, 1), r;

	if (fd < 0) {
		ara_sys1(__NR_close, probe);
		return fd;
	}
	/* The probe's number was the lowest free one when the open began: the kernel's open would have returned it. */
	r = ara_sys3(__NR_dup3, fd, probe, (how->flags & O_CLOEXEC) ? O_CLOEXEC : 0);
	ara_sys1(__NR_close, fd);
	if (r < 0) /* App code closed or moved the probe meanwhile */
		ara_sys1(__NR_close, probe);
	return r;
}

/*
 * path names a symbolic link whose target does not exist (O_CREAT found
 * nothing, then O_EXCL found something): rewrites path into the link's
 * target, as the kernel would follow it to create the file. 0 if it did,
 * 1 if path is no link (a file appeared meanwhile: probe again), or -errno.
 */
static long follow_dangling(long dirfd, char path[ARA_PATH_MAX], const struct open_how *how,
			    int use_openat2)
{
	const struct open_how link_how = { .flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
					   .mode = 0,
					   .resolve = how->resolve };
	char target[ARA_PATH_MAX];
	size_t dir_len = 0, len = 0;
	long link = open_path(dirfd, path, &link_how, use_openat2), n;

	if (link < 0)
		return link;
	n = ara_sys4(__NR_readlinkat, link, "", target, sizeof(target));
	ara_sys1(__NR_close, link);
	if (n < 0)
		return 1;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	while (path[len])
		len++;
	if (target[0] != '/') /* relative to the link's directory */
		for (size_t i = 0; i < len; i++)
			if (path[i] == '/')
				dir_len = i + 1;
	if (dir_len + (size_t)n >= ARA_PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(path + dir_len, target, (size_t)n);
	path[dir_len + (size_t)n] = '\0';
	return 0;
}

/*
 * Creates path's last component (how has O_CREAT and O_EXCL) in the
 * directory the rest of path names, once that directory is held with O_PATH
 * and checked: a file system that makes a file on open (efivarfs: a firmware
 * variable) may not get one from App code. The file is made relative to the
 * descriptor, so in the directory checked, whatever happens to the path.
 */
static long create_checked(long dirfd, const char *path, const struct open_how *how, int use_openat2)
{
	const struct open_how dir_how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
					  .mode = 0,
					  .resolve = how->resolve };
	char dir[ARA_PATH_MAX];
	size_t len = 0, slash = 0, has_slash = 0;
	long dir_fd;

	while (path[len]) {
		if (path[len] == '/') {
			slash = len;
			has_slash = 1;
		}
		len++;
	}
	/* "" or a trailing slash: the kernel makes no file (ENOENT, EISDIR). */
	if (len == 0 || (has_slash && slash == len - 1))
		return open_path(dirfd, path, how, use_openat2);
	if (!has_slash) {
		dir[0] = '.';
		dir[1] = '\0';
	} else {
		size_t dir_len = slash ? slash : 1; /* "/name": the root */

		memcpy(dir, path, dir_len);
		dir[dir_len] = '\0';
	}
	dir_fd = open_path(dirfd, dir, &dir_how, use_openat2);
	if (dir_fd < 0)
		return dir_fd;
	return check_and_use(dir_fd, ARA_ACCESS_WRITE, path + (has_slash ? slash + 1 : 0), how,
			     use_openat2);
}

static long open_checked(long dirfd, char path[ARA_PATH_MAX], const struct open_how *how,
			 int use_openat2)
{
	const uint64_t flags = how->flags;
	struct open_how probe_how = { .flags = O_PATH | O_CLOEXEC | (flags & (O_NOFOLLOW | O_DIRECTORY)),
				      .mode = 0,
				      .resolve = how->resolve };
	struct open_how create = *how;

	/* An unnamed new file: no interface file system makes one (no ->tmpfile). */
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return open_path(dirfd, path, how, use_openat2);
	create.flags |= O_EXCL;
	if ((flags & O_CREAT) && (flags & O_EXCL)) /* the App wants a new file */
		return create_checked(dirfd, path, how, use_openat2);
	for (int round = 0; round < ROUNDS; round++) {
		long probe = open_path(dirfd, path, &probe_how, use_openat2), fd;

		if (probe == -ENOENT && (flags & O_CREAT)) {
			fd = create_checked(dirfd, path, &create, use_openat2);
			if (fd != -EEXIST)
				return fd;
			/* A dangling link (O_EXCL does not follow it), or a file made meanwhile. */
			fd = follow_dangling(dirfd, path, how, use_openat2);
			if (fd < 0)
				return fd;
			continue;
		}
		if (probe < 0)
			return probe;
		return check_and_use(probe, ara_file_access_of(flags), NULL, how, use_openat2);
	}
	return -ELOOP;
}

long ara_app_openat(uint64_t dirfd, uint64_t app_path, uint64_t flags, uint64_t mode)
{
	char path[ARA_PATH_MAX];
	struct open_how how = { .flags = flags & 0xffffffffu, .mode = mode & 0xffffffffu, .resolve = 0 };
	long r = ara_copy_string_from_app(path, app_path, ARA_PATH_MAX);

	if (r < 0)
		return r;
#ifndef ARA_TEST_VARIANT_OPATH_FLAGS_KEPT /* test-only (tests/variants): the flags as given */
	/*
	 * The kernel's openat drops every other flag when O_PATH is set
	 * (build_open_how): so must the check, or O_PATH | O_CREAT | O_EXCL
	 * would be checked as a new file in its directory, and O_PATH |
	 * O_TMPFILE not at all, while the kernel opens the path itself.
	 */
	if (how.flags & O_PATH)
		how.flags &= O_PATH_FLAGS;
#endif
	return open_checked((long)(int)dirfd, path, &how, 0);
}

long ara_app_openat2(uint64_t dirfd, uint64_t app_path, uint64_t app_how, uint64_t size)
{
	char path[ARA_PATH_MAX];
	struct open_how how;
	long r;

	if (size < sizeof(how))
		return -EINVAL;
	if (size > sizeof(how)) {
		/* A later, larger struct: its extra bytes must be zero (we know none of them). */
		uint8_t extra[64];

		if (size - sizeof(how) > sizeof(extra))
			return -E2BIG;
		if (ara_copy_from_app(extra, app_how + sizeof(how), size - sizeof(how)) != ARA_OK)
			return -EFAULT;
		for (size_t i = 0; i < size - sizeof(how); i++)
			if (extra[i])
				return -E2BIG;
	}
	if (ara_copy_from_app(&how, app_how, sizeof(how)) != ARA_OK)
		return -EFAULT;
	r = ara_copy_string_from_app(path, app_path, ARA_PATH_MAX);
	if (r < 0)
		return r;
	return open_checked((long)(int)dirfd, path, &how, 1);
}
