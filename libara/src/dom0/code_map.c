/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Code made executable at run time (IV1): App code's mmap and mprotect with
 * PROT_EXEC, which the filter traps.
 *
 * What becomes executable must be scanned (ara/scan.h), and must stay as
 * scanned: no App thread may write it meanwhile or afterwards, through this
 * mapping or another (a shared mapping, or the file behind a private one,
 * whose unwritten pages follow the file). So ARA never makes App memory
 * executable in place. It builds a private anonymous copy of the code in a
 * staging window that is part of ARA's protected ranges (App code cannot
 * map, unmap or re-protect anything there), makes the copy read-only,
 * scans and patches it, makes it executable, and only then moves it onto
 * the App's address with mremap, replacing whatever was there:
 *   mmap(fd, PROT_EXEC)         the copy is read from the file;
 *   mmap(anonymous, PROT_EXEC)  zeros, nothing to scan;
 *   mprotect(PROT_EXEC)         the copy is read from the App's range.
 * Refused: writable and executable at once (EACCES), shared executable
 * mappings (EACCES: every writer of the object would write the code), files
 * on noexec mounts (EPERM, as the kernel does).
 */
#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/scan.h"
#include "dom0.h"
#include "init.h"
#include "kernel.h"
#include "live.h"
#include "private_files.h"
#include "sys.h"

#define PAGE 4096u

/* The flags an executable mapping may have; the others are refused (EINVAL). */
#define ALLOWED_FLAGS                                                                              \
	(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_FIXED_NOREPLACE | MAP_NORESERVE |           \
	 MAP_POPULATE | MAP_DENYWRITE | MAP_EXECUTABLE | MAP_LOCKED | MAP_STACK)

static uint64_t stage; /* the staging window, in ara_protected */

void ara_code_map_init(void)
{
	long base = ara_sys6(__NR_mmap, 0, ARA_CODE_STAGE_SIZE, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (ara_sys_failed(base))
		ara_fatal("mmap of the staging window for run-time code failed", base);
	stage = (uint64_t)base;
	ara_protect(stage, ARA_CODE_STAGE_SIZE, PROT_NONE, ARA_DOM0);
}

uint64_t ara_code_stage_start(void)
{
	return stage;
}

static void must(long r, const char *what)
{
	if (r != 0)
		ara_stop(ARA_EXIT_DOM0_CORRUPT, what, r);
}

/*
 * The staged copy at stage, len bytes, read-write: read-only, scanned,
 * patched, re-scanned once no one can write it, then given prot.
 */
static void seal(uint64_t len, int prot)
{
	size_t found = 0, patched = 0;

	must(ara_sys3(__NR_mprotect, stage, len, PROT_READ), "mprotect of staged code failed");
	if (ara_scan_por_writes((const void *)(uintptr_t)stage, len, NULL, 0, &found))
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "the POR_EL0 scan rejected staged code", (long)len);
	if (found) {
		must(ara_sys3(__NR_mprotect, stage, len, PROT_READ | PROT_WRITE),
		     "mprotect of staged code failed");
		if (ara_patch_por_writes((void *)(uintptr_t)stage, len, &patched) || patched != found)
			ara_stop(ARA_EXIT_DOM0_CORRUPT, "patching staged code failed", (long)found);
		must(ara_sys3(__NR_mprotect, stage, len, PROT_READ), "mprotect of staged code failed");
		if (ara_scan_por_writes((const void *)(uintptr_t)stage, len, NULL, 0, &found) || found)
			ara_stop(ARA_EXIT_DOM0_CORRUPT, "a POR_EL0 write survived patching", (long)found);
		if (ara_verbose) {
			struct ara_msg m = { .len = 0 };

			ara_msg_str(&m, "ara: neutralised ");
			ara_msg_dec(&m, (long)patched);
			ara_msg_str(&m, " POR_EL0 write(s) in code made executable at run time\n");
			ara_msg_emit(&m);
		}
	}
	ara_sync_icache(stage, len);
	__atomic_add_fetch(&ara_stats.scanned_words, len / ARA_INSN_BYTES, __ATOMIC_RELAXED);
	__atomic_add_fetch(&ara_stats.patched_writes, patched, __ATOMIC_RELAXED);
	/* Read-only by now, so no pin for writing can be taken: the App's key, which the copy keeps. */
	must(ara_sys4(__NR_pkey_mprotect, stage, len, prot, ARA_PKEY_DOM2),
	     "pkey_mprotect of staged code failed");
}

/*
 * len bytes of fresh, zeroed memory at the start of the staging window,
 * writable by DOM0 only. A new mapping has the App's key (0): it is made
 * inaccessible first and given DOM0's key in one more call, so that App
 * code never holds a staged page it could write, or pin for writing (an
 * O_DIRECT read the kernel would complete after the scan).
 */
static void stage_fresh(uint64_t len)
{
	long r = ara_sys6(__NR_mmap, stage, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if ((uint64_t)r != stage)
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "mmap in the staging window failed", r);
#ifdef ARA_TEST_VARIANT_STAGE_APP_KEY /* test-only (tests/variants): staged pages on the App's key */
	must(ara_sys3(__NR_mprotect, stage, len, PROT_READ | PROT_WRITE),
	     "mprotect of the staging window failed");
#else
	must(ara_sys4(__NR_pkey_mprotect, stage, len, PROT_READ | PROT_WRITE, ARA_PKEY_DOM0),
	     "pkey_mprotect of the staging window failed");
#endif
}

/*
 * Returns the first len bytes of the window to a reservation: inaccessible
 * whatever its key, and kept from App code's mapping calls by the filter.
 */
static void stage_release(uint64_t len)
{
	long r = ara_sys6(__NR_mmap, stage, len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);

	if ((uint64_t)r != stage)
		ara_stop(ARA_EXIT_DOM0_CORRUPT, "re-reserving the staging window failed", r);
}

