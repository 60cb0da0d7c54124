/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Code made executable at run time still works under ARA
 * (libara/src/dom0/code_map.c): dlopen of a library, a JIT's write-then-
 * mprotect, anonymous executable mappings, MAP_FIXED; what ARA refuses
 * (writable and executable, shared executable) gets EACCES; POR_EL0 writes
 * in such code are NOPs by the time it can run.
 *
 * usage: exec_app PLUGIN_SO
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ara/domains.h"
#include "por_sysreg.h"

#define NOP 0xd503201fu

static unsigned int checks, failures;

static void expect(const char *what, int ok)
{
	checks++;
	if (!ok) {
		failures++;
		printf("FAIL: %s (errno %s)\n", what, strerror(errno));
	}
}

/* mov w0, #42; ret */
static const uint32_t answer42[] = { 0x52800540, 0xd65f03c0 };
static volatile uint32_t msr_rt_field = 0x280; /* see attack_exec.c: no constant gadget */

static void *jit(const uint32_t *code, size_t words)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, code, words * 4);
	__builtin___clear_cache(p, (char *)p + words * 4);
	return mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0 ? p : NULL;
}

int main(int argc, char **argv)
{
	uint32_t gadget[3] = { 0xd51ba000u | msr_rt_field, 0xd5033fdf, 0xd65f03c0 };
	void *lib, *p, *q;
	int (*answer)(void);
	const uint32_t *por_write;

	if (argc != 2 || por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: usage: exec_app PLUGIN_SO, under ara-loader\n");
		return 1;
	}

	lib = dlopen(argv[1], RTLD_NOW);
	expect("dlopen of a library after ARA's start", lib != NULL);
	if (!lib)
		printf("dlopen: %s\n", dlerror());
	answer = lib ? (int (*)(void))dlsym(lib, "ara_plugin_answer") : NULL;
	expect("its function runs", answer && answer() == 42);
	por_write = lib ? dlsym(lib, "ara_plugin_por_write") : NULL;
	expect("its POR_EL0 write is a NOP", por_write && por_write[0] == NOP);

	p = jit(answer42, 2);
	expect("JIT: write, mprotect(PROT_READ | PROT_EXEC), call", p && ((int (*)(void))p)() == 42);
	expect("JIT: mprotect back to writable", p && mprotect(p, 4096, PROT_READ | PROT_WRITE) == 0);
	expect("JIT: and executable again, same code",
	       p && mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0 && ((int (*)(void))p)() == 42);

	q = jit(gadget, 3);
	expect("JIT: a POR_EL0 write is a NOP once executable", q && ((uint32_t *)q)[0] == NOP);
	if (q)
		((void (*)(uint64_t))q)(0x77777777);
	expect("JIT: running it leaves DOM2's row", por_el0_read() == ARA_POR_DOM2);

	q = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect("anonymous executable mapping", q != MAP_FAILED && ((uint32_t *)q)[2047] == 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(p, 0xff, 4096);
	q = mmap(p, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	expect("MAP_FIXED executable mapping replaces what was there",
	       q == p && ((uint32_t *)q)[0] == 0);
	errno = 0;
	expect("MAP_FIXED_NOREPLACE onto it: EEXIST",
	       mmap(p, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		    -1, 0) == MAP_FAILED &&
		       errno == EEXIST);

	errno = 0;
	expect("writable and executable: EACCES",
	       mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0) == MAP_FAILED &&
		       errno == EACCES);
	errno = 0;
	expect("mprotect to writable and executable: EACCES",
	       mprotect(p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0 && errno == EACCES);
	errno = 0;
	expect("shared executable: EACCES",
	       mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
		       errno == EACCES);
	q = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(q, 4096);
	errno = 0;
	expect("mprotect(PROT_EXEC) of an unmapped range: ENOMEM",
	       mprotect(q, 4096, PROT_READ | PROT_EXEC) != 0 && errno == ENOMEM);

	printf("ara-evidence: exec: %u checks of code made executable at run time, %u failed\n", checks,
	       failures);
	return failures ? 1 : 0;
}
