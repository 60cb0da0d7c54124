/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The files an execve gives the new image (exec_req.h). Each is a
 * descriptor in the App's table, which other App threads share until
 * execve.c unshares it: so each is recorded (device, inode) when ARA opens
 * or creates it, and execve.c checks every one again after unsharing.
 * Memfds ARA writes are read back after sealing (another thread could have
 * written through /proc/<pid>/task/<tid>/fd before the seal).
 */
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/fcntl.h>
#include <linux/mman.h>

#include "ara/domains.h"
#include "dom0.h"
#include "exec_req.h"
#include "init.h"
#include "maps_walk.h"
#include "mem.h"
#include "sys.h"

#define EPERM 1
#define ENOENT 2
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EINVAL 22
#define ENOEXEC 8
#define X_OK 1
#define S_IFMT 0170000u
#define S_IFREG 0100000u
#define ST_NOEXEC 8
#define PROC_SUPER_MAGIC 0x9fa0
#define MFD_CLOEXEC 0x1u
#define MFD_ALLOW_SEALING 0x2u
#define MFD_EXEC 0x10u
#define ARA_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
#define READ_BACK_CHUNK 1024u

/*
 * What execve passes on of this process: libara and the entry object as
 * the loader sealed them (copied into read-only DOM0 memory, so that each
 * memfd stays mapped once, where ld.so put it, and its descriptor can be
 * closed), and the dynamic linker it runs.
 */
struct kept_object {
	const uint8_t *bytes;
	uint64_t size;
};
static struct kept_object kept_libara, kept_entry;
static struct ara_file_id kept_ldso;

static void keep(struct kept_object *k, int32_t fd)
{
	struct stat st;
	uint64_t len, done = 0;
	long at;

	if (ara_sys2(__NR_fstat, fd, &st) != 0 || st.st_size <= 0)
		ara_fatal("fstat of a loader memfd failed", fd);
	len = ((uint64_t)st.st_size + ARA_PAGE_SIZE - 1) & ~(uint64_t)(ARA_PAGE_SIZE - 1);
	at = ara_sys6(__NR_mmap, 0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ara_sys_failed(at))
		ara_fatal("cannot map memory for a copy of a loader memfd", at);
	while (done < (uint64_t)st.st_size) {
		long n = ara_sys4(__NR_pread64, fd, at + done, (uint64_t)st.st_size - done, done);

		if (n <= 0)
			ara_fatal("cannot read a loader memfd", n);
		done += (uint64_t)n;
	}
	ara_protect((uint64_t)at, len, PROT_READ, ARA_DOM0);
	*k = (struct kept_object){ .bytes = (const uint8_t *)at, .size = (uint64_t)st.st_size };
}

void ara_execve_init(uint64_t ldso_pc)
{
	/* Where the dynamic linker called libara's constructor (ctor.S). */
	kept_ldso = ara_mapped_file(ldso_pc);
	keep(&kept_libara, ara_boot_block.libara_fd);
	keep(&kept_entry, ara_boot_block.entry_fd);
}

static long identify(struct ara_exec_file *f, long fd)
{
	struct stat st;

	if (ara_sys2(__NR_fstat, fd, &st) != 0) {
		ara_sys1(__NR_close, fd);
		return -EBADF;
	}
	*f = (struct ara_exec_file){ .fd = fd, .dev = st.st_dev, .ino = st.st_ino };
	return 0;
}

