/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App asks the kernel to reach DOM0 for it (IV4): each attack
 * is one system call the seccomp policy denies to App code. An attack passes
 * only if the call fails with EPERM; if it succeeds, the program goes on to
 * use it against DOM0 (reads DOM0's read-only data and prints what it finds
 * around DOM0's canary, which the ctest treats as a leak) and fails.
 * Further attacks need no denied call: read() and write() with DOM0 buffers
 * and plain loads, which the overlay itself stops, and a core dump of a
 * forked child.
 *
 * usage: attack_kernel ATTACK   (attack_kernel list: the attacks)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <linux/rseq.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "ara/ara.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "attack.h"
#include "attack_libara.h"

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
	struct iovec l = { &b, 1 }, r = { (void *)(uintptr_t)attack_dom0[0].start, 1 };

	if (stopped("process_vm_readv of DOM0", process_vm_readv(getpid(), &l, 1, &r, 1, 0)))
		return 0;
	attack_exploit_reads(vm_read);
	return 1;
}

static int attack_process_vm_writev(void)
{
	unsigned char b = 0x41;
	struct iovec l = { &b, 1 }, r = { NULL, 1 };

	for (size_t i = 0; i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[1] == 'w')
			r.iov_base = (void *)(uintptr_t)attack_dom0[i].start;
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
		attack_exploit_reads(peek_read);
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
	for (size_t i = 0; i < attack_n_dom0; i++) {
		long rc;

		if (attack_dom0[i].perms[0] != 'r' || attack_dom0[i].perms[1] == 'w')
			continue;
		tried++;
		rc = syscall(SYS_pkey_mprotect, attack_dom0[i].start, attack_dom0[i].end - attack_dom0[i].start, PROT_READ, 0);
		if (rc == -1 && errno == EPERM)
			refused++;
		else if (rc == 0)
			attack_show_leak((const unsigned char *)(uintptr_t)attack_dom0[i].start,
				  attack_dom0[i].end - attack_dom0[i].start, attack_dom0[i].start);
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
	struct iovec v = { (void *)(uintptr_t)attack_dom0[0].start, 4096 };
	long pidfd = syscall(SYS_pidfd_open, getpid(), 0);

	return stopped("process_madvise(MADV_DONTNEED) of DOM0",
		       syscall(SYS_process_madvise, pidfd, &v, 1, MADV_DONTNEED, 0)) ? 0 : 1;
}

/* --- mapping calls on ARA's pages ------------------------------------- */

static uint64_t control_block; /* the gate's DOM0 data page */
static _Alignas(16) unsigned char fake_stack[64 * 1024];
static _Alignas(4096) unsigned char fake_page[4096];
/* The fake block's one stack: its call header at the top. */
#define FAKE_HEADER ((struct ara_call_header *)(void *)(fake_stack + sizeof(fake_stack) - ARA_CALL_HEADER_SIZE))
/* A function ID no service has: the gate calls the block's nofunc. */
#define NO_SERVICE ARA_FID(0x7777, 1)

/* The gate's control block (attack_libara.c). */
static int find_control_block(void)
{
	control_block = attack_control_block();
	return control_block ? 0 : -1;
}

/*
 * A fake control block whose function for unknown fids is libara's own
 * memcpy, with its stack's call header in App memory. 0, or -1 if libara's
 * symbols are not found.
 */
static int fake_control_block(struct ara_gate_cb *cb)
{
	const uint64_t memcpy_at = attack_libara_symbol("memcpy", NULL);

	if (!memcpy_at)
		return -1;
	memset(cb, 0, sizeof(*cb));
	memset(FAKE_HEADER, 0, sizeof(*FAKE_HEADER));
	cb->headers = (uint64_t)(uintptr_t)FAKE_HEADER;
	cb->headers_end = cb->headers + 1;
	cb->nofunc = memcpy_at;
	return 0;
}

/*
 * With the fake block in place, secure_call runs, with DOM0's row,
 * memcpy(&header->arg, x1, x2) for the App's x1 (DOM0's canary) and x2 (a
 * length), the header being the fake one in App memory, and the App prints
 * what it got. (No system call that ARA
 * traps may run in between: the fake block has no way to ARA's handler.)
 */
static void steal_through_gate(uint64_t canary)
{
	int (*gate3)(uint64_t, uint64_t, uint64_t) =
		(int (*)(uint64_t, uint64_t, uint64_t))(void (*)(void))secure_call;
	const unsigned char *stolen = (const unsigned char *)&FAKE_HEADER->arg;

	gate3(NO_SERVICE, canary, 32); /* within the header, from arg on */
	attack_show_leak(stolen, 32, canary);
}

/* Once App memory sits where the control block was. */
static void exploit_control_block(void)
{
	uint64_t canary = attack_libara_symbol("dom0_canary", NULL);

	if (canary && fake_control_block((struct ara_gate_cb *)(uintptr_t)control_block) == 0)
		steal_through_gate(canary);
}

/*
 * A forged SIGSYS for a trapped mmap: the filter checked the real calls'
 * ranges, so ARA must check the ones it performs. App code builds the
 * frame of a trapped mmap(MAP_FIXED, PROT_READ | PROT_EXEC) of a file that
 * holds a fake control block, over the gate's control block, and jumps
 * into ARA's SIGSYS handler; ARA resumes it in after_forged_mmap with the
 * result in x0.
 */
static struct {
	siginfo_t info;
	ucontext_t uc;
} __attribute__((aligned(16))) sigsys_frame;
static _Alignas(16) unsigned char resume_stack[64 * 1024];
static uint64_t forged_canary; /* found before the jump: no trapped call after it */

static void capture_frame(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	sigsys_frame.info = *si;
	memcpy(&sigsys_frame.uc, ucv, sizeof(sigsys_frame.uc));
}

static __attribute__((noreturn)) void after_forged_mmap(long r)
{
	if (r == -EPERM) {
		printf("ara-evidence: a forged trapped mmap(MAP_FIXED) over the gate's control block: "
		       "refused with EPERM\n");
		_exit(0);
	}
	printf("BREACH: ARA performed a forged mmap over the gate's control block (%ld)\n", r);
	steal_through_gate(forged_canary);
	_exit(1);
}

static int attack_forged_sigsys_mmap(void)
{
	static struct ara_gate_cb cb;
	struct range dom1;
	struct sigaction sa;
	char path[] = "/tmp/ara-fake-cb-XXXXXX";
	int fd = mkstemp(path);
	mcontext_t *mc = &sigsys_frame.uc.uc_mcontext;

	forged_canary = attack_libara_symbol("dom0_canary", NULL);
	if (!forged_canary || find_control_block() || fake_control_block(&cb) || fd < 0 ||
	    pwrite(fd, &cb, sizeof(cb), 0) != sizeof(cb) || ftruncate(fd, 4096) ||
	    attack_gate_dom1_page(&dom1)) {
		printf("FAIL: setting up the forged mmap\n");
		return 1;
	}
	unlink(path);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = capture_frame;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGUSR1, &sa, NULL) || raise(SIGUSR1)) {
		printf("FAIL: capturing a signal frame\n");
		return 1;
	}
	sigsys_frame.info.si_signo = SIGSYS;
	sigsys_frame.info.si_code = 1; /* SYS_SECCOMP */
	sigsys_frame.info.si_syscall = SYS_mmap;
	mc->regs[8] = SYS_mmap;
	mc->regs[0] = control_block;
	mc->regs[1] = 4096;
	mc->regs[2] = PROT_READ | PROT_EXEC;
	mc->regs[3] = MAP_PRIVATE | MAP_FIXED;
	mc->regs[4] = (uint64_t)fd;
	mc->regs[5] = 0;
	mc->pc = (uint64_t)(uintptr_t)after_forged_mmap;
	mc->sp = (uint64_t)(uintptr_t)(resume_stack + sizeof(resume_stack));
	if (attack_frame_set_por(mc->__reserved, sizeof(mc->__reserved), ARA_POR_DOM2)) {
		printf("FAIL: the frame has no POE record\n");
		return 1;
	}
	/* The signal entry is the page after the DOM1 page (ara/gate.h). */
	__asm__ volatile("mov sp, %0\n"
			 "br %1\n"
			 :
			 : "r"(&sigsys_frame), "r"(dom1.end)
			 : "memory");
	__builtin_unreachable();
}

