/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A compromised App uses signals against ARA (IV5): each attack runs in a
 * forked child and must be stopped; run against a libara without the
 * protection it targets (tests/variants), it must get through, the reading
 * ones by printing DOM0's canary.
 *
 *   forged_sigreturn  a handler rewrites its frame: POR_EL0 granting DOM0,
 *                     and a pc in App code that then reads DOM0;
 *   forged_sigsys     App code builds the SIGSYS frame of a trapped
 *                     rt_sigreturn, pointing at a forged frame, and jumps
 *                     into ARA's SIGSYS handler with it. (A SIGSYS sent
 *                     with sigqueue cannot get this far: the kernel lets a
 *                     thread forge SYS_SECCOMP only to itself, which
 *                     delivers it at once, with x8 = the sending call's
 *                     number, and ARA never lets SIGSYS be blocked.);
 *   forged_clone_newuser  the SIGSYS of a trapped clone, forged with
 *                     CLONE_NEWUSER, which the filter denies;
 *   sigaltstack_dom0  the signal stack on DOM0's pages, where the kernel
 *                     would write frames with every key enabled;
 *   sigaction_sigsys  taking SIGSYS, ARA's trap signal, for the App;
 *   sigstack_forged_frame  a new thread's start block (clone.c), at the top
 *                     of its DOM0 signal stack, holds a copy of the
 *                     parent's trap frame, whose FP/SIMD record holds the
 *                     parent's vector registers: the parent fills them with
 *                     a frame of its own (DOM2's row, a pc in App code), and
 *                     the child jumps into the signal entry with sp on it.
 *                     ARA takes a frame for the kernel's only at the one
 *                     place the kernel writes it, which it keeps zero;
 *   frame_leftovers   what DOM0 holds where a frame has no data (the slot's
 *                     bytes beyond the records, the gaps among the fields;
 *                     only the frame-leftovers variants plant DOM0's canary
 *                     there) must reach neither the frame of an App handler
 *                     nor the registers after a trapped call. Run in-process
 *                     (a forked child's slots are wiped), against those
 *                     variants only.
 *
 * usage: attack_signal ATTACK
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "ara/domains.h"
#include "ara/gate.h"
#include "attack.h"

#define SYS_SECCOMP 1
#define AUDIT_ARCH_AARCH64 0xc00000b7u

/* The row a forged frame asks for: App code runs, and DOM0 is readable. */
#define FORGED_ROW ARA_POR_ROW(ARA_PERM_RW, ARA_PERM_X, ARA_PERM_RWX)

static _Alignas(16) unsigned char probe_stack[64 * 1024];

/*
 * Where a forged frame resumes: App code. With DOM2's row its first DOM0
 * read faults (attack.c classifies it); with the forged row it finds the
 * canary and prints it.
 */
static __attribute__((noreturn)) void leak_probe(void)
{
	uint64_t por = por_el0_read();

	printf("App code resumed with POR_EL0 0x%llx\n", (unsigned long long)por);
	attack_probe_running(); /* a fault from here on is the probe's */
	for (size_t i = 0; i < attack_n_dom0; i++) {
		const char *p;

		if (attack_dom0[i].perms[0] != 'r')
			continue;
		p = memmem((const void *)(uintptr_t)attack_dom0[i].start, attack_dom0[i].end - attack_dom0[i].start,
			   ATTACK_CANARY, sizeof(ATTACK_CANARY) - 1);
		if (p) {
			printf("LEAK at 0x%llx: %.50s\n", (unsigned long long)(uintptr_t)p, p);
			_exit(OUT_BREACH_READ);
		}
	}
	_exit(por == ARA_POR_DOM2 ? OUT_RETURNED : OUT_BREACH_POR);
}

static int forge_por(mcontext_t *mc, uint64_t por)
{
	return attack_frame_set_por(mc->__reserved, sizeof(mc->__reserved), por);
}

static void forge(ucontext_t *uc)
{
	if (forge_por(&uc->uc_mcontext, FORGED_ROW)) {
		printf("FAIL: the frame has no POE record to forge\n");
		_exit(2);
	}
	uc->uc_mcontext.pc = (uint64_t)(uintptr_t)leak_probe;
	uc->uc_mcontext.sp = (uint64_t)(uintptr_t)(probe_stack + sizeof(probe_stack));
}

static void forging_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)si;
	forge(ucv);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(sig, &sa, NULL)) {
		perror("attack_signal: sigaction");
		_exit(2);
	}
}

static void forged_sigreturn_child(uint64_t unused)
{
	(void)unused;
	attack_install_handlers();
	install(SIGUSR1, forging_handler);
	raise(SIGUSR1); /* the handler's return is the forged rt_sigreturn */
}

