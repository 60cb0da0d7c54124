/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IV1 must hold for the code mapped before the App runs (the App, ld.so,
 * libc, every library loaded with them), not only for code made executable
 * at run time (code_map.c). Scanned and patched in place, such a mapping would
 * stay a view of its file: whatever drops a private page (madvise
 * MADV_DONTNEED) brings the file's bytes back, unpatched; whatever grows or
 * moves the mapping (mremap) reaches file bytes never scanned; and a writer
 * of the file (root, or its owner) changes the pages not yet copied on
 * write, that is, code the process runs.
 *
 * So each such range is replaced, at initialisation, by a copy that is a
 * view of no file anyone can write: a memfd of this process's own, written
 * from the range's bytes at the same file offset (the offsets before it
 * stay a hole), scanned and patched there, sealed against every write, size
 * change and further seal, and mapped MAP_PRIVATE over the range with its
 * protection; its descriptor is then closed. From then on a dropped page
 * comes back as the scanned bytes, the file ends where the range does (a
 * grown mapping reaches no bytes, only SIGBUS), and the file the range came
 * from is no longer behind it.
 *
 * Why a memfd and not anonymous memory (as code_map.c makes): the copy keeps a
 * name and its offsets in /proc/self/maps. The memfd is named after the
 * file: a copy of /usr/lib/libc.so.6 shows as "/memfd:/usr/lib/libc.so.6
 * (deleted)", and a copy of one of ara-loader's sealed memfds (the App's,
 * the entry object's) keeps that memfd's name. So maps still says what the
 * code is, and RTM's module table names the files (services/rtm/modules.c).
 *
 * This runs before any App code, on the initialisation's only thread, so
 * nothing but DOM0 writes the memfd before it is sealed: the bytes scanned
 * are the bytes mapped. The kernel makes the instruction cache agree with
 * them when it first maps each page executable (new pages, never executed).
 */
#include "ara/scan.h"
#include "code_copy.h"
#include "dom0.h"
#include "kernel.h"
#include "mem.h"
#include "sys.h"

/* include/uapi/linux/memfd.h from Linux 6.3; Debian 12's cross headers are 6.1. */

#define COPY_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
/* The kernel's limit on a memfd name: NAME_MAX minus "memfd:". */
#define NAME_MAX_BYTES 249u
#define MEMFD_PREFIX "/memfd:"
#define DELETED_SUFFIX " (deleted)"
#define AFFIX_BYTES (sizeof(MEMFD_PREFIX) - 1 + sizeof(DELETED_SUFFIX) - 1)

/*
 * The copy's memfd name, NUL-terminated in out: the memfd's own name for a
 * mapping of a memfd, else the file's path; "ara-code" if that does not fit.
 */
static void copy_name(const struct ara_mapping *m, char out[NAME_MAX_BYTES + 1])
{
	const size_t pre = sizeof(MEMFD_PREFIX) - 1, suf = sizeof(DELETED_SUFFIX) - 1;
	const char *p = m->path;
	size_t n = m->path_len;

	if (n > AFFIX_BYTES && memcmp(p, MEMFD_PREFIX, pre) == 0 &&
	    memcmp(p + n - suf, DELETED_SUFFIX, suf) == 0) {
		p += pre;
		n -= AFFIX_BYTES;
	}
	if (n == 0 || n > NAME_MAX_BYTES) {
		p = "ara-code";
		n = 8;
	}
	memcpy(out, p, n);
	out[n] = '\0';
}

static void must(long r, const char *what)
{
	if (r != 0)
		ara_fatal(what, r);
}

/* Writes [start, start + len) of this process to fd at off. */
static void write_from(long fd, uint64_t start, uint64_t len, uint64_t off)
{
	uint64_t done = 0;

	while (done < len) {
		long n = ara_sys4(__NR_pwrite64, fd, start + done, len - done, off + done);

		if (n <= 0)
			ara_fatal("copying load-time code into its memfd failed", n < 0 ? n : -1);
		done += (uint64_t)n;
	}
}

/* Scans and patches the copy in fd at off, through a shared view; returns the writes patched. */
static uint64_t patch_copy(long fd, uint64_t len, uint64_t off)
{
	long view = ara_sys6(__NR_mmap, 0, (long)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (long)off);
	size_t found = 0, patched = 0;

	if (ara_sys_failed(view))
		ara_fatal("mapping a copy of load-time code to scan it failed", view);
	if (ara_scan_por_writes((const void *)(uintptr_t)view, len, NULL, 0, &found))
		ara_fatal("the POR_EL0 scan rejected a copy of load-time code", (long)len);
	if (found) {
		if (ara_patch_por_writes((void *)(uintptr_t)view, len, &patched) || patched != found)
			ara_fatal("patching a copy of load-time code failed", (long)found);
		if (ara_scan_por_writes((const void *)(uintptr_t)view, len, NULL, 0, &found) || found)
			ara_fatal("a POR_EL0 write survived patching", (long)found);
	}
	/* Unmapped before the seal: F_SEAL_WRITE refuses a file with a writable shared mapping. */
	must(ara_sys2(__NR_munmap, view, len), "unmapping a copy of load-time code failed");
	return patched;
}

uint64_t ara_code_copy(const struct ara_mapping *m, uint64_t start, uint64_t end, int prot)
{
	const uint64_t len = end - start, off = m->offset + (start - m->start);
	char name[NAME_MAX_BYTES + 1];
	uint64_t patched;
	long fd, at;

	copy_name(m, name);
	fd = ara_sys2(__NR_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
	if (ara_sys_failed(fd))
		ara_fatal("memfd_create for a copy of load-time code failed", fd);
	must(ara_sys2(__NR_ftruncate, fd, off + len), "sizing a copy of load-time code failed");
	if (!(prot & PROT_READ)) /* execute-only code must still be read to be copied */
		must(ara_sys3(__NR_mprotect, start, len, prot | PROT_READ),
		     "mprotect of load-time code to copy it failed");
	write_from(fd, start, len, off);
	patched = patch_copy(fd, len, off);
	must(ara_sys3(__NR_fcntl, fd, F_ADD_SEALS, COPY_SEALS), "sealing a copy of load-time code failed");
	at = ara_sys6(__NR_mmap, (long)start, (long)len, prot, MAP_PRIVATE | MAP_FIXED, fd, (long)off);
	if ((uint64_t)at != start)
		ara_fatal("mapping a copy of load-time code over the original failed", at);
	ara_sys1(__NR_close, fd);
	return patched;
}