/*
 * FUTEX_WAKE_OP changes the word at uaddr2 with an exclusive load and store
 * made at EL1, which POR_EL0 does not govern. Pointed at the control
 * block, it flips the bits that make its function for unknown fids
 * libara's memcpy and its stacks' headers a header in App memory; the gate
 * then copies DOM0's canary to the App.
 */
static void flip(uint32_t *at, uint32_t diff)
{
	static uint32_t word; /* a futex nobody waits on */

	for (unsigned int bit = 0; bit < 32; bit++) {
		const unsigned int xor_bit = FUTEX_OP_XOR | FUTEX_OP_OPARG_SHIFT; /* oparg = 1 << bit */

		if (diff >> bit & 1)
			syscall(SYS_futex, &word, FUTEX_WAKE_OP_PRIVATE, 0, NULL, at,
				FUTEX_OP(xor_bit, bit, FUTEX_OP_CMP_EQ, 0));
	}
}

/*
 * The call header of DOM0's stack 0, what the control block's headers
 * holds: the first guard page that an rw stack and the next guard follow.
 */
static uint64_t attack_dom0_call_headers(void)
{
	for (size_t i = 0; i + 2 < attack_n_dom0; i++) {
		const struct range *g = &attack_dom0[i], *st = g + 1, *next = g + 2;

		if (!strcmp(g->perms, "---p") && g->end - g->start == ARA_PAGE_SIZE &&
		    st->start == g->end && st->end - st->start == ARA_DOM0_STACK_SIZE &&
		    next->start == st->end && !strcmp(next->perms, "---p"))
			return g->start + ARA_DOM0_STACK_STRIDE - ARA_CALL_HEADER_SIZE;
	}
	return 0;
}

