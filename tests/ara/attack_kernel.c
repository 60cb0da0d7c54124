/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App asks the kernel to reach DOM0 for it (IV4): each attack
 * is one system call the seccomp policy denies to App code. An attack passes
 * only if the call fails with EPERM; if it succeeds, the program goes on to
 * use it against DOM0 (reads DOM0's read-only data and prints what it finds
 * around DOM0's canary, which the ctest treats as a leak) and fails.
 *
 * usage: attack_kernel ATTACK   (attack_kernel list: the attacks)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/rseq.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "attack.h"

#define CANARY "ARA-DOM0-CANARY"

static struct range dom0[512];
static size_t n_dom0;

/* Prints the canary's neighbourhood if buf holds it: the leak the ctest looks for. */
static void show_leak(const unsigned char *buf, size_t len, uint64_t from)
{
	for (size_t i = 0; i + sizeof(CANARY) - 1 <= len; i++)
		if (memcmp(buf + i, CANARY, sizeof(CANARY) - 1) == 0) {
			printf("LEAK at 0x%llx: %.60s\n", (unsigned long long)(from + i), buf + i);
			return;
		}
	printf("LEAK: read %zu bytes of DOM0 at 0x%llx\n", len, (unsigned long long)from);
}

/* Reads every readable DOM0 range with read_fn and shows what leaked. */
static void exploit_reads(ssize_t (*read_fn)(void *dst, uint64_t src, size_t len))
{
	static unsigned char buf[1 << 20];

	for (size_t i = 0; i < n_dom0; i++) {
		size_t len = dom0[i].end - dom0[i].start;
		ssize_t got;

		if (dom0[i].perms[0] != 'r')
			continue;
		if (len > sizeof(buf))
			len = sizeof(buf);
		got = read_fn(buf, dom0[i].start, len);
		if (got > 0)
			show_leak(buf, (size_t)got, dom0[i].start);
	}
}

/* The verdict for a call that must fail with EPERM. */
static int stopped(const char *what, long rc)
{
	if (rc == -1 && errno == EPERM) {
		printf("ara-evidence: %s: refused with EPERM\n", what);
		return 1;
	}
	printf("FAIL: %s returned %ld (errno %d), not EPERM\n", what, rc, rc == -1 ? errno : 0);
	return 0;
}

static ssize_t vm_read(void *dst, uint64_t src, size_t len)
{
	struct iovec l = { dst, len }, r = { (void *)(uintptr_t)src, len };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0);
}

static int attack_process_vm_readv(void)
{
	unsigned char b;
	struct iovec l = { &b, 1 }, r = { (void *)(uintptr_t)dom0[0].start, 1 };

	if (stopped("process_vm_readv of DOM0", process_vm_readv(getpid(), &l, 1, &r, 1, 0)))
		return 0;
	exploit_reads(vm_read);
	return 1;
}

static int attack_process_vm_writev(void)
{
	unsigned char b = 0x41;
	struct iovec l = { &b, 1 }, r = { NULL, 1 };

	for (size_t i = 0; i < n_dom0; i++)
		if (dom0[i].perms[1] == 'w')
			r.iov_base = (void *)(uintptr_t)dom0[i].start;
	return stopped("process_vm_writev into DOM0",
		       process_vm_writev(getpid(), &l, 1, &r, 1, 0)) ? 0 : 1;
}

static pid_t peek_pid;

static ssize_t peek_read(void *dst, uint64_t src, size_t len)
{
	size_t done = 0;

	for (; done + sizeof(long) <= len; done += sizeof(long)) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, peek_pid, (void *)(uintptr_t)(src + done), NULL);
		if (w == -1 && errno)
			break;
		memcpy((char *)dst + done, &w, sizeof(w));
	}
	return (ssize_t)done;
}

static int attack_ptrace_child(void)
{
	pid_t child = fork();
	long rc;
	int status;

	if (child == 0) {
		pause();
		_exit(0);
	}
	rc = ptrace(PTRACE_ATTACH, child, NULL, NULL);
	if (rc == 0) {
		waitpid(child, &status, 0);
		peek_pid = child;
		exploit_reads(peek_read);
	}
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return stopped("ptrace(PTRACE_ATTACH) of a forked child", rc) ? 0 : 1;
}

static int attack_ptrace_traceme(void)
{
	pid_t child = fork();
	int status;

	if (child == 0)
		_exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1 && errno == EPERM ? 0 : 1);
	waitpid(child, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ara-evidence: ptrace(PTRACE_TRACEME) in a forked child: refused with EPERM\n");
		return 0;
	}
	printf("FAIL: ptrace(PTRACE_TRACEME) in a forked child was not refused with EPERM\n");
	return 1;
}

