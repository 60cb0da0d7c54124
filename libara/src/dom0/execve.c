/* SPDX-License-Identifier: Apache-2.0 */
/*
 * execve and execveat for App code: the new program runs under ARA too.
 *
 * A seccomp filter survives exec, and ARA's refuses or traps, from any
 * address but ARA's system-call page, what a program needs to start (opens,
 * executable mappings, signal calls). So the new image must again have that
 * page, at the same address, and a libara that handles what the filter
 * traps: ARA starts the program as ara-loader would, with the page in
 * place. The kernel's execve still replaces the image (the process keeps its
 * ID, parent, credentials, descriptors and every other exec rule); what ARA
 * changes is which file it executes:
 *   1. the program is opened and checked as the kernel checks it (a regular
 *      file, executable, not on a noexec mount, not in procfs), copied into
 *      a sealed memfd, hashed, and refused if ARA cannot run it (not an
 *      arm64 PIE with a dynamic linker, or code of its own would run before
 *      ARA's initialisation: loader/elf_early.c);
 *   2. a new boot block names that copy, the sealed libara and entry
 *      objects this process runs (checked to still be those files), the
 *      system-call page, the ranges the inherited filters guard, and the
 *      App's signal mask;
 *   3. a small ELF image is written to a sealed memfd: one segment, the
 *      system-call page's blob at the page's address, entered at its boot
 *      code (libara/src/region/boot.c), which maps the dynamic linker and
 *      runs it with the arguments ara-loader would give it;
 *   4. the descriptors the new image needs are made to survive exec, in a
 *      descriptor table of the calling thread's own (so no other App
 *      thread can swap them), and the image is executed.
 * Up to step 4 any failure returns -errno to the App, as execve would.
 */
#include <asm/stat.h>
#include <asm/statfs.h>
#include <elf.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/sched.h>

#include <mbedtls/sha256.h>

#include "ara/boot.h"
#include "ara/gate.h"
#include "dom0.h"
#include "elf_check.h"
#include "init.h"
#include "mem.h"
#include "svc_page.h"
#include "sys.h"
#include "thread.h"

#define EPERM 1
#define ENOENT 2
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EINVAL 22
#define X_OK 1
#define S_IFMT 0170000u
#define S_IFREG 0100000u
#define ST_NOEXEC 8
#define PROC_SUPER_MAGIC 0x9fa0
#define MFD_CLOEXEC 0x1u
#define MFD_ALLOW_SEALING 0x2u
#define MFD_EXEC 0x10u
#define ARA_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

#define PATH_BYTES 4096u
#define STRINGS_MAX (256u << 10) /* path, arguments and environment, NULs included */
#define VECTOR_MAX 16384u	 /* arguments + environment entries */
#define FD_PATH_BYTES 48u
#define WRAPPER_BLOB_OFFSET 4096u

/* The sealed objects this process runs, as initialisation found them. */
struct kept_file {
	int32_t fd;
	uint64_t dev, ino;
};
static struct kept_file kept_libara, kept_entry;

/* One exec's state: DOM0 heap. */
struct exec_req {
	char path[PATH_BYTES];
	char interp[ARA_ELF_INTERP_MAX];
	char preload[2 * FD_PATH_BYTES], app_link[FD_PATH_BYTES], boot_env[FD_PATH_BYTES];
	char *strings;
	size_t used;
	uint64_t *args, *env; /* App strings copied into strings, as pointers */
	size_t argc, envc;
	uint64_t *vec; /* the dynamic linker's argv, then its envp */
	struct ara_boot boot;
	uint8_t wrapper_head[WRAPPER_BLOB_OFFSET];
};

static void keep(struct kept_file *k, int32_t fd)
{
	struct stat st;

	if (ara_sys2(__NR_fstat, fd, &st) != 0)
		ara_fatal("fstat of a loader memfd failed", fd);
	if (ara_sys3(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC) != 0)
		ara_fatal("cannot mark a loader memfd close-on-exec", fd);
	*k = (struct kept_file){ .fd = fd, .dev = st.st_dev, .ino = st.st_ino };
}