static void flip64(uint64_t at, uint64_t from, uint64_t to)
{
	flip((uint32_t *)(uintptr_t)at, (uint32_t)(from ^ to));
	flip((uint32_t *)(uintptr_t)(at + 4), (uint32_t)((from ^ to) >> 32));
}

/*
 * FUTEX_WAKE_OP's second word is changed at EL1 with exclusive loads and
 * stores, which POR_EL0 does not govern: the filter's range check is the
 * only wall for DOM0's writable data. FUTEX_OP_ADD 0 at each of DOM0's
 * write targets changes nothing, and a return of 0 shows the kernel did
 * the read-modify-write there.
 */
static int attack_futex_wake_op_dom0(void)
{
	static uint32_t word; /* a futex nobody waits on */
	uint64_t at[ATTACK_DOM0_MAX + 1];
	const size_t n = attack_dom0_write_targets(at, ATTACK_DOM0_MAX + 1);

	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const long rc = syscall(SYS_futex, &word, FUTEX_WAKE_OP_PRIVATE, 0, NULL,
					(uint32_t *)(uintptr_t)at[i], FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_EQ, 0));

		if (rc == -1 && errno == EPERM)
			continue;
		printf("BREACH: futex(FUTEX_WAKE_OP) on DOM0 at 0x%llx was not refused: returned %ld "
		       "(errno %d)\n", (unsigned long long)at[i], rc, rc == -1 ? errno : 0);
		return 1;
	}
	printf("ara-evidence: futex(FUTEX_WAKE_OP) on libara's ara_verbose and %zu writable DOM0 "
	       "ranges: refused with EPERM\n", n - 1);
	return 0;
}