/*
 * Moves the sealed copy onto target, replacing what is there. Returns
 * target or -errno. MREMAP_DONTUNMAP leaves the staging range mapped (and
 * empty) rather than a hole in ARA's protected ranges that the kernel could
 * hand to an App mmap before stage_release fills it.
 */
static long place(uint64_t target, uint64_t len)
{
	long r = ara_sys5(__NR_mremap, stage, len, len,
			  MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, target);

	stage_release(len);
	return r;
}

/* Reads len bytes of fd at off into the staged copy; the rest stays zero. */
static long read_file(long fd, uint64_t off, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		long n = ara_sys4(__NR_pread64, fd, stage + done, len - done, off + done);

		if (n < 0)
			return n;
		if (n == 0)
			break; /* end of file */
		done += (uint64_t)n;
	}
	return 0;
}

/* The file behind fd may be mapped executable by the App (the kernel's rules). */
static long file_mappable(long fd)
{
	struct statfs fs;
	long fl = ara_sys2(__NR_fcntl, fd, F_GETFL);

	if (fl < 0)
		return fl;
	if ((fl & O_ACCMODE) == O_WRONLY)
		return -EACCES;
	if (ara_sys2(__NR_fstatfs, fd, &fs) != 0)
		return -EBADF;
	if (fs.f_flags & ST_NOEXEC)
		return -EPERM;
	return 0;
}

struct file_read {
	long fd;
	uint64_t off, len;
};

/* In ARA's task (private_files.h): one file throughout, checked, then read into the staged copy. */
static long read_mappable(void *arg)
{
	const struct file_read *f = arg;
	long r = file_mappable(f->fd);

	return r ? r : read_file(f->fd, f->off, f->len);
}

/*
 * The App's file, checked and read into the staged copy. Its descriptor
 * number is used once, to make ARA's task's private copy of the table:
 * another App thread cannot put a file from a noexec mount behind it
 * between the check and the read.
 */
static long stage_file(long fd, uint64_t off, uint64_t len)
{
	struct file_read f = { .fd = fd, .off = off, .len = len };

	return ara_private_files_call(read_mappable, &f, fd);
}

long ara_app_mmap(uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags, uint64_t fd,
		  uint64_t off)
{
	const int anon = (flags & MAP_ANONYMOUS) != 0;
	long target, r;

	if (prot & PROT_WRITE)
		return -EACCES;
	if ((flags & 0xf) != MAP_PRIVATE)
		return -EACCES;
	if ((flags & ~(uint64_t)ALLOWED_FLAGS) || len == 0 || (addr | off) % PAGE)
		return -EINVAL;
	len = (len + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	if (len > ARA_CODE_STAGE_SIZE)
		return -ENOMEM;
#ifndef ARA_TEST_VARIANT_NO_TRAP_RANGE_CHECK
	/*
	 * The filter refuses App code's mmap on ARA's ranges before it traps
	 * anything, but a SIGSYS that App code forged (a jump into the signal
	 * entry) arrives here without that check, and ARA's own mmap is not
	 * filtered: a fixed address must be App memory.
	 */
	if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && !ara_range_is_app(&ara_protected, addr, len))
		return -EPERM;
#endif
	ara_live_lock(&ara_live->stage_lock);
	stage_fresh(len);
	/* The file first: refused, it leaves whatever the App's address holds. */
	r = anon ? 0 : stage_file((long)(int)fd, off, len);
	if (r != 0) {
		stage_release(len);
		ara_live_unlock(&ara_live->stage_lock);
		return r;
	}
	/* Then the App's address: reserved, so the kernel's choice and its refusals stand. */
	target = ara_sys6(__NR_mmap, addr, len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
				  (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)),
			  -1, 0);
	if (ara_sys_failed(target)) {
		stage_release(len);
		ara_live_unlock(&ara_live->stage_lock);
		return target;
	}
	seal(len, (int)prot);
	r = place((uint64_t)target, len);
	ara_live_unlock(&ara_live->stage_lock);
	if (r < 0)
		ara_sys2(__NR_munmap, target, len);
	return r;
}

long ara_app_mprotect(uint64_t addr, uint64_t len, uint64_t prot)
{
	long r;

	if (prot & PROT_WRITE)
		return -EACCES;
	if (addr % PAGE)
		return -EINVAL;
	len = (len + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	if (len == 0)
		return 0;
	if (len > ARA_CODE_STAGE_SIZE)
		return -ENOMEM;
	ara_live_lock(&ara_live->stage_lock);
	stage_fresh(len);
	/* What the App's range holds now. Unmapped, or not readable: refused. */
	if (ara_copy_from_app((void *)(uintptr_t)stage, addr, len) != ARA_OK) {
		stage_release(len);
		ara_live_unlock(&ara_live->stage_lock);
		return -ENOMEM;
	}
	seal(len, (int)prot);
	r = place(addr, len);
	ara_live_unlock(&ara_live->stage_lock);
	return r < 0 ? r : 0;
}

uint64_t ara_code_stage_view(long fd, uint64_t len)
{
	long r;

	len = (len + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	if (len == 0 || len > ARA_CODE_STAGE_SIZE)
		return 0;
	ara_live_lock(&ara_live->stage_lock);
	r = ara_sys6(__NR_mmap, stage, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	if ((uint64_t)r != stage) {
		stage_release(len);
		ara_live_unlock(&ara_live->stage_lock);
		return 0;
	}
	return stage;
}

void ara_code_stage_unview(uint64_t len)
{
	stage_release((len + PAGE - 1) & ~(uint64_t)(PAGE - 1));
	ara_live_unlock(&ara_live->stage_lock);
}
