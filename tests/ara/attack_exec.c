/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App makes its own POR_EL0 gadget executable (IV1 at run
 * time): `msr POR_EL0, x0; isb; ret`, called with a row that reads DOM0,
 * then a read of DOM0. Each attack runs in a forked child. Under ARA the
 * gadget must have become a NOP (or the mapping refused), so the read
 * faults with DOM2's row; against libara without the filter (whose traps
 * send these calls to ARA) the gadget works and the canary is printed.
 *
 *   jit_msr       anonymous memory written, then mprotect(PROT_READ|PROT_EXEC)
 *   file_msr      a file holding the gadget, mmap(PROT_READ|PROT_EXEC)
 *   file_alias    a harmless file mapped executable, then rewritten with
 *                 pwrite: a private mapping follows the file's unwritten pages
 *   shared_alias  a memfd mapped twice, shared: writable, and executable
 *   wx            anonymous memory writable and executable at once
 *   stage_write   another thread has the kernel write into ARA's staging
 *                 window while ARA stages code there (below)
 *
 * usage: attack_exec ATTACK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara/domains.h"
#include "attack.h"
#include "attack_libara.h"


/*
 * Filled in at run time: the App's read-only data shares an executable
 * segment with its code, so ARA's load-time scan would neutralise the
 * gadget if it were a constant here.
 */
static uint32_t gadget[3];
static volatile uint32_t msr_rt_field = 0x280; /* op2 = 4, Rt = x0 */

static void build_gadget(void)
{
	gadget[0] = 0xd51ba000u | msr_rt_field; /* msr S3_3_C10_C2_4 (POR_EL0), x0 */
	gadget[1] = 0xd5033fdf;			 /* isb */
	gadget[2] = 0xd65f03c0;			 /* ret */
}
static const uint32_t harmless[] = { 0xd503201f, 0xd503201f, 0xd65f03c0 }; /* nop; nop; ret */


/* Runs code as a POR_EL0 gadget, then reads DOM0 (attack.h). */
static __attribute__((noreturn)) void use(void *code)
{
	attack_run_gadget_then_read((void (*)(uint64_t))(uintptr_t)code);
}

static __attribute__((noreturn)) void refused(const char *what)
{
	printf("ara-evidence: %s: refused (%s)\n", what, strerror(errno));
	_exit(OUT_RETURNED);
}

static int temp_file(const void *code, size_t len)
{
	char path[] = "/tmp/ara-exec-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0 || pwrite(fd, code, len, 0) != (ssize_t)len || ftruncate(fd, 4096)) {
		printf("FAIL: temporary file: %s\n", strerror(errno));
		_exit(2);
	}
	unlink(path);
	return fd;
}

static void jit_msr(uint64_t unused)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)unused;
	memcpy(p, gadget, sizeof(gadget));
	__builtin___clear_cache(p, (char *)p + sizeof(gadget));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		refused("mprotect(PROT_READ | PROT_EXEC) of written memory");
	use(p);
}

static void file_msr(uint64_t unused)
{
	int fd = temp_file(gadget, sizeof(gadget));
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	(void)unused;
	if (p == MAP_FAILED)
		refused("mmap(PROT_READ | PROT_EXEC) of a file holding the gadget");
	use(p);
}

static void file_alias(uint64_t unused)
{
	int fd = temp_file(harmless, sizeof(harmless));
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	(void)unused;
	if (p == MAP_FAILED)
		refused("mmap(PROT_READ | PROT_EXEC) of a harmless file");
	if (pwrite(fd, gadget, sizeof(gadget), 0) != sizeof(gadget)) {
		printf("FAIL: pwrite: %s\n", strerror(errno));
		_exit(2);
	}
	use(p);
}

static void shared_alias(uint64_t unused)
{
	int fd = memfd_create("ara-jit", 0);
	void *w, *x;

	(void)unused;
	if (fd < 0 || ftruncate(fd, 4096)) {
		printf("FAIL: memfd: %s\n", strerror(errno));
		_exit(2);
	}
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	x = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	if (w == MAP_FAILED) {
		printf("FAIL: writable mapping: %s\n", strerror(errno));
		_exit(2);
	}
	if (x == MAP_FAILED)
		refused("a shared executable mapping of a memfd also mapped writable");
	memcpy(w, gadget, sizeof(gadget)); /* written after the executable mapping was made */
	__builtin___clear_cache(x, (char *)x + sizeof(gadget));
	use(x);
}