/* The same on the gate's control block, read-only as well since initialisation. */
static int attack_futex_wake_op(void)
{
	static uint32_t word; /* a futex nobody waits on */
	const uint64_t from = attack_libara_symbol("ara_gate_nofunc", NULL);
	const uint64_t to = attack_libara_symbol("memcpy", NULL);
	const uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	const uint64_t headers = attack_dom0_call_headers();
	long rc;

	if (find_control_block() || !from || !to || !canary || !headers)
		return 1;
	/* XOR 0 first: changes nothing, tells whether the call is allowed at all. */
	rc = syscall(SYS_futex, &word, FUTEX_WAKE_OP_PRIVATE, 0, NULL,
		     (uint32_t *)(uintptr_t)(control_block + offsetof(struct ara_gate_cb, nofunc)),
		     FUTEX_OP(FUTEX_OP_XOR, 0, FUTEX_OP_CMP_EQ, 0));
	if (stopped("futex(FUTEX_WAKE_OP) on the gate's control block", rc))
		return 0;
	memset(FAKE_HEADER, 0, sizeof(*FAKE_HEADER));
	flip64(control_block + offsetof(struct ara_gate_cb, nofunc), from, to);
	flip64(control_block + offsetof(struct ara_gate_cb, headers), headers,
	       (uint64_t)(uintptr_t)FAKE_HEADER);
	printf("BREACH: futex(FUTEX_WAKE_OP) rewrote DOM0's control block\n");
	steal_through_gate(canary);
	return 1;
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

	for (size_t i = 0; i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[2] == 'x' && !text)
			text = attack_dom0[i].start;
	return stopped("mprotect(PROT_NONE) of DOM0 text",
		       mprotect((void *)(uintptr_t)text, 4096, PROT_NONE)) ? 0 : 1;
}

/* --- DOM0's pages through the overlay itself ---------------------------
 *
 * These need no denied system call: the kernel's own accesses to user
 * memory (uaccess) and App loads honour POR_EL0. They find their target in
 * libara's symbol table, not by its key, so that they also run against the
 * no-dom0-key variant (DOM0's data left on key 0), where they must get
 * through.
 */

/*
 * The kernel writes a signal frame with every key enabled, below the
 * interrupted sp unless the action is SA_ONSTACK (IV5). App code points sp
 * just above the count of ARA's protected ranges (the last field of
 * ara_protected) and makes a call ARA traps, with x29 = x30 = 0. Without
 * ARA's signal stacks, the frame record (those two registers) zeroes the
 * count, and the frame itself lands in ARA's initialisation stack, unused
 * by then. With no protected range left, ARA copies arguments in from any
 * address: rt_sigprocmask (which ARA performs) takes a new mask from DOM0's
 * canary, and the old mask gives it back, a byte per call (the mask drops
 * the bits of SIGKILL, SIGSTOP and SIGSYS, none in byte 0).
 */
static long rt_sigprocmask_at_sp(uint64_t sp)
{
	static const uint64_t no_signals; /* a set: only a call with one is trapped */
	register long x0 __asm__("x0") = SIG_BLOCK;
	register long x1 __asm__("x1") = (long)(uintptr_t)&no_signals;
	register long x2 __asm__("x2") = 0;
	register long x3 __asm__("x3") = 8;
	register long x8 __asm__("x8") = SYS_rt_sigprocmask;

	__asm__ volatile("mov x10, sp\n"
			 "mov x11, x29\n"
			 "mov x12, x30\n"
			 "mov sp, %[sp]\n"
			 "mov x29, xzr\n"
			 "mov x30, xzr\n"
			 "svc #0\n"
			 "mov sp, x10\n"
			 "mov x29, x11\n"
			 "mov x30, x12\n"
			 : "+r"(x0)
			 : "r"(x1), "r"(x2), "r"(x3), "r"(x8), [sp] "r"(sp)
			 : "x10", "x11", "x12", "memory");
	return x0;
}