/* A whole signal frame, as rt_sigreturn (and ARA's SIGSYS entry) reads it at sp. */
struct frame {
	siginfo_t info;
	ucontext_t uc;
} __attribute__((aligned(16)));

static struct frame target, sigsys;

static void capture_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	target.info = *si;
	memcpy(&target.uc, ucv, sizeof(target.uc));
}

/* The gate's signal entry: the page after the DOM1 page (ara/gate.h). */
static uint64_t signal_entry(void)
{
	struct range dom1;

	if (attack_gate_dom1_page(&dom1)) {
		printf("FAIL: the DOM1 page was not found\n");
		_exit(2);
	}
	return dom1.end;
}

/* sigsys: the target frame made the filter's SIGSYS for system call nr, from App code. */
static void forge_sigsys(int nr)
{
	sigsys = target;
	sigsys.info.si_signo = SIGSYS;
	sigsys.info.si_code = SYS_SECCOMP;
	sigsys.info.si_syscall = nr;
	sigsys.info.si_arch = AUDIT_ARCH_AARCH64;
	sigsys.uc.uc_mcontext.regs[8] = (uint64_t)nr;
	forge_por(&sigsys.uc.uc_mcontext, ARA_POR_DOM2); /* a trap comes from App code */
}

/* Jumps into ARA's signal entry with sp at the forged SIGSYS frame. */
static __attribute__((noreturn)) void enter_with_sigsys(uint64_t entry)
{
	__asm__ volatile("mov sp, %0\n"
			 "br %1\n"
			 :
			 : "r"(&sigsys), "r"(entry)
			 : "memory");
	__builtin_unreachable();
}

/*
 * What the kernel would do for a trapped rt_sigreturn, done by App code: a
 * SIGSYS frame saying "the filter trapped rt_sigreturn, sp = a frame", and
 * a jump into ARA's SIGSYS handler with sp at it.
 */
static void forged_sigsys_child(uint64_t unused)
{
	const uint64_t entry = signal_entry();

	(void)unused;
	attack_install_handlers();
	install(SIGUSR1, capture_handler);
	raise(SIGUSR1); /* a genuine frame to start from */
	forge(&target.uc);
	forge_sigsys(SYS_rt_sigreturn);
	sigsys.uc.uc_mcontext.sp = (uint64_t)(uintptr_t)&target;
	enter_with_sigsys(entry);
}

static int run_reading(const char *what, void (*child)(uint64_t))
{
	int out = attack_run(child, 0);

	printf("ara-evidence: %s: %s\n", what, attack_outcome_name(out));
	return out == OUT_PROBE_DOM2 ? 0 : 1;
}

static int attack_forged_sigreturn(void)
{
	return run_reading("forged rt_sigreturn frame (POR_EL0 granting DOM0)", forged_sigreturn_child);
}

static int attack_forged_sigsys(void)
{
	return run_reading("forged SYS_SECCOMP SIGSYS for rt_sigreturn", forged_sigsys_child);
}

/*
 * The filter denies clone with CLONE_NEWUSER, but App code can forge the
 * SIGSYS of a trapped clone (CLONE_VM | CLONE_VFORK) and jump into the
 * signal entry with it: ARA must refuse the flag itself. A child made
 * anyway starts in clone_resumed with 0 and tells whether it has a user
 * namespace of its own (every capability there); the parent resumes there
 * with the result.
 */
#define CLONE_NEWUSER_FLAGS (CLONE_VM | CLONE_VFORK | CLONE_NEWUSER | SIGCHLD)

static char parent_userns[64]; /* /proc/self/ns/user's link before the clone */

static __attribute__((noreturn)) void clone_resumed(long r)
{
	if (r == 0) { /* the child, on the parent's stack (vfork) */
		char ns[64] = "";

		if (readlink("/proc/self/ns/user", ns, sizeof(ns) - 1) > 0 && strcmp(ns, parent_userns) != 0)
			printf("BREACH: a clone ARA made from a forged SIGSYS has a user namespace of "
			       "its own (%s, the App's %s)\n", ns, parent_userns);
		_exit(0);
	}
	if (r > 0) {
		waitpid((pid_t)r, NULL, 0);
		_exit(1);
	}
	printf("ara-evidence: forged SIGSYS for clone(CLONE_NEWUSER): refused (%s)\n", strerror((int)-r));
	_exit(OUT_RETURNED);
}

