/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IV1 on load-time code (docs/security.md, class 3): the code ld.so mapped
 * before the App ran, which ARA scanned and patched, is brought back,
 * extended or rewritten past the scan, and a POR_EL0 gadget run from it with
 * a row that reads DOM0, then DOM0 read. Each attack runs in a forked child.
 * Under ARA that code is a sealed, scanned copy that no file is behind
 * (libara/src/dom0/code_copy.c): the gadget stays a NOP, or cannot be
 * reached, and the read faults with DOM2's row. Against the no-code-copy
 * variant (load-time code patched in place, still views of their files)
 * each gets through and prints DOM0's canary.
 *
 *   code_dontneed         madvise(MADV_DONTNEED) on this App's page whose
 *                         POR_EL0 write ARA patched (attack_code_gadget.S):
 *                         the page comes back from the file, unpatched
 *   code_dontneed_locked  the same with MADV_DONTNEED_LOCKED
 *   code_mremap_grow      mremap grows (and moves) the code mapping of a
 *                         library (code_victim.c) over the file's data,
 *                         where a gadget waits that no scan saw
 *   code_file_write       the library's file rewritten while the App runs
 *                         (root or the file's owner can): the code of a
 *                         function of it becomes the gadget
 *
 * usage: attack_code ATTACK
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara/domains.h"
#include "attack.h"
#include "code_victim.h"

#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24 /* Linux 5.18 */
#endif

#define PAGE 4096u

uint64_t ara_test_code_gadget(uint64_t row); /* attack_code_gadget.S */

/*
 * The gadget's words, written at run time: this App's read-only data shares
 * its executable segment, so ARA would neutralise the gadget as a constant.
 */
static uint32_t gadget[3];
static volatile uint32_t msr_rt_field = 0x280; /* op2 = 4, Rt = x0 */

struct mapping {
	unsigned long long start, end, offset;
};

/* The mapping that holds addr, from /proc/self/maps; 0 if found. */
static int mapping_of(const void *addr, struct mapping *out)
{
	const unsigned long long a = (uintptr_t)addr;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int missing = 1;

	while (f && missing && fgets(line, sizeof(line), f)) {
		struct mapping m;

		if (sscanf(line, "%llx-%llx %*s %llx", &m.start, &m.end, &m.offset) == 3 &&
		    m.start <= a && a < m.end) {
			*out = m;
			missing = 0;
		}
	}
	if (f)
		fclose(f);
	return missing;
}

static __attribute__((noreturn)) void fail(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	_exit(2);
}

/* Runs code as a POR_EL0 gadget, then reads DOM0 (attack.h). */
static __attribute__((noreturn)) void use(uint64_t (*code)(uint64_t))
{
	attack_run_gadget_then_read((void (*)(uint64_t))(uintptr_t)code);
}

static void dontneed(uint64_t advice)
{
	const volatile uint32_t *word = (const volatile uint32_t *)(uintptr_t)ara_test_code_gadget;
	void *page = (void *)((uintptr_t)ara_test_code_gadget & ~(uintptr_t)(PAGE - 1));

	if (*word != 0xd503201fu) {
		printf("FAIL: ARA did not neutralise the gadget at load (0x%08x)\n", *word);
		_exit(2);
	}
	if (madvise(page, PAGE, (int)advice))
		fail("madvise of the gadget's page");
	printf("the gadget's first word after madvise: 0x%08x\n", *word);
	use(ara_test_code_gadget);
}

/* Where mremap_grow's child finds the gadget, found before the fork. */
static struct mapping victim_code;
static unsigned long long gadget_at; /* its offset in the library's file */

static void mremap_grow(uint64_t unused)
{
	const unsigned long long len = victim_code.end - victim_code.start;
	const unsigned long long grown_len = gadget_at - victim_code.offset + PAGE;
	char *grown;

	(void)unused;
	grown = mremap((void *)(uintptr_t)victim_code.start, len, grown_len, MREMAP_MAYMOVE);
	if (grown == MAP_FAILED)
		fail("mremap growing the library's code mapping");
	printf("the code mapping grown from %llu to %llu bytes\n", len, grown_len);
	use((uint64_t(*)(uint64_t))(uintptr_t)(grown + (gadget_at - victim_code.offset)));
}

static void call_victim(uint64_t unused)
{
	(void)unused;
	use(ara_code_victim_fn);
}

/* Rewrites the library's function in its file, runs it, and puts the file back. */
static int file_write(void)
{
	uint32_t saved[3];
	struct mapping code;
	unsigned long long at;
	Dl_info info;
	int fd, out;

	if (!dladdr((void *)(uintptr_t)ara_code_victim_fn, &info) ||
	    mapping_of(ara_code_victim_fn, &code))
		fail("the library's file and code mapping");
	at = (uintptr_t)ara_code_victim_fn - code.start + code.offset;
	fd = open(info.dli_fname, O_RDWR);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
		printf("ara-evidence: code_file_write: this user cannot write %s (%s): nothing to "
		       "attack\n",
		       info.dli_fname, strerror(errno));
		return OUT_RETURNED;
	}
	if (fd < 0 || pread(fd, saved, sizeof(saved), (off_t)at) != sizeof(saved))
		fail("reading the library's file");
	if (pwrite(fd, gadget, sizeof(gadget), (off_t)at) != sizeof(gadget))
		fail("writing the gadget into the library's file");
	printf("wrote the gadget into %s at offset 0x%llx\n", info.dli_fname, at);
	out = attack_run(call_victim, 0);
	if (pwrite(fd, saved, sizeof(saved), (off_t)at) != sizeof(saved))
		fail("putting the library's file back");
	close(fd);
	return out;
}