static int attack_signal_frame_dom0(void)
{
	/*
	 * struct rt_sigframe, and what the kernel fills of it: siginfo, the
	 * context and its records up to the terminator, about 1.2 KiB here.
	 */
	const size_t frame_size = 4688, frame_written = 1536;
	uint64_t list_size = 0, stack_size = 0;
	const uint64_t list = attack_libara_symbol("ara_protected", &list_size);
	const uint64_t stack = attack_libara_symbol("ara_init_stack", &stack_size);
	const uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	uint64_t record, zero = 0, got;
	unsigned char stolen[48];
	long rc;

	if (!list || !stack || !canary)
		return 1;
	if (list_size < 8) {
		printf("FAIL: libara's ara_protected holds %llu bytes\n", (unsigned long long)list_size);
		return 1;
	}
	record = (list + list_size - 8) & ~UINT64_C(15); /* x29 or x30 lands on the count */
	if (record - frame_size < stack || record - frame_size + frame_written > stack + stack_size) {
		printf("FAIL: the frame would not land in ARA's initialisation stack (layout changed)\n");
		return 1;
	}
	rc = rt_sigprocmask_at_sp(record + 16);
	printf("a trapped rt_sigprocmask with sp in DOM0 returned %ld\n", rc);
	for (size_t i = 0; i < sizeof(stolen); i++) {
		rc = syscall(SYS_rt_sigprocmask, SIG_SETMASK, (void *)(uintptr_t)(canary + i), NULL, 8);
		if (rc != 0) {
			if (i == 0 && errno == EFAULT) {
				printf("ara-evidence: signal frame at an sp in DOM0: ARA still refuses to copy "
				       "from DOM0 (EFAULT)\n");
				return 0;
			}
			printf("FAIL: rt_sigprocmask from DOM0 failed with errno %d after %zu bytes\n", errno, i);
			return 1;
		}
		syscall(SYS_rt_sigprocmask, SIG_SETMASK, &zero, &got, 8);
		stolen[i] = (unsigned char)got;
	}
	printf("BREACH: the kernel's signal frame zeroed ARA's protected-range count\n");
	attack_show_leak(stolen, sizeof(stolen), canary);
	return 1;
}

/*
 * write() of [src, src + len) to a fresh pipe: 1 if refused with EFAULT,
 * else shows what got out. Fresh, because a refused write() still takes
 * one of the pipe's 16 slots (empty): 16 of them and the next one blocks.
 */
static int write_refused(uint64_t src, size_t len)
{
	static unsigned char got[4096];
	int p[2], refused;
	ssize_t n;

	if (pipe(p)) {
		printf("FAIL: pipe() failed\n");
		return 0;
	}
	n = write(p[1], (const void *)(uintptr_t)src, len);
	refused = n == -1 && errno == EFAULT;
	if (!refused) {
		printf("FAIL: write() from DOM0 at 0x%llx returned %zd (errno %d), not EFAULT\n",
		       (unsigned long long)src, n, n == -1 ? errno : 0);
		if (n > 0 && read(p[0], got, (size_t)n) == n)
			attack_show_leak(got, (size_t)n, src);
	}
	close(p[0]);
	close(p[1]);
	return refused;
}

static int attack_write_from_dom0(void)
{
	uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	unsigned int tried = 1, refused;

	if (!canary)
		return 1;
	/* The canary itself, then the first page of every readable DOM0 range. */
	refused = write_refused(canary, 64);
	for (size_t i = 0; i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[0] == 'r')
			tried++, refused += write_refused(attack_dom0[i].start, 4096);
	if (refused == tried) {
		printf("ara-evidence: write() to a pipe from DOM0's canary and %u readable DOM0 "
		       "ranges: EFAULT\n", tried - 1);
		return 0;
	}
	return 1;
}

/*
 * read() of one byte from a pipe into dst: 1 if refused with EFAULT. Each
 * attempt puts a byte in first; a refused read leaves it there, unread.
 */
static int read_refused(int p[2], uint64_t dst)
{
	ssize_t n;

	if (write(p[1], "A", 1) != 1) {
		printf("FAIL: write() to a pipe failed\n");
		return 0;
	}
	n = read(p[0], (void *)(uintptr_t)dst, 1);
	if (n == -1 && errno == EFAULT)
		return 1;
	printf("BREACH: read() into DOM0 at 0x%llx was not refused: returned %zd (errno %d)\n",
	       (unsigned long long)dst, n, n == -1 ? errno : 0);
	return 0;
}

static int attack_read_into_dom0(void)
{
	uint64_t at[ATTACK_DOM0_MAX + 1];
	const size_t n = attack_dom0_write_targets(at, ATTACK_DOM0_MAX + 1);
	size_t refused = 0;
	int p[2];

	if (n == 0 || pipe(p))
		return 1;
	for (size_t i = 0; i < n; i++)
		refused += read_refused(p, at[i]);
	if (refused == n) {
		printf("ara-evidence: read() from a pipe into libara's ara_verbose and %zu writable "
		       "DOM0 ranges: EFAULT\n", n - 1);
		return 0;
	}
	return 1;
}