void ara_execve_init(void)
{
	keep(&kept_libara, ara_boot_block.libara_fd);
	keep(&kept_entry, ara_boot_block.entry_fd);
}

/* Still the sealed file initialisation kept (the App can close or replace descriptors). */
static int still_kept(const struct kept_file *k)
{
	struct stat st;
	long seals = ara_sys3(__NR_fcntl, k->fd, F_GET_SEALS, 0);

	return ara_sys2(__NR_fstat, k->fd, &st) == 0 && st.st_dev == k->dev &&
	       st.st_ino == k->ino && !ara_sys_failed(seals) && (seals & ARA_SEALS) == ARA_SEALS;
}

static void refuse(const char *why, const char *what)
{
	struct ara_msg m = { .len = 0 };

	ara_msg_str(&m, "ara: execve refused: ");
	ara_msg_str(&m, why);
	if (what) {
		ara_msg_str(&m, ": ");
		ara_msg_str(&m, what);
	}
	ara_msg_str(&m, "\n");
	ara_msg_emit(&m);
}

static size_t put_dec(char *out, long v)
{
	char digits[20];
	size_t n = 0, len = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		out[len++] = digits[--n];
	out[len] = '\0';
	return len;
}

static size_t put_str(char *out, const char *s)
{
	size_t n = strlen(s);

	memcpy(out, s, n + 1);
	return n;
}

static void fd_link(char out[FD_PATH_BYTES], const char *prefix, long fd)
{
	size_t n = put_str(out, prefix);

	put_dec(out + n, fd);
}

/* Entries of the App's NULL-terminated vector (a NULL vector is empty, as Linux takes it). */
static long vector_length(uint64_t app_vec)
{
	long n = 0;

	for (; app_vec; n++) {
		uint64_t p;

		if (n == VECTOR_MAX)
			return -E2BIG;
		if (ara_copy_from_app(&p, app_vec + (uint64_t)n * sizeof(p), sizeof(p)) != ARA_OK)
			return -14; /* EFAULT */
		if (!p)
			break;
	}
	return n;
}

/*
 * The App's vector of strings into r->strings. Its pointers are read
 * again: one another App thread changed since vector_length is just
 * another string, and a new NULL ends the copy early.
 */
static long copy_vector(struct exec_req *r, uint64_t app_vec, uint64_t **out, size_t *count)
{
	long n = vector_length(app_vec);
	size_t i = 0;

	if (n < 0)
		return n;
	*out = (uint64_t *)ara_dom0_calloc((size_t)n + 1, sizeof(uint64_t));
	if (!*out)
		return -ENOMEM;
	for (; i < (size_t)n; i++) {
		uint64_t p;
		long len;

		if (ara_copy_from_app(&p, app_vec + i * sizeof(p), sizeof(p)) != ARA_OK)
			return -14; /* EFAULT */
		if (!p)
			break;
		len = ara_copy_string_from_app(r->strings + r->used, p, STRINGS_MAX - r->used);
		if (len < 0)
			return len == -36 ? -E2BIG : len;
		(*out)[i] = (uint64_t)(uintptr_t)(r->strings + r->used);
		r->used += (size_t)len + 1;
	}
	*count = i;
	return 0;
}

static int has_prefix(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return *prefix == '\0';
}