static void forged_clone_newuser_child(uint64_t unused)
{
	const uint64_t entry = signal_entry();

	(void)unused;
	if (readlink("/proc/self/ns/user", parent_userns, sizeof(parent_userns) - 1) <= 0) {
		printf("FAIL: readlink(/proc/self/ns/user): %s\n", strerror(errno));
		_exit(2);
	}
	attack_install_handlers();
	install(SIGUSR1, capture_handler);
	raise(SIGUSR1); /* a genuine frame to start from */
	forge_sigsys(SYS_clone);
	memset(sigsys.uc.uc_mcontext.regs, 0, sizeof(sigsys.uc.uc_mcontext.regs));
	sigsys.uc.uc_mcontext.regs[0] = CLONE_NEWUSER_FLAGS;
	sigsys.uc.uc_mcontext.regs[8] = SYS_clone;
	sigsys.uc.uc_mcontext.pc = (uint64_t)(uintptr_t)clone_resumed;
	sigsys.uc.uc_mcontext.sp = (uint64_t)(uintptr_t)(probe_stack + sizeof(probe_stack));
	enter_with_sigsys(entry);
}

static int attack_forged_clone_newuser(void)
{
	int out = attack_run(forged_clone_newuser_child, 0);

	printf("ara-evidence: forged SIGSYS for clone(CLONE_NEWUSER): %s\n", attack_outcome_name(out));
	return out == OUT_RETURNED ? 0 : 1;
}

/* The largest writable DOM0 range: room for any signal frame. */
static const struct range *dom0_writable(void)
{
	const struct range *best = NULL;

	for (size_t i = 0; i < attack_n_dom0; i++)
		if (attack_dom0[i].perms[1] == 'w' &&
		    (!best || attack_dom0[i].end - attack_dom0[i].start > best->end - best->start))
			best = &attack_dom0[i];
	return best;
}

static int attack_sigaltstack_dom0(void)
{
	const struct range *r = dom0_writable();
	stack_t ss;

	if (!r) {
		printf("FAIL: no writable DOM0 range\n");
		return 1;
	}
	ss.ss_sp = (void *)(uintptr_t)r->start;
	ss.ss_size = r->end - r->start;
	ss.ss_flags = 0;
	return attack_refused("sigaltstack onto DOM0's pages", sigaltstack(&ss, NULL), EPERM);
}

static void sigsys_for_the_app(int sig)
{
	(void)sig;
}

static int attack_sigaction_sigsys(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigsys_for_the_app;
	return attack_refused("sigaction(SIGSYS), ARA's trap signal", sigaction(SIGSYS, &sa, NULL),
			      EINVAL);
}

/*
 * ARA's layout (libara/src/dom0): the DOM0 arena's largest range starts with
 * the last DOM0 stack, then the threads' signal stacks (init.c); each is
 * ARA_SIGSTACK_SIZE (thread.h), with struct ara_clone_start (clone.c) at
 * the top of a new thread's.
 */
#define SIGSTACK_SIZE (128u * 1024u)
#define CLONE_START_SIZE 4736u
#define POE_RECORD_MAGIC 0x504f4530u /* uapi asm/sigcontext.h, Linux 6.12 */

/* trapped_call_regs.S */
long clone_with_vregs(uint64_t flags, void *stack_top, const void *q0_q7, void (*fn)(void));

static uint64_t forged_at, forged_entry;
static _Alignas(16) unsigned char forger_stack[16 * 1024], forged_probe_stack[16 * 1024];

/* Where the forged frame resumes: App code in a thread without TLS, raw calls only. */
static __attribute__((noreturn)) void forged_probe(void)
{
	static const char msg[] =
		"ara-evidence: a frame forged on ARA's signal stack was taken for the kernel's: "
		"was not refused\n";
	register long x0 __asm__("x0") = 1;
	register long x1 __asm__("x1") = (long)(uintptr_t)msg;
	register long x2 __asm__("x2") = sizeof(msg) - 1;
	register long x8 __asm__("x8") = SYS_write;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8) : "memory");
	x0 = OUT_RETURNED;
	x8 = SYS_exit_group;
	__asm__ volatile("svc #0" : : "r"(x0), "r"(x8) : "memory");
	__builtin_unreachable();
}

/* The new thread: into the signal entry, sp on the frame its parent's registers made. */
static __attribute__((noreturn)) void forger(void)
{
	__asm__ volatile("mov sp, %0\n"
			 "br %1\n"
			 :
			 : "r"(forged_at), "r"(forged_entry)
			 : "memory");
	__builtin_unreachable();
}