/*
 * Swap: the kernel writes a swapped-out page to the swap device or file,
 * which uid 0 owns and can read whatever the page's key. DOM0's arena
 * (its heap holds the instance key and the services' secrets) must be
 * locked (VmFlags "lo" in smaps). Another user cannot read a root-owned
 * swap file, and may be refused the lock by RLIMIT_MEMLOCK: only uid 0 is
 * judged.
 */
static int attack_arena_swappable(void)
{
	const struct range *arena = attack_dom0_arena();
	char line[512], want[40];
	FILE *f = fopen("/proc/self/smaps", "r");
	int in = 0;

	if (!arena || !f) {
		printf("FAIL: /proc/self/smaps or DOM0's arena\n");
		return 1;
	}
	if (geteuid() != 0) {
		fclose(f);
		printf("ara-evidence: uid %d reads no root-owned swap file: not judged\n", (int)geteuid());
		return 0;
	}
	snprintf(want, sizeof(want), "%llx-", (unsigned long long)arena->start);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, want, strlen(want)) == 0)
			in = 1;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			break;
	}
	fclose(f);
	if (!in) {
		printf("FAIL: DOM0's arena is not in /proc/self/smaps\n");
		return 1;
	}
	if (strstr(line, " lo") == NULL) {
		printf("BREACH: DOM0's arena at 0x%llx can be swapped out (%s", (unsigned long long)arena->start,
		       line);
		return 1;
	}
	printf("ara-evidence: DOM0's arena at 0x%llx is locked, never swapped out\n",
	       (unsigned long long)arena->start);
	return 0;
}

/*
 * rt_sigprocmask without a set (a query) is not trapped: the kernel writes
 * the thread's mask to oldset itself. Aimed at DOM0's writable ranges, the
 * write must fail with EFAULT (the kernel's uaccess with the App's row).
 */
static int attack_sigmask_query_into_dom0(void)
{
	uint64_t at[ATTACK_DOM0_MAX + 1];
	const size_t n = attack_dom0_write_targets(at, ATTACK_DOM0_MAX + 1);

	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const long rc = syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, (void *)(uintptr_t)at[i], 8);

		if (rc == -1 && errno == EFAULT)
			continue;
		/* Stop at the first: the mask written over DOM0 data may break ARA. */
		printf("BREACH: a sigprocmask query into DOM0 at 0x%llx was not refused: "
		       "returned %ld (errno %d)\n", (unsigned long long)at[i], rc, rc == -1 ? errno : 0);
		return 1;
	}
	printf("ara-evidence: rt_sigprocmask queries into libara's ara_verbose and %zu writable "
	       "DOM0 ranges: EFAULT\n", n - 1);
	return 0;
}

/* In a forked child: plain loads of the canary, shown if they complete. */
static void load_canary(uint64_t canary)
{
	unsigned char got[64];

	for (size_t i = 0; i < sizeof(got); i++)
		got[i] = *(volatile unsigned char *)(uintptr_t)(canary + i);
	attack_show_leak(got, sizeof(got), canary);
}

static int attack_direct_read(void)
{
	uint64_t canary = attack_libara_symbol("dom0_canary", NULL);
	int got;

	if (!canary)
		return 1;
	attack_install_handlers();
	got = attack_run(load_canary, canary);
	if (got == OUT_PKUERR) {
		printf("ara-evidence: a load of DOM0's canary by App code: SEGV_PKUERR\n");
		return 0;
	}
	printf("FAIL: a load of DOM0's canary by App code: %s (%d), not SEGV_PKUERR\n",
	       attack_outcome_name(got), got);
	return 1;
}

/* --- a core dump of a forked child ------------------------------------ */

/* The kernel writes cores where core_pattern says: a plain name lands in the cwd. */
static int core_pattern_is_plain(void)
{
	char pat[256] = "";
	FILE *f = fopen("/proc/sys/kernel/core_pattern", "r");

	if (f) {
		if (!fgets(pat, sizeof(pat), f))
			pat[0] = 0;
		fclose(f);
	}
	pat[strcspn(pat, "\n")] = 0;
	if (pat[0] && pat[0] != '|' && !strchr(pat, '/')) {
		printf("core_dump_child: core_pattern is \"%s\"\n", pat);
		return 1;
	}
	printf("FAIL: core_pattern is \"%s\", not a plain file name: no core to check\n", pat);
	return 0;
}