static int fork_dontneed(void)
{
	return attack_run(dontneed, MADV_DONTNEED);
}

static int fork_dontneed_locked(void)
{
	return attack_run(dontneed, MADV_DONTNEED_LOCKED);
}

static int fork_mremap_grow(void)
{
	const uint32_t *gadget_page = ara_code_victim_gadget();
	struct mapping data;

	if (mapping_of(ara_code_victim_fn, &victim_code) || mapping_of(gadget_page, &data))
		fail("the library's mappings");
	/* Past the code mapping, on a page of its own. */
	gadget_at = (uintptr_t)gadget_page - data.start + data.offset;
	if (gadget_at < victim_code.offset + (victim_code.end - victim_code.start)) {
		printf("FAIL: the gadget lies in the code mapping\n");
		_exit(2);
	}
	return attack_run(mremap_grow, 0);
}

/*
 * Stopped: the code ran and the read of DOM0 faulted with DOM2's row, or
 * (a grown mapping) the bytes past the copy's end do not exist (SIGBUS).
 */
static int judge(const char *name, int (*attack)(void), int stopped_too)
{
	int out;

	gadget[0] = 0xd51ba000u | msr_rt_field; /* msr S3_3_C10_C2_4 (POR_EL0), x0 */
	gadget[1] = 0xd5033fdf;			 /* isb */
	gadget[2] = 0xd65f03c0;			 /* ret */
	out = attack();
	printf("ara-evidence: %s: %s\n", name, attack_outcome_name(out));
	return out == OUT_PROBE_DOM2 || out == OUT_RETURNED || out == stopped_too ? 0 : 1;
}

static int run_code_dontneed(void)
{
	return judge("code_dontneed", fork_dontneed, OUT_PROBE_DOM2);
}

static int run_code_dontneed_locked(void)
{
	return judge("code_dontneed_locked", fork_dontneed_locked, OUT_PROBE_DOM2);
}

static int run_code_mremap_grow(void)
{
	return judge("code_mremap_grow", fork_mremap_grow, OUT_SIGOTHER);
}

static int run_code_file_write(void)
{
	return judge("code_file_write", file_write, OUT_PROBE_DOM2);
}

static const struct attack_entry attacks[] = {
	{ "code_dontneed", run_code_dontneed },
	{ "code_dontneed_locked", run_code_dontneed_locked },
	{ "code_mremap_grow", run_code_mremap_grow },
	{ "code_file_write", run_code_file_write },
};

int main(int argc, char **argv)
{
	attack_install_handlers();
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