static int attack_pkey_mprotect(void)
{
	unsigned int tried = 0, refused = 0;

	/* Every read-only DOM0 range (one holds DOM0's canary), retagged to key 0. */
	for (size_t i = 0; i < n_dom0; i++) {
		long rc;

		if (dom0[i].perms[0] != 'r' || dom0[i].perms[1] == 'w')
			continue;
		tried++;
		rc = syscall(SYS_pkey_mprotect, dom0[i].start, dom0[i].end - dom0[i].start, PROT_READ, 0);
		if (rc == -1 && errno == EPERM)
			refused++;
		else if (rc == 0)
			show_leak((const unsigned char *)(uintptr_t)dom0[i].start,
				  dom0[i].end - dom0[i].start, dom0[i].start);
	}
	if (tried && refused == tried) {
		printf("ara-evidence: pkey_mprotect of %u read-only DOM0 ranges to key 0: refused with "
		       "EPERM\n", tried);
		return 0;
	}
	printf("FAIL: pkey_mprotect of DOM0 to key 0: %u of %u ranges not refused with EPERM\n",
	       tried - refused, tried);
	return 1;
}

static int attack_pkey_free(void)
{
	return stopped("pkey_free(DOM0's key)", syscall(SYS_pkey_free, ARA_PKEY_DOM0)) ? 0 : 1;
}

static int attack_pkey_alloc(void)
{
	return stopped("pkey_alloc with access rights", syscall(SYS_pkey_alloc, 0, 0)) ? 0 : 1;
}

static int attack_io_uring(void)
{
	static char params[120];

	return stopped("io_uring_setup", syscall(SYS_io_uring_setup, 8, params)) ? 0 : 1;
}

static int attack_userfaultfd(void)
{
	return stopped("userfaultfd", syscall(SYS_userfaultfd, 0)) ? 0 : 1;
}

static int attack_rseq(void)
{
	/*
	 * A registered area would let the App point rseq_cs at a critical
	 * section covering DOM0's text, with an abort address of its own: a
	 * thread preempted inside DOM0 would resume in App code with DOM0's row.
	 */
	static struct rseq area;

	return stopped("rseq registration", syscall(SYS_rseq, &area, sizeof(area), 0, 0xd428bc00))
		       ? 0 : 1;
}

static int attack_perf_event_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	return stopped("perf_event_open sampling user registers",
		       syscall(SYS_perf_event_open, &a, 0, -1, -1, 0)) ? 0 : 1;
}

static int attack_bpf(void)
{
	static char attr[128];

	return stopped("bpf", syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, attr, sizeof(attr))) ? 0 : 1;
}

/*
 * A stacked filter would apply to DOM0's own system calls; a real attack
 * would make them fail. This one allows everything, so that where it is not
 * refused the program can still say so.
 */
static struct sock_filter allow_all[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
static struct sock_fprog allow_all_prog = { 1, allow_all };

static int attack_seccomp_stack(void)
{
	return stopped("seccomp(SECCOMP_SET_MODE_FILTER), a filter stacked on ARA's",
		       syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &allow_all_prog)) ? 0 : 1;
}

static int attack_prctl_seccomp(void)
{
	return stopped("prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)",
		       prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &allow_all_prog, 0, 0)) ? 0 : 1;
}

static int attack_prctl_mm(void)
{
	return stopped("prctl(PR_SET_MM)", prctl(PR_SET_MM, PR_SET_MM_START_BRK, 0, 0, 0)) ? 0 : 1;
}

static int attack_prctl_ptracer(void)
{
	return stopped("prctl(PR_SET_PTRACER, any)",
		       prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0)) ? 0 : 1;
}

static int attack_syscall_user_dispatch(void)
{
	return stopped("prctl(PR_SET_SYSCALL_USER_DISPATCH)",
		       prctl(59 /* PR_SET_SYSCALL_USER_DISPATCH */, 1, 0, 0, 0)) ? 0 : 1;
}

static int attack_personality(void)
{
	return stopped("personality(READ_IMPLIES_EXEC)", personality(READ_IMPLIES_EXEC)) ? 0 : 1;
}

static int attack_process_madvise(void)
{
	struct iovec v = { (void *)(uintptr_t)dom0[0].start, 4096 };
	long pidfd = syscall(SYS_pidfd_open, getpid(), 0);

	return stopped("process_madvise(MADV_DONTNEED) of DOM0",
		       syscall(SYS_process_madvise, pidfd, &v, 1, MADV_DONTNEED, 0)) ? 0 : 1;
}

/* --- mapping calls on ARA's pages ------------------------------------- */

static const char *libara_file; /* argv[2]: the libara.so this process runs */