/* The whole file at path in a malloc'ed buffer, or NULL. */
static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *img = NULL;
	long n = -1;

	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (img = malloc((size_t)n)) &&
	    fread(img, 1, (size_t)n, f) != (size_t)n) {
		free(img);
		img = NULL;
	}
	if (f)
		fclose(f);
	*size = (size_t)n;
	return img;
}

/*
 * 1 if the core file at path holds DOM0's canary in a segment of DOM0.
 * Only DOM0's segments count: the App's own image holds the string too (it
 * searches for it).
 */
static int core_leaks(const char *path)
{
	size_t size;
	unsigned char *img = slurp(path, &size);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Phdr *ph;
	int leaked = 0;

	if (!img || size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph) > size) {
		printf("core_dump_child: %s is not an ELF core\n", path);
		free(img);
		return 0;
	}
	ph = (const Elf64_Phdr *)(img + eh->e_phoff);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const unsigned char *seg = img + ph[i].p_offset, *hit;

		if (ph[i].p_type != PT_LOAD || ph[i].p_offset + ph[i].p_filesz > size)
			continue;
		for (size_t r = 0; r < attack_n_dom0; r++)
			if (ph[i].p_vaddr >= attack_dom0[r].start && ph[i].p_vaddr < attack_dom0[r].end &&
			    (hit = memmem(seg, ph[i].p_filesz, ATTACK_CANARY, sizeof(ATTACK_CANARY) - 1))) {
				printf("core_dump_child: %s holds DOM0's canary\n", path);
				attack_show_leak(hit, ph[i].p_filesz - (size_t)(hit - seg),
					  ph[i].p_vaddr + (uint64_t)(hit - seg));
				leaked = 1;
			}
	}
	free(img);
	return leaked;
}

/*
 * The child: tries to make itself dumpable (errno, or 0, to fd), then dies
 * of a core-dumping signal in dir. The kernel reads the pages for the core
 * with the dying thread's POR_EL0: killed in App code, the core holds zeros
 * for DOM0. So the child loops on secure_call until SIGXCPU (a core-dumping
 * signal) comes, after a second of CPU time; it is delivered on the way
 * back to user space, often from one of DOM0's own system calls, with
 * DOM0's row.
 */
static __attribute__((noreturn)) void dump_core(const char *dir, int fd)
{
	struct rlimit core = { RLIM_INFINITY, RLIM_INFINITY }, cpu;
	struct ara_echo_arg echo = { .in = 1 };
	int err = prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) ? errno : 0;
	int filter;

	if (write(fd, &err, sizeof(err)) != sizeof(err))
		_exit(2);
	if (setrlimit(RLIMIT_CORE, &core) && getrlimit(RLIMIT_CORE, &core) == 0) {
		core.rlim_cur = core.rlim_max;
		setrlimit(RLIMIT_CORE, &core);
	}
	/* File-backed private mappings too (libara's read-only data); best effort. */
	filter = open("/proc/self/coredump_filter", O_WRONLY);
	if (filter >= 0) {
		if (write(filter, "0x7f", 4) != 4)
			printf("core_dump_child: coredump_filter not set\n");
		close(filter);
	}
	if (chdir(dir) || getrlimit(RLIMIT_CPU, &cpu))
		_exit(2);
	cpu.rlim_cur = 1;
	if (setrlimit(RLIMIT_CPU, &cpu))
		_exit(2);
	signal(SIGXCPU, SIG_DFL);
	for (;;)
		secure_call(ARA_FID_ECHO, &echo);
}

/*
 * One forked child dumping core in dir; *err: its prctl's errno; *cores:
 * core files counted. Returns how many held DOM0's canary (each removed).
 */