bool ara_exec_file_still(const struct ara_exec_file *f)
{
	struct stat st;

	return ara_sys2(__NR_fstat, f->fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

void ara_exec_file_close(struct ara_exec_file *f)
{
	if (f->fd >= 0)
		ara_sys1(__NR_close, f->fd);
	f->fd = -1;
}

/* A descriptor opened again from /proc/thread-self/fd, to read: ENOENT etc. as the kernel's. */
static long reopen(long fd, int flags)
{
	char link[ARA_EXEC_FD_PATH_BYTES];

	ara_put_fd(link, "/proc/thread-self/fd/", fd);
	return ara_sys4(__NR_openat, AT_FDCWD, link, flags, 0);
}

long ara_exec_open_program(struct ara_exec_req *r, long dirfd, uint64_t flags, uint64_t *size)
{
	struct statfs sfs;
	struct stat st, again;
	long at, fd;

	/* First without opening the file itself (a device would see an open). */
	if (r->path[0] == '\0') {
		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if (dirfd < 0)
			return dirfd == AT_FDCWD ? -EACCES : -EBADF;
		at = reopen(dirfd, O_PATH | O_CLOEXEC);
	} else {
		at = ara_sys4(__NR_openat, dirfd, r->path,
			      O_PATH | O_CLOEXEC | ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	}
	if (at < 0)
		return at;
	if (ara_sys2(__NR_fstat, at, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG ||
	    ara_sys2(__NR_fstatfs, at, &sfs) != 0 || sfs.f_type == PROC_SUPER_MAGIC ||
	    (sfs.f_flags & ST_NOEXEC) ||
	    ara_sys4(__NR_faccessat2, at, "", X_OK, AT_EMPTY_PATH | AT_EACCESS) != 0) {
		ara_sys1(__NR_close, at);
		return -EACCES;
	}
	/* ARA copies what runs: a program it cannot read (mode --x) is refused. */
	fd = reopen(at, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ara_sys1(__NR_close, at);
	if (fd < 0)
		return fd;
	if (ara_sys2(__NR_fstat, fd, &again) != 0 || again.st_dev != st.st_dev ||
	    again.st_ino != st.st_ino) {
		ara_sys1(__NR_close, fd);
		return -EACCES;
	}
	if ((uint64_t)again.st_size > ARA_EXEC_STAGE_SIZE) {
		ara_sys1(__NR_close, fd);
		return -ENOMEM; /* larger than ARA can check in its staging window */
	}
	*size = (uint64_t)again.st_size;
	return fd;
}

static long new_memfd(const char *name, bool executable)
{
	const unsigned int flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
	long fd = ara_sys2(__NR_memfd_create, name, flags | (executable ? MFD_EXEC : 0));

	if (fd == -EINVAL && executable) /* a kernel without MFD_EXEC */
		fd = ara_sys2(__NR_memfd_create, name, flags);
	return fd;
}

static long seal(long fd)
{
	return ara_sys3(__NR_fcntl, fd, F_ADD_SEALS, ARA_SEALS) == 0 ? 0 : -ENOMEM;
}

static long write_all(long fd, const void *buf, uint64_t len)
{
	const uint8_t *p = buf;

	while (len) {
		long w = ara_sys3(__NR_write, fd, p, len);

		if (w <= 0)
			return w < 0 ? w : -ENOMEM;
		p += w, len -= (uint64_t)w;
	}
	return 0;
}

/* The sealed file at off holds want. */
static bool reads_back(long fd, uint64_t off, const uint8_t *want, uint64_t len)
{
	uint8_t chunk[READ_BACK_CHUNK];

	while (len) {
		uint64_t n = len < sizeof(chunk) ? len : sizeof(chunk);

		if (ara_sys4(__NR_pread64, fd, chunk, n, off) != (long)n || memcmp(chunk, want, n))
			return false;
		want += n, off += n, len -= n;
	}
	return true;
}

long ara_exec_sealed(struct ara_exec_file *out, const char *name, bool executable, const void *a,
		     uint64_t alen, const void *b, uint64_t blen)
{
	long fd = new_memfd(name, executable), ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, a, alen);
	if (ret == 0)
		ret = write_all(fd, b, blen);
	if (ret == 0)
		ret = seal(fd);
	if (ret == 0 && (ara_sys3(__NR_lseek, fd, 0, 2 /* SEEK_END */) != (long)(alen + blen) ||
			 !reads_back(fd, 0, a, alen) || !reads_back(fd, alen, b, blen))) {
		ara_exec_refuse("a file ARA wrote changed before it was sealed", name);
		ret = -EPERM;
	}
	if (ret != 0) {
		ara_sys1(__NR_close, fd);
		return ret;
	}
	return identify(out, fd);
}

long ara_exec_copy_program(struct ara_exec_req *r, long fd, uint64_t size)
{
	long copy = new_memfd(ARA_MEMFD_APP, false), ret = 0;
	int64_t off = 0;

	if (copy < 0)
		return copy;
	while (ret == 0 && (uint64_t)off < size) {
		long n = ara_sys4(__NR_sendfile, copy, fd, &off, size - (uint64_t)off);

		if (n <= 0)
			ret = n < 0 ? n : -EACCES; /* the file shrank */
	}
	/* What is hashed and checked (execve.c) is this sealed copy, after the seal. */
	if (ret == 0)
		ret = seal(copy);
	if (ret != 0) {
		ara_sys1(__NR_close, copy);
		return ret;
	}
	return identify(&r->program, copy);
}

long ara_exec_open_ldso(struct ara_exec_req *r)
{
	struct stat st;
	long at = ara_sys4(__NR_openat, AT_FDCWD, r->interp, O_PATH | O_CLOEXEC, 0), fd;
	bool same;

	if (at < 0)
		return at;
	same = ara_sys2(__NR_fstat, at, &st) == 0 && st.st_ino == kept_ldso.inode &&
	       ((st.st_dev >> 8) & 0xfff) == kept_ldso.major &&
	       ((st.st_dev & 0xff) | ((st.st_dev >> 12) & ~(uint64_t)0xff)) == kept_ldso.minor;
	if (!same) {
		ara_sys1(__NR_close, at);
		ara_exec_refuse("the program names a dynamic linker other than this process's",
				r->interp);
		return -ENOEXEC;
	}
	fd = reopen(at, O_RDONLY | O_CLOEXEC);
	ara_sys1(__NR_close, at);
	if (fd < 0)
		return fd;
	if (identify(&r->ldso, fd) != 0)
		return -EBADF;
	if (r->ldso.dev != st.st_dev || r->ldso.ino != st.st_ino) {
		ara_exec_file_close(&r->ldso);
		return -EACCES;
	}
	return 0;
}

long ara_exec_kept_objects(struct ara_exec_req *r)
{
	long ret = ara_exec_sealed(&r->libara, ARA_MEMFD_LIBARA, false, kept_libara.bytes,
				   kept_libara.size, NULL, 0);

	if (ret == 0)
		ret = ara_exec_sealed(&r->entry, ARA_MEMFD_ENTRY, false, kept_entry.bytes,
				      kept_entry.size, NULL, 0);
	return ret;
}