/* Load base of a memfd-backed object ("ara-libara", "ara-entry"), or 0. */
static uint64_t memfd_base(const char *name)
{
	char line[512], want[64];
	FILE *f = fopen("/proc/self/maps", "r");
	uint64_t base = 0;

	snprintf(want, sizeof(want), "/memfd:%s (deleted)", name);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, off;

		if (sscanf(line, "%llx-%*x %*s %llx", &s, &off) == 2 && off == 0 && strstr(line, want)) {
			base = s;
			break;
		}
	}
	if (f)
		fclose(f);
	return base;
}

/* st_value of a symbol in the file's .symtab (libara.so is not stripped), or 0. */
static uint64_t symbol(const char *file, const char *name)
{
	static unsigned char img[4 << 20];
	FILE *f = fopen(file, "rb");
	size_t n = f ? fread(img, 1, sizeof(img), f) : 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

	if (f)
		fclose(f);
	if (n < sizeof(*eh) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > n)
		return 0;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > n)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
		const Elf64_Shdr *str = &sh[sh[i].sh_link];

		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++)
			if (sym[j].st_name < str->sh_size && str->sh_offset + str->sh_size <= n &&
			    strcmp((const char *)img + str->sh_offset + sym[j].st_name, name) == 0)
				return sym[j].st_value;
	}
	return 0;
}

struct fake_cb { /* struct ara_gate_cb (ara/gate.h) */
	uint64_t claimed, stack_mask, stack_base, stack_stride, dispatch;
};

static uint64_t control_block; /* the gate's DOM0 data page */
static _Alignas(16) unsigned char fake_stack[64 * 1024];
static _Alignas(4096) unsigned char fake_page[4096];

/* The DOM0 rw page of the entry object: the gate's control block. */
static int find_control_block(void)
{
	uint64_t entry = memfd_base("ara-entry");

	for (size_t i = 0; entry && i < n_dom0; i++)
		if (dom0[i].perms[1] == 'w' && dom0[i].start > entry &&
		    dom0[i].end - dom0[i].start == 4096 && dom0[i].start - entry < (1u << 24)) {
			control_block = dom0[i].start;
			return 0;
		}
	printf("FAIL: the gate's control block was not found\n");
	return -1;
}

/*
 * Once App memory sits where the control block was: a fake block whose
 * "dispatcher" is libara's own memcpy. secure_call then runs, with DOM0's
 * row, memcpy(x0, x1, x2) for the App's x0 (a buffer), x1 (DOM0's canary)
 * and x2 (a length), and the App prints what it got.
 */
static void exploit_control_block(void)
{
	struct fake_cb *cb = (struct fake_cb *)(uintptr_t)control_block;
	uint64_t base = memfd_base("ara-libara");
	uint64_t memcpy_at = symbol(libara_file, "memcpy"), canary_at = symbol(libara_file, "dom0_canary");
	int (*gate3)(uint64_t, uint64_t, uint64_t) =
		(int (*)(uint64_t, uint64_t, uint64_t))(void (*)(void))secure_call;
	static char stolen[64];
	static uint64_t claimed; /* the fake block's stack bitmap: none in use */

	if (!base || !memcpy_at || !canary_at) {
		printf("FAIL: cannot find libara's memcpy and canary in %s\n", libara_file);
		return;
	}
	cb->claimed = (uint64_t)(uintptr_t)&claimed;
	cb->stack_mask = 1;
	cb->stack_base = (uint64_t)(uintptr_t)fake_stack;
	cb->stack_stride = sizeof(fake_stack);
	cb->dispatch = base + memcpy_at;
	gate3((uint64_t)(uintptr_t)stolen, base + canary_at, sizeof(stolen) - 1);
	show_leak((const unsigned char *)stolen, sizeof(stolen) - 1, base + canary_at);
}