static void sigstack_forged_frame_child(uint64_t unused)
{
	const struct range *r = dom0_writable();
	_Alignas(16) uint64_t v[16] = { 0 }; /* v0-v7, low half first */
	uint64_t top;
	long tid;

	(void)unused;
	if (!r) {
		printf("FAIL: no writable DOM0 range\n");
		_exit(2);
	}
	/* This process's first thread after the main one gets the second slot. */
	top = r->start + ARA_DOM0_STACK_SIZE + 2 * SIGSTACK_SIZE;
	/*
	 * The start block's frame is at top - CLONE_START_SIZE; 48 bytes above
	 * it, a frame's sp, pc and pstate fall on the copy's v0 and v1 and its
	 * records start at v2. (Any sp on the stack but the kernel's place
	 * serves; this one also lies wholly on it.)
	 */
	forged_at = top - CLONE_START_SIZE + 48;
	forged_entry = signal_entry();
	v[0] = (uint64_t)(uintptr_t)(forged_probe_stack + sizeof(forged_probe_stack)); /* sp */
	v[1] = (uint64_t)(uintptr_t)forged_probe;					 /* pc */
	v[4] = POE_RECORD_MAGIC | (uint64_t)16 << 32; /* v2: the POE record: DOM2's row */
	v[5] = ARA_POR_DOM2;
	/* v3-v6: a record the kernel skips, so that the next one ends past the copy's records */
	v[6] = ESR_MAGIC | (uint64_t)64 << 32;
	v[14] = FPSIMD_MAGIC | (uint64_t)528 << 32; /* v7: the FP/SIMD record rt_sigreturn needs */
	fflush(stdout);
	tid = clone_with_vregs(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
				       CLONE_SYSVSEM,
			       forger_stack + sizeof(forger_stack), v, forger);
	if (tid <= 0) {
		printf("FAIL: clone: %ld\n", tid);
		_exit(2);
	}
	for (int i = 0; i < 500; i++) /* ARA stops the process, or the probe ends it */
		usleep(10000);
	printf("FAIL: the new thread's jump had no effect\n");
	_exit(2);
}

static int attack_sigstack_forged_frame(void)
{
	int out = attack_run(sigstack_forged_frame_child, 0);

	printf("ara-evidence: a frame forged in a new thread's start block on ARA's signal stack: %s\n",
	       attack_outcome_name(out));
	return out == OUT_ARA_STOPPED ? 0 : 1;
}

/* A handler's frame, as ARA wrote it in App memory: from its siginfo on. */
static struct frame handler_frame;
static _Alignas(16) unsigned char leftovers_stack[64 * 1024];

static void frame_copy_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)ucv;
	memcpy(&handler_frame, si, sizeof(handler_frame));
}

/* trapped_call_regs.S */
void trapped_call_regs(uint64_t out[96]);

static int attack_frame_leftovers(void)
{
	stack_t ss = { .ss_sp = leftovers_stack, .ss_size = sizeof(leftovers_stack) };
	struct sigaction sa;
	uint64_t regs[96];
	int leaks = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = frame_copy_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR1, &sa, NULL)) {
		perror("attack_signal: sigaltstack/sigaction");
		return 2;
	}
	for (int round = 0; round < 3; round++) {
		memset(&handler_frame, 0, sizeof(handler_frame));
		raise(SIGUSR1);
		if (handler_frame.info.si_signo != SIGUSR1) {
			printf("FAIL: the handler did not run\n");
			return 2;
		}
		if (memmem(&handler_frame, sizeof(handler_frame), ATTACK_CANARY, 8)) { /* any 8-byte piece */
			attack_show_leak((const unsigned char *)&handler_frame, sizeof(handler_frame), 0);
			leaks++;
		}
		memset(regs, 0, sizeof(regs));
		trapped_call_regs(regs);
		if (regs[0] != 0) {
			printf("FAIL: the trapped rt_sigprocmask returned %lld\n", (long long)regs[0]);
			return 2;
		}
		if (memmem(regs, sizeof(regs), ATTACK_CANARY, 8)) {
			printf("LEAK in the registers after a trapped call: ARA-DOM0-CANARY\n");
			leaks++;
		}
	}
	printf("ara-evidence: %d handler frames and trapped calls, %d with DOM0's leftovers\n", 3, leaks);
	return leaks != 0;
}

static const struct attack_entry attacks[] = {
	{ "forged_sigreturn", attack_forged_sigreturn },
	{ "forged_clone_newuser", attack_forged_clone_newuser },
	{ "forged_sigsys", attack_forged_sigsys },
	{ "sigaltstack_dom0", attack_sigaltstack_dom0 },
	{ "sigaction_sigsys", attack_sigaction_sigsys },
	{ "sigstack_forged_frame", attack_sigstack_forged_frame },
	{ "frame_leftovers", attack_frame_leftovers },
};

int main(int argc, char **argv)
{
	return attack_main(argc, argv, attacks, sizeof(attacks) / sizeof(attacks[0]));
}
