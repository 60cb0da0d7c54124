/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The files an execve gives the new image (exec_req.h). Each is made,
 * checked and sealed in ARA's task with a private descriptor table
 * (private_files.h), where no App thread can swap a descriptor between a
 * check and a use, and the task records its identity (device, inode). It
 * then lands in the App's table, which other App threads share until
 * execve.c unshares it (and which they could fill first: a descriptor of
 * their own sent ahead of the task's), so execve.c checks every number
 * against the identity its task recorded, after unsharing. Memfds ARA writes are read back after sealing (another thread
 * could have written through /proc/<pid>/task/<tid>/fd before the seal).
 *
 * The code the new image runs before its libara (the dynamic linker) is a
 * sealed copy of the bytes this process runs, kept at initialisation, not
 * its file: root (or the file's owner) could rewrite the file in place,
 * same inode, and the new image would run those bytes with the inherited
 * filter's traps answered by the boot code (libara/src/region/boot.c), so
 * before ARA exists in it and with no open check.
 */
#include "ara/domains.h"
#include "dom0.h"
#include "exec_req.h"
#include "init.h"
#include "kernel.h"
#include "maps_walk.h"
#include "mem.h"
#include "private_files.h"
#include "sys.h"

#define ARA_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
#define READ_BACK_CHUNK 1024u
#define LDSO_NAME_MAX 249u /* the kernel's limit on a memfd name: NAME_MAX minus "memfd:" */

/*
 * What execve passes on of this process: libara and the entry object as
 * the loader sealed them, and the dynamic linker this process runs, copied
 * into one read-only DOM0 mapping (one protected range; each memfd stays
 * mapped once, where ld.so or the boot code put it, and its descriptor can
 * be closed). The new image gets a sealed memfd of each copy, never a file
 * that anyone could have rewritten since this process started.
 */
enum { KEPT_LIBARA, KEPT_ENTRY, KEPT_LDSO, KEPT_OBJECTS };
struct kept_object {
	const uint8_t *bytes;
	uint64_t size;
};
static struct kept_object kept[KEPT_OBJECTS];
static uint64_t kept_ticks[KEPT_OBJECTS]; /* what reading each cost (report) */
/* The dynamic linker's file: a program must name it (ara_exec_open_ldso). */
static struct ara_file_id kept_ldso_file;

static uint64_t counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

static uint64_t page_up(uint64_t n)
{
	return (n + ARA_PAGE_SIZE - 1) & ~(uint64_t)(ARA_PAGE_SIZE - 1);
}

/* st_dev, the kernel's new_encode_dev, against /proc/self/maps's numbers. */
static bool is_file(const struct stat *st, const struct ara_file_id *id)
{
	return st->st_ino == id->inode && ((st->st_dev >> 8) & 0xfff) == id->major &&
	       ((st->st_dev & 0xff) | ((st->st_dev >> 12) & ~(uint64_t)0xff)) == id->minor;
}

static void keep_all(const long fd[KEPT_OBJECTS])
{
	uint64_t size[KEPT_OBJECTS], total = 0, off = 0;
	long at;

	for (unsigned int i = 0; i < KEPT_OBJECTS; i++) {
		struct stat st;

		if (ara_sys2(__NR_fstat, fd[i], &st) != 0 || st.st_size <= 0)
			ara_fatal("fstat of an object kept for execve failed", fd[i]);
		size[i] = (uint64_t)st.st_size;
		total += page_up(size[i]);
	}
	at = ara_sys6(__NR_mmap, 0, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ara_sys_failed(at))
		ara_fatal("cannot map memory for the objects kept for execve", at);
	for (unsigned int i = 0; i < KEPT_OBJECTS; i++) {
		const uint64_t t0 = counter();

		for (uint64_t done = 0; done < size[i];) {
			long n = ara_sys4(__NR_pread64, fd[i], (uint64_t)at + off + done,
					  size[i] - done, done);

			if (n <= 0)
				ara_fatal("cannot read an object kept for execve", n);
			done += (uint64_t)n;
		}
		kept[i] = (struct kept_object){ .bytes = (const uint8_t *)at + off, .size = size[i] };
		kept_ticks[i] = counter() - t0;
		off += page_up(size[i]);
	}
	ara_protect((uint64_t)at, total, PROT_READ, ARA_DOM0);
}

/*
 * A descriptor of the dynamic linker this process runs: the object mapped
 * where it called libara's constructor (ldso_pc). An image ara-loader
 * started runs it from its file, the program the kernel executed, which
 * the kernel keeps from every writer while it is a process's executable
 * (ETXTBSY): /proc/self/exe, read now, holds the bytes it mapped. An image
 * ARA's execve started runs the sealed copy its caller passed (interp_fd,
 * which the boot code left open), and inherits the file's identity.
 */
static long ldso_source(uint64_t ldso_pc)
{
	const struct ara_file_id mapped = ara_mapped_file(ldso_pc);
	const struct ara_boot *b = &ara_boot_block;
	struct stat st;
	long fd;

	if (b->interp_fd < 0) {
		fd = ara_sys4(__NR_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY | O_CLOEXEC, 0);
		kept_ldso_file = mapped;
	} else {
		fd = b->interp_fd;
#ifndef ARA_TEST_VARIANT_LDSO_FROM_FILE
		if ((ara_sys3(__NR_fcntl, fd, F_GET_SEALS, 0) & ARA_SEALS) != ARA_SEALS)
			ara_fatal("the dynamic linker passed by execve is not a sealed memfd", fd);
#endif
		kept_ldso_file = (struct ara_file_id){ b->interp_major, b->interp_minor,
						       b->interp_inode };
	}
	if (fd < 0 || ara_sys2(__NR_fstat, fd, &st) != 0 || !is_file(&st, &mapped))
		ara_fatal("the dynamic linker's bytes are not the object this process runs", fd);
	return fd;
}

static void report_one(struct ara_msg *m, const char *name, unsigned int i, uint64_t hz)
{
	ara_msg_str(m, name);
	ara_msg_str(m, " ");
	ara_msg_dec(m, (long)(kept[i].size >> 10));
	ara_msg_str(m, " KiB in ");
	ara_msg_dec(m, (long)(kept_ticks[i] * 1000000u / hz));
	ara_msg_str(m, " us");
}

/*
 * What keeping them cost at start-up, under ARA_VERBOSE=1
 * (docs/performance.md): each object's read, and the whole step.
 */
static void report(uint64_t ticks)
{
	struct ara_msg m = { .len = 0 };
	uint64_t hz;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	if (!hz)
		return;
	ara_msg_str(&m, "ara: kept for execve: ");
	report_one(&m, "libara", KEPT_LIBARA, hz);
	ara_msg_str(&m, ", ");
	report_one(&m, "the entry object", KEPT_ENTRY, hz);
	ara_msg_str(&m, ", ");
	report_one(&m, "the dynamic linker", KEPT_LDSO, hz);
	ara_msg_str(&m, "; ");
	ara_msg_dec(&m, (long)(ticks * 1000000u / hz));
	ara_msg_str(&m, " us in all\n");
	ara_msg_emit(&m);
}

void ara_execve_init(uint64_t ldso_pc)
{
	const uint64_t t0 = counter();
	long fd[KEPT_OBJECTS];

	fd[KEPT_LIBARA] = ara_boot_block.libara_fd;
	fd[KEPT_ENTRY] = ara_boot_block.entry_fd;
	fd[KEPT_LDSO] = ldso_source(ldso_pc);
	keep_all(fd);
	ara_sys1(__NR_close, fd[KEPT_LDSO]);
	if (ara_verbose)
		report(counter() - t0);
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
	if ((uint64_t)again.st_size > ARA_CODE_STAGE_SIZE) {
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

struct sealed_job {
	const char *name;
	bool executable;
	const void *a, *b;
	uint64_t alen, blen;
	struct ara_exec_file made; /* the memfd's identity, taken in the task */
};

/* In ARA's task (private_files.h): the memfd, written, sealed and read back, or -errno. */
static long sealed_job_run(void *arg)
{
	struct sealed_job *j = arg;
	long fd = new_memfd(j->name, j->executable), ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, j->a, j->alen);
	if (ret == 0)
		ret = write_all(fd, j->b, j->blen);
	if (ret == 0)
		ret = seal(fd);
	if (ret == 0 &&
	    (ara_sys3(__NR_lseek, fd, 0, SEEK_END) != (long)(j->alen + j->blen) ||
	     !reads_back(fd, 0, j->a, j->alen) || !reads_back(fd, j->alen, j->b, j->blen))) {
		ara_exec_refuse("a file ARA wrote changed before it was sealed", j->name);
		ret = -EPERM;
	}
	if (ret == 0)
		ret = ara_exec_identity(&j->made, fd);
	if (ret != 0) {
		ara_sys1(__NR_close, fd);
		return ret;
	}
	return fd;
}

long ara_exec_sealed(struct ara_exec_file *out, const char *name, bool executable, const void *a,
		     uint64_t alen, const void *b, uint64_t blen)
{
	struct sealed_job j = {
		.name = name, .executable = executable, .a = a, .alen = alen, .b = b, .blen = blen
	};
	long fd = ara_private_files_open(sealed_job_run, &j, -1, 1);

	if (fd < 0)
		return fd;
	return ara_exec_received(out, fd, &j.made);
}

long ara_exec_identity(struct ara_exec_file *f, long fd)
{
	struct stat st;

	if (ara_sys2(__NR_fstat, fd, &st) != 0)
		return -EBADF;
	*f = (struct ara_exec_file){ .fd = -1, .dev = st.st_dev, .ino = st.st_ino };
	return 0;
}

long ara_exec_received(struct ara_exec_file *out, long fd, const struct ara_exec_file *made)
{
#ifdef ARA_TEST_VARIANT_IDENTITY_BY_NUMBER
	/* Test-only: whatever the received number names now. */
	(void)made;
	if (ara_exec_identity(out, fd) != 0) {
		ara_sys1(__NR_close, fd);
		return -EBADF;
	}
	out->fd = fd;
	return 0;
#else
	*out = (struct ara_exec_file){ .fd = fd, .dev = made->dev, .ino = made->ino };
	return 0;
#endif
}

long ara_exec_copy_program(long fd, uint64_t size)
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
	/* Of the size ARA copied: another thread could reopen it (.../task/<tid>/fd) and grow it before the seal. */
	if (ret == 0 && ara_sys3(__NR_lseek, copy, 0, SEEK_END) != (long)size) {
		ara_exec_refuse("ARA's copy of the program changed before it was sealed", NULL);
		ret = -EPERM;
	}
	if (ret != 0) {
		ara_sys1(__NR_close, copy);
		return ret;
	}
	return copy;
}

long ara_exec_open_ldso(struct ara_exec_req *r)
{
	struct stat st;
	long at = ara_sys4(__NR_openat, AT_FDCWD, r->interp, O_PATH | O_CLOEXEC, 0);
	bool same;

	if (at < 0)
		return at;
	same = ara_sys2(__NR_fstat, at, &st) == 0 && is_file(&st, &kept_ldso_file);
	if (!same) {
		ara_sys1(__NR_close, at);
		ara_exec_refuse("the program names a dynamic linker other than this process's",
				r->interp);
		return -ENOEXEC;
	}
	r->boot.interp_major = kept_ldso_file.major;
	r->boot.interp_minor = kept_ldso_file.minor;
	r->boot.interp_inode = kept_ldso_file.inode;
#ifdef ARA_TEST_VARIANT_LDSO_FROM_FILE
	/* Test-only: the new image runs the file, as it is when execve opens it. */
	{
		long fd = reopen(at, O_RDONLY | O_CLOEXEC);

		ara_sys1(__NR_close, at);
		if (fd < 0)
			return fd;
		if (ara_exec_identity(&r->ldso, fd) != 0) {
			ara_sys1(__NR_close, fd);
			return -EBADF;
		}
		r->ldso.fd = fd;
		if (r->ldso.dev != st.st_dev || r->ldso.ino != st.st_ino) {
			ara_exec_file_close(&r->ldso);
			return -EACCES;
		}
		return 0;
	}
#else
	/*
	 * The new image runs the bytes this process runs: the file is not read
	 * again. The memfd is named after the path, as code copies are (code_copy.c).
	 */
	ara_sys1(__NR_close, at);
	return ara_exec_sealed(&r->ldso, strlen(r->interp) <= LDSO_NAME_MAX ? r->interp : "ara-ldso",
			       false, kept[KEPT_LDSO].bytes, kept[KEPT_LDSO].size, NULL, 0);
#endif
}

long ara_exec_kept_objects(struct ara_exec_req *r)
{
	long ret = ara_exec_sealed(&r->libara, ARA_MEMFD_LIBARA, false, kept[KEPT_LIBARA].bytes,
				   kept[KEPT_LIBARA].size, NULL, 0);

	if (ret == 0)
		ret = ara_exec_sealed(&r->entry, ARA_MEMFD_ENTRY, false, kept[KEPT_ENTRY].bytes,
				      kept[KEPT_ENTRY].size, NULL, 0);
	return ret;
}