static int attack_munmap(void)
{
	long rc;

	if (find_control_block())
		return 1;
	rc = munmap((void *)(uintptr_t)control_block, 4096);
	if (stopped("munmap of the gate's control block", rc))
		return 0;
	if (rc == 0 && mmap((void *)(uintptr_t)control_block, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
		exploit_control_block();
	return 1;
}

static int attack_mmap_fixed(void)
{
	void *p;

	if (find_control_block())
		return 1;
	p = mmap((void *)(uintptr_t)control_block, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (stopped("mmap(MAP_FIXED) over the gate's control block", p == MAP_FAILED ? -1 : 0))
		return 0;
	exploit_control_block();
	return 1;
}

static int attack_mremap_fixed(void)
{
	void *p;

	if (find_control_block())
		return 1;
	p = mremap(fake_page, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
		   (void *)(uintptr_t)control_block);
	if (stopped("mremap(MREMAP_FIXED) of an App page onto the gate's control block",
		    p == MAP_FAILED ? -1 : 0))
		return 0;
	exploit_control_block();
	return 1;
}

static int attack_munmap_tagged(void)
{
	long rc;

	if (find_control_block())
		return 1;
	rc = munmap((void *)(uintptr_t)(control_block | (UINT64_C(0x3c) << 56)), 4096);
	if (stopped("munmap of the control block, tagged address", rc))
		return 0;
	if (rc == 0 && mmap((void *)(uintptr_t)control_block, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
		exploit_control_block();
	return 1;
}

static void call_info(uint64_t unused)
{
	struct ara_info_arg info;

	(void)unused;
	printf("secure_call says: %s\n", ara_strerror(secure_call(ARA_FID_INFO, &info)));
}

/* A gate with a zeroed control block may fault inside DOM0: try it in a child. */
static void report_wiped_control_block(void)
{
	printf("madvise: ARA's control block wiped; a secure_call in a child ends: %s\n",
	       attack_outcome_name(attack_run(call_info, 0)));
}

static int attack_madvise(void)
{
	long rc;

	if (find_control_block())
		return 1;
	rc = madvise((void *)(uintptr_t)control_block, 4096, MADV_DONTNEED);
	if (stopped("madvise(MADV_DONTNEED) of the gate's control block", rc))
		return 0;
	report_wiped_control_block();
	return 1;
}

static int attack_madvise_tagged(void)
{
	long rc;

	if (find_control_block())
		return 1;
	/* madvise strips the top-byte tag before it looks the range up. */
	rc = madvise((void *)(uintptr_t)(control_block | (UINT64_C(0xa5) << 56)), 4096, MADV_DONTNEED);
	if (stopped("madvise(MADV_DONTNEED) of the control block, tagged address", rc))
		return 0;
	report_wiped_control_block();
	return 1;
}

static int attack_mprotect(void)
{
	uint64_t text = 0;

	for (size_t i = 0; i < n_dom0; i++)
		if (dom0[i].perms[2] == 'x' && !text)
			text = dom0[i].start;
	return stopped("mprotect(PROT_NONE) of DOM0 text",
		       mprotect((void *)(uintptr_t)text, 4096, PROT_NONE)) ? 0 : 1;
}

static const struct {
	const char *name;
	int (*run)(void);
} attacks[] = {
	{ "munmap", attack_munmap },
	{ "munmap_tagged", attack_munmap_tagged },
	{ "mmap_fixed", attack_mmap_fixed },
	{ "mremap_fixed", attack_mremap_fixed },
	{ "madvise", attack_madvise },
	{ "madvise_tagged", attack_madvise_tagged },
	{ "mprotect", attack_mprotect },
	{ "process_vm_readv", attack_process_vm_readv },
	{ "process_vm_writev", attack_process_vm_writev },
	{ "ptrace_child", attack_ptrace_child },
	{ "ptrace_traceme", attack_ptrace_traceme },
	{ "pkey_mprotect", attack_pkey_mprotect },
	{ "pkey_free", attack_pkey_free },
	{ "pkey_alloc", attack_pkey_alloc },
	{ "io_uring", attack_io_uring },
	{ "userfaultfd", attack_userfaultfd },
	{ "rseq", attack_rseq },
	{ "perf_event_open", attack_perf_event_open },
	{ "bpf", attack_bpf },
	{ "seccomp_stack", attack_seccomp_stack },
	{ "prctl_seccomp", attack_prctl_seccomp },
	{ "prctl_mm", attack_prctl_mm },
	{ "prctl_ptracer", attack_prctl_ptracer },
	{ "syscall_user_dispatch", attack_syscall_user_dispatch },
	{ "personality", attack_personality },
	{ "process_madvise", attack_process_madvise },
};

int main(int argc, char **argv)
{
	/* Unbuffered: an attack that succeeds may end the process abruptly. */
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s ATTACK|list [LIBARA_SO]\n", argv[0]);
		return 2;
	}
	libara_file = argc == 3 ? argv[2] : "";
	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++)
		if (strcmp(argv[1], "list") == 0)
			printf("%s\n", attacks[i].name);
	if (strcmp(argv[1], "list") == 0)
		return 0;
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	n_dom0 = attack_ranges(ARA_PKEY_DOM0, dom0, sizeof(dom0) / sizeof(dom0[0]));
	if (n_dom0 < 4) {
		printf("FAIL: found %zu DOM0 ranges\n", n_dom0);
		return 1;
	}
	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++)
		if (strcmp(argv[1], attacks[i].name) == 0)
			return attacks[i].run();
	fprintf(stderr, "%s: no attack named %s\n", argv[0], argv[1]);
	return 2;
}