static int dump_child(const char *dir, int *err, int *cores)
{
	char path[PATH_MAX];
	int p[2], status, leaked = 0;
	struct dirent *e;
	pid_t child;
	DIR *d;

	if (pipe(p))
		return 0;
	child = fork();
	if (child == 0)
		dump_core(dir, p[1]);
	close(p[1]);
	if (read(p[0], err, sizeof(*err)) != sizeof(*err))
		*err = -1;
	close(p[0]);
	if (waitpid(child, &status, 0) != child)
		return 0;
	if (WIFSIGNALED(status))
		printf("core_dump_child: the child died of signal %d, %s\n", WTERMSIG(status),
		       WCOREDUMP(status) ? "core dumped" : "no core dumped");
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			++*cores;
			leaked += core_leaks(path);
			unlink(path);
		}
	if (d)
		closedir(d);
	return leaked;
}

static int attack_core_dump_child(void)
{
	char dir[] = "/tmp/ara-core-XXXXXX";
	int err = -1, tries = 0, cores = 0, leaked = 0;

	if (!core_pattern_is_plain() || !mkdtemp(dir))
		return 1;
	printf("core_dump_child: this process is %sdumpable\n",
	       prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1 ? "" : "not ");
	/* Where the signal finds the child is chance: again while cores come without the canary. */
	do
		leaked = dump_child(dir, &err, &cores);
	while (!leaked && cores > 0 && ++tries < 10);
	rmdir(dir);
	printf("core_dump_child: %d core file(s) written, %d holding DOM0's canary\n", cores, leaked);
	if (err != EPERM) {
		printf("FAIL: prctl(PR_SET_DUMPABLE, 1) in a forked child: %s, not EPERM\n",
		       err ? strerror(err) : "succeeded");
		return 1;
	}
	if (leaked)
		return 1;
	printf("ara-evidence: prctl(PR_SET_DUMPABLE, 1) in a forked child: refused with EPERM; "
	       "no core holds DOM0's canary\n");
	return 0;
}

static const struct attack {
	const char *name;
	int (*run)(void);
} by_symbol[] = {
	{ "write_from_dom0", attack_write_from_dom0 },
	{ "read_into_dom0", attack_read_into_dom0 },
	{ "sigmask_query_into_dom0", attack_sigmask_query_into_dom0 },
	{ "direct_read", attack_direct_read },
}, attacks[] = {
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
	{ "futex_wake_op", attack_futex_wake_op },
	{ "futex_wake_op_dom0", attack_futex_wake_op_dom0 },
	{ "arena_swappable", attack_arena_swappable },
	{ "signal_frame_dom0", attack_signal_frame_dom0 },
	{ "forged_sigsys_mmap", attack_forged_sigsys_mmap },
	{ "core_dump_child", attack_core_dump_child },
};

int main(int argc, char **argv)
{
	/* Unbuffered: an attack that succeeds may end the process abruptly. */
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s ATTACK|list [LIBARA_SO]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		attack_libara_file = argv[2];
	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++)
		if (strcmp(argv[1], "list") == 0)
			printf("%s\n", attacks[i].name);
	for (size_t i = 0; i < sizeof(by_symbol) / sizeof(by_symbol[0]); i++)
		if (strcmp(argv[1], "list") == 0)
			printf("%s\n", by_symbol[i].name);
	if (strcmp(argv[1], "list") == 0)
		return 0;
	if (por_el0_read() != ARA_POR_DOM2) {
		printf("FAIL: not running under ARA\n");
		return 1;
	}
	if (attack_load_services())
		return 1;
	attack_n_dom0 = attack_ranges(ARA_PKEY_DOM0, attack_dom0, ATTACK_DOM0_MAX);
	/* Before the count of DOM0 ranges: the no-dom0-key variant has fewer. */
	for (size_t i = 0; i < sizeof(by_symbol) / sizeof(by_symbol[0]); i++)
		if (strcmp(argv[1], by_symbol[i].name) == 0)
			return by_symbol[i].run();
	if (attack_n_dom0 < 4) {
		printf("FAIL: found %zu DOM0 ranges\n", attack_n_dom0);
		return 1;
	}
	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++)
		if (strcmp(argv[1], attacks[i].name) == 0)
			return attacks[i].run();
	fprintf(stderr, "%s: no attack named %s\n", argv[0], argv[1]);
	return 2;
}