static void wx(uint64_t unused)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	(void)unused;
	if (p == MAP_FAILED)
		refused("mmap(PROT_READ | PROT_WRITE | PROT_EXEC)");
	memcpy(p, gadget, sizeof(gadget));
	__builtin___clear_cache(p, (char *)p + sizeof(gadget));
	use(p);
}

/* Runs child in a forked process; 0 if the gadget was stopped. */
static int judge(const char *name, void (*child)(uint64_t))
{
	int out;

	build_gadget();
	out = attack_run(child, 0);
	printf("ara-evidence: %s: %s\n", name, attack_outcome_name(out));
	/* Stopped: the gadget did nothing (the DOM0 read was stopped), or the call was refused. */
	return out == OUT_PROBE_DOM2 || out == OUT_RETURNED ? 0 : 1;
}

#define ATTACK(name)                                                                               \
	static int run_##name(void)                                                                \
	{                                                                                          \
		return judge(#name, name);                                                         \
	}
ATTACK(jit_msr)
ATTACK(file_msr)
ATTACK(file_alias)
ATTACK(shared_alias)
ATTACK(wx)

/*
 * ARA stages code made executable at run time in its window: copied,
 * scanned, then moved onto the App's address. While a staged page is
 * writable, App code must have no access to it, since a page it may write
 * it may also pin for writing (an O_DIRECT read), and the kernel would
 * fill a pinned page after the scan with bytes never scanned. A second
 * thread reads from a pipe into the window's first page, again and again,
 * while this one makes 1 MiB executable (ARA stages it) 256 times: the
 * kernel writes with App code's row, so every read must fail (EFAULT).
 */
#define STAGED (UINT64_C(1) << 20)
#define STAGINGS 256

static volatile int stagings_done, landed;

static void *read_into_stage(void *arg)
{
	const uint64_t stage = *(const uint64_t *)arg;
	int p[2];

	if (pipe(p) || write(p[1], "A", 1) != 1) {
		printf("FAIL: pipe: %s\n", strerror(errno));
		_exit(2);
	}
	while (!stagings_done)
		if (read(p[0], (void *)(uintptr_t)stage, 1) == 1) {
			landed = 1;
			break;
		}
	return NULL;
}

static int run_stage_write(void)
{
	uint64_t stage = attack_staging_window();
	uint32_t *code = mmap(NULL, STAGED, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t reader;
	int n;

	if (!stage || code == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < STAGED / sizeof(*code); i++)
		code[i] = harmless[0]; /* nop: every page present, nothing to patch */
	if (pthread_create(&reader, NULL, read_into_stage, &stage)) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	for (n = 0; n < STAGINGS && !landed; n++)
		if (mprotect(code, STAGED, PROT_READ | PROT_EXEC) ||
		    mprotect(code, STAGED, PROT_READ | PROT_WRITE)) {
			printf("FAIL: mprotect: %s\n", strerror(errno));
			_exit(2);
		}
	stagings_done = 1;
	pthread_join(reader, NULL);
	if (landed) {
		printf("BREACH: the kernel wrote into ARA's staging window at 0x%llx for App code "
		       "(staging %d): a staged page was App code's to pin\n", (unsigned long long)stage, n);
		return 1;
	}
	printf("ara-evidence: %d stagings of 1 MiB while another thread read into the staging "
	       "window: every read EFAULT\n", n);
	return 0;
}

static const struct attack_entry attacks[] = {
	{ "jit_msr", run_jit_msr },	      { "file_msr", run_file_msr }, { "file_alias", run_file_alias },
	{ "shared_alias", run_shared_alias }, { "wx", run_wx },	      { "stage_write", run_stage_write },
};

int main(int argc, char **argv)
{
	attack_install_handlers();
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