/* Opens the program as execveat would find it; checks what the kernel checks. */
static long open_program(long dirfd, const char *path, uint64_t flags, struct stat *st)
{
	char link[FD_PATH_BYTES];
	struct statfs sfs;
	long fd;

	if (path[0] == '\0') {
		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		fd_link(link, "/proc/thread-self/fd/", dirfd);
		fd = ara_sys4(__NR_openat, AT_FDCWD, link, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
	} else {
		fd = ara_sys4(__NR_openat, dirfd, path,
			      O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				      ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0),
			      0);
	}
	if (fd < 0)
		return fd;
	if (ara_sys2(__NR_fstat, fd, st) != 0 || (st->st_mode & S_IFMT) != S_IFREG ||
	    ara_sys2(__NR_fstatfs, fd, &sfs) != 0 || sfs.f_type == PROC_SUPER_MAGIC ||
	    (sfs.f_flags & ST_NOEXEC) ||
	    ara_sys4(__NR_faccessat2, fd, "", X_OK, AT_EMPTY_PATH | AT_EACCESS) != 0) {
		ara_sys1(__NR_close, fd);
		return -EACCES;
	}
	return fd;
}

static long sealed_memfd(const char *name, unsigned int extra_flags)
{
	long fd = ara_sys2(__NR_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING | extra_flags);

	if (fd == -EINVAL && extra_flags) /* a kernel without MFD_EXEC */
		fd = ara_sys2(__NR_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	return fd;
}

static long seal(long fd)
{
	return ara_sys3(__NR_fcntl, fd, F_ADD_SEALS, ARA_SEALS);
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

/* The program's bytes into a sealed memfd: what is checked is what runs. */
static long copy_program(long fd, uint64_t size)
{
	long copy = sealed_memfd(ARA_MEMFD_APP, 0);
	int64_t off = 0;

	if (copy < 0)
		return copy;
	while ((uint64_t)off < size) {
		long n = ara_sys4(__NR_sendfile, copy, fd, &off, size - (uint64_t)off);

		if (n <= 0) {
			ara_sys1(__NR_close, copy);
			return n < 0 ? n : -EACCES; /* the file shrank */
		}
	}
	if (seal(copy) != 0) {
		ara_sys1(__NR_close, copy);
		return -ENOMEM;
	}
	return copy;
}

/* Hashes the copy and finds its dynamic linker; refuses what ARA cannot run. */
static long check_program(struct exec_req *r, long copy, uint64_t size)
{
	uint64_t at;
	struct ara_elf_src src;
	enum ara_elf_err err;
	long ret = 0;

	if (size < SELFMAG) {
		refuse("not an ELF file", r->path);
		return -ENOEXEC;
	}
	at = ara_exec_stage_view(copy, size);
	if (!at)
		return -ENOMEM;
	src = (struct ara_elf_src){ .mem = (const uint8_t *)(uintptr_t)at, .fd = -1, .size = size };
	if (size >= 2 && src.mem[0] == '#' && src.mem[1] == '!') {
		refuse("scripts are not run by ARA; run their interpreter", r->path);
		ret = -ENOEXEC;
	} else {
		err = ara_elf_app_interp(&src, r->interp);
		if (err == ARA_ELF_OK)
			err = ara_elf_app_runs_after_ara(&src);
		if (err != ARA_ELF_OK) {
			refuse(ara_elf_strerror(err), r->path);
			ret = -ENOEXEC;
		} else if (mbedtls_sha256(src.mem, size, r->boot.app_sha256, 0)) {
			ret = -ENOMEM;
		}
	}
	ara_exec_stage_unview(size);
	return ret;
}

static long open_interp(const char *path)
{
	struct stat st;
	long fd = ara_sys4(__NR_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0)
		return fd;
	if (ara_sys2(__NR_fstat, fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG) {
		ara_sys1(__NR_close, fd);
		return -EACCES;
	}
	return fd;
}

/* r added to the sorted, disjoint set b->reserved, merged with what it touches. */
static long add_reserved(struct ara_boot *b, struct ara_boot_range r)
{
	uint32_t i = 0, j, n = b->reserved_count;

	while (i < n && b->reserved[i].end < r.start)
		i++;
	for (j = i; j < n && b->reserved[j].start <= r.end; j++) {
		if (b->reserved[j].start < r.start)
			r.start = b->reserved[j].start;
		if (b->reserved[j].end > r.end)
			r.end = b->reserved[j].end;
	}
	if (j == i && n == ARA_BOOT_RESERVED_MAX)
		return -E2BIG;
	/* [i, j) merge into one entry at i. */
	memmove(&b->reserved[i + 1], &b->reserved[j], (n - j) * sizeof(r));
	b->reserved[i] = r;
	b->reserved_count = n - (j - i) + 1;
	return 0;
}

/*
 * The ranges the new image must keep unmapped: the inherited ones and this
 * process's own, merged where they touch (ARA's ranges are mostly
 * neighbours), so that generations of execve do not run out of entries.
 */
static long fill_reserved(struct ara_boot *b)
{
	long ret = 0;

	b->reserved_count = 0;
	for (uint32_t i = 0; ret == 0 && i < ara_boot_block.reserved_count; i++)
		ret = add_reserved(b, ara_boot_block.reserved[i]);
	for (size_t i = 0; ret == 0 && i < ara_protected.n; i++)
		ret = add_reserved(b, (struct ara_boot_range){ ara_protected.r[i].start,
							       ara_protected.r[i].end });
	if (ret != 0)
		refuse("too many generations of execve: the inherited ranges do not fit", NULL);
	return ret;
}

/* The image the kernel executes: the system-call page's blob at its address. */
static long write_wrapper(struct exec_req *r)
{
	extern const char ara_svc_image[], ara_svc_image_end[];
	const uint64_t blob = (uint64_t)(ara_svc_image_end - ara_svc_image);
	const uint64_t page = ara_svc_page();
	Elf64_Ehdr *eh = (Elf64_Ehdr *)r->wrapper_head;
	Elf64_Phdr *ph = (Elf64_Phdr *)(r->wrapper_head + sizeof(*eh));
	long fd = sealed_memfd("ara-exec", MFD_EXEC);

	if (fd < 0)
		return fd;
	memset(r->wrapper_head, 0, sizeof(r->wrapper_head));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = page + ARA_SVC_BOOT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			      .p_offset = WRAPPER_BLOB_OFFSET, .p_vaddr = page, .p_paddr = page,
			      .p_filesz = blob, .p_memsz = blob, .p_align = ARA_PAGE_SIZE };
	ph[1] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W, .p_align = 16 };
	if (write_all(fd, r->wrapper_head, sizeof(r->wrapper_head)) != 0 ||
	    write_all(fd, ara_svc_image, blob) != 0 || seal(fd) != 0) {
		ara_sys1(__NR_close, fd);
		return -ENOMEM;
	}
	return fd;
}

static long write_boot(const struct ara_boot *b)
{
	long fd = sealed_memfd(ARA_MEMFD_BOOT, 0);

	if (fd < 0)
		return fd;
	if (write_all(fd, b, sizeof(*b)) != 0 || seal(fd) != 0) {
		ara_sys1(__NR_close, fd);
		return -ENOMEM;
	}
	return fd;
}

/*
 * GLIBC_TUNABLES with glibc.pthread.rseq=0 last and only once (ara-loader
 * sets it; libara checks no rseq area exists), in r->strings. old is the
 * App's entry or NULL.
 */
static const char *rseq_off(struct exec_req *r, const char *old)
{
	static const char name[] = "GLIBC_TUNABLES=", tunable[] = "glibc.pthread.rseq=";
	char *out = r->strings + r->used;
	size_t n = 0, room = STRINGS_MAX - r->used;

	if (room < sizeof(name) + sizeof(tunable) + 1)
		return NULL;
	n = put_str(out, name);
	for (const char *c = old ? old + sizeof(name) - 1 : ""; *c;) {
		size_t len = 0;

		while (c[len] && c[len] != ':')
			len++;
		if (len && !has_prefix(c, tunable)) {
			if (n + len + 1 + sizeof(tunable) + 1 > room)
				return NULL;
			memcpy(out + n, c, len);
			n += len;
			out[n++] = ':';
		}
		c += len + (c[len] == ':');
	}
	n += put_str(out + n, tunable);
	put_str(out + n, "0");
	r->used += n + 2;
	return out;
}

/*
 * The dynamic linker's argv, as ara-loader gives it (loader/launch.c), and
 * the App's environment with the boot block's descriptor and rseq kept off.
 */
static long build_vectors(struct exec_req *r, long app, long boot)
{
	const char *argv0 = r->argc ? (const char *)(uintptr_t)r->args[0] : r->path;
	const char *tunables = NULL;
	size_t n = 0, len;

	len = put_str(r->preload, "/proc/self/fd/");
	len += put_dec(r->preload + len, kept_entry.fd);
	len += put_str(r->preload + len, " /proc/self/fd/");
	put_dec(r->preload + len, kept_libara.fd);
	fd_link(r->app_link, "/proc/self/fd/", app);
	fd_link(r->boot_env, ARA_BOOT_ENV "=", boot);

	r->vec = (uint64_t *)ara_dom0_calloc(6 + r->argc + r->envc + 3, sizeof(uint64_t));
	if (!r->vec)
		return -ENOMEM;
	r->vec[n++] = (uint64_t)(uintptr_t)r->interp;
	r->vec[n++] = (uint64_t)(uintptr_t)"--preload";
	r->vec[n++] = (uint64_t)(uintptr_t)r->preload;
	r->vec[n++] = (uint64_t)(uintptr_t)"--argv0";
	r->vec[n++] = (uint64_t)(uintptr_t)argv0;
	r->vec[n++] = (uint64_t)(uintptr_t)r->app_link;
	for (size_t i = 1; i < r->argc; i++)
		r->vec[n++] = r->args[i];
	r->vec[n++] = 0;
	for (size_t i = 0; i < r->envc; i++) {
		const char *e = (const char *)(uintptr_t)r->env[i];

		/* Libraries' IFUNC resolvers run before ARA's initialisation. */
		if (has_prefix(e, "LD_PRELOAD=") || has_prefix(e, "LD_AUDIT=") ||
		    has_prefix(e, "LD_LIBRARY_PATH=")) {
			refuse("it would let the caller choose code that runs before ARA", e);
			return -EPERM;
		}
		if (has_prefix(e, ARA_BOOT_ENV "="))
			continue;
		if (has_prefix(e, "GLIBC_TUNABLES=")) {
			tunables = e;
			continue;
		}
		r->vec[n++] = r->env[i];
	}
	tunables = rseq_off(r, tunables);
	if (!tunables)
		return -E2BIG;
	r->vec[n++] = (uint64_t)(uintptr_t)tunables;
	r->vec[n++] = (uint64_t)(uintptr_t)r->boot_env;
	r->vec[n] = 0;
	return 0;
}

static long keep_open(long fd)
{
	return ara_sys3(__NR_fcntl, fd, F_SETFD, 0);
}

/* Step 4: past every check. Returns only if the kernel refused the image. */
static long commit(struct exec_req *r, long wrapper, const long *pass, size_t npass)
{
	long ret = ara_sys1(__NR_unshare, CLONE_FILES);

	for (size_t i = 0; ret == 0 && i < npass; i++)
		ret = keep_open(pass[i]);
	if (ret == 0) {
		size_t argv_len = 0;

		while (r->vec[argv_len])
			argv_len++;
		ret = ara_sys5(__NR_execveat, wrapper, "", r->vec, r->vec + argv_len + 1,
			       AT_EMPTY_PATH);
	}
	for (size_t i = 0; i < npass; i++)
		ara_sys3(__NR_fcntl, pass[i], F_SETFD, FD_CLOEXEC);
	return ret;
}

static long exec_request(struct exec_req *r, uint64_t dirfd, uint64_t app_path, uint64_t app_argv,
			 uint64_t app_envp, uint64_t flags, uint64_t sigmask)
{
	long prog = -1, copy = -1, interp = -1, boot = -1, wrapper = -1, ret;
	struct stat st;

	if (flags & ~(uint64_t)(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	ret = ara_copy_string_from_app(r->path, app_path, sizeof(r->path));
	if (ret < 0)
		return ret;
	r->strings = ara_dom0_calloc(STRINGS_MAX, 1);
	if (!r->strings)
		return -ENOMEM;
	ret = copy_vector(r, app_argv, &r->args, &r->argc);
	if (ret == 0)
		ret = copy_vector(r, app_envp, &r->env, &r->envc);
	if (ret != 0)
		return ret;
	if (!still_kept(&kept_libara) || !still_kept(&kept_entry)) {
		refuse("libara's or the entry object's sealed copy was closed or replaced", NULL);
		return -EBADF;
	}

	prog = open_program((long)(int)dirfd, r->path, flags, &st);
	if (prog < 0)
		return prog;
	copy = copy_program(prog, (uint64_t)st.st_size);
	ara_sys1(__NR_close, prog);
	if (copy < 0)
		return copy;
	r->boot = ara_boot_block;
	memset(r->boot.manifest_sha256, 0, sizeof(r->boot.manifest_sha256));
	memcpy(r->boot.parent_app_sha256, ara_boot_block.app_sha256, ARA_SHA256_BYTES);
	ret = check_program(r, copy, (uint64_t)st.st_size);
	if (ret == 0)
		ret = interp = open_interp(r->interp);
	if (ret >= 0)
		ret = fill_reserved(&r->boot);
	if (ret == 0) {
		r->boot.app_fd = (int32_t)copy;
		r->boot.libara_fd = kept_libara.fd;
		r->boot.entry_fd = kept_entry.fd;
		r->boot.svc_page = ara_svc_page();
		r->boot.interp_fd = (int32_t)interp;
		r->boot.sigmask = sigmask;
		ret = boot = write_boot(&r->boot);
	}
	if (ret >= 0)
		ret = wrapper = write_wrapper(r);
	if (ret >= 0)
		ret = build_vectors(r, copy, boot);
	if (ret == 0) {
		const long pass[] = { copy, kept_libara.fd, kept_entry.fd, boot, interp };

		ret = commit(r, wrapper, pass, sizeof(pass) / sizeof(pass[0]));
	}
	/* Here only if it failed: the new image never ran. */
	{
		const long opened[] = { copy, interp, boot, wrapper };

		for (size_t i = 0; i < sizeof(opened) / sizeof(opened[0]); i++)
			if (opened[i] >= 0)
				ara_sys1(__NR_close, opened[i]);
	}
	return ret;
}

static void free_request(struct exec_req *r)
{
	ara_dom0_free(r->vec);
	ara_dom0_free(r->env);
	ara_dom0_free(r->args);
	ara_dom0_free(r->strings);
	ara_dom0_free(r);
}

long ara_app_execveat(struct ara_thread *t, uint64_t dirfd, uint64_t app_path, uint64_t app_argv,
		      uint64_t app_envp, uint64_t flags, uint64_t app_sigmask)
{
	struct exec_req *r = ara_dom0_calloc(1, sizeof(*r));
	long ret;

	if (!r)
		return -ENOMEM;
	/* A vfork child's parent frees r if the image replaces this one (clone.c). */
	__atomic_store_n(&t->exec_request, r, __ATOMIC_RELEASE);
	ret = exec_request(r, dirfd, app_path, app_argv, app_envp, flags, app_sigmask);
	__atomic_store_n(&t->exec_request, NULL, __ATOMIC_RELAXED);
	free_request(r);
	return ret;
}

void ara_execve_release(struct ara_thread *t)
{
	struct exec_req *r = __atomic_exchange_n(&t->exec_request, NULL, __ATOMIC_ACQUIRE);

	if (r)
		free_request(r);
}
