/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ARA's initialisation: runs from libara.so's constructor, which ld.so calls
 * before any other constructor (-z initfirst), so before any App code.
 *
 * Order matters:
 *   0. stop core dumps (and with them other processes' access to this
 *      one's /proc files) before anything of ARA exists;
 *   1. read the boot block (what the loader verified), and map ARA's
 *      system-call page (svc_page.h), through which every later DOM0
 *      system call goes;
 *   2. allocate the domains' keys (and tag the page DOM0);
 *   3. map DOM0's arena (heap and stacks), and the service domains' homes
 *      and stacks (domain.c), zeroed in forked children;
 *   4. check that the mapped gate is byte for byte what the loader hashed;
 *   5. build the service table; tag libara's pages and make what the core
 *      wrote so far read-only (the service domains run and read them, and
 *      must not write them); start the service modules, each in its domain
 *      (modules.c: each one's start hook, for what a module must make
 *      before the filter and any App code); fill the gate's control block;
 *   6. scan DOM2's executable mappings and neutralise POR_EL0 writes (IV1),
 *      each mapping of a file replaced by a sealed copy (code_copy.c);
 *   7. tag the gate's pages with their keys;
 *   8. close the loader's descriptors, check no rseq area is registered,
 *      and drop glibc's robust futex list;
 *   9. drop the capabilities that reach beyond the process (privilege.c),
 *      and seal ARA's ranges with mseal (seal.c), now that DOM0 has made
 *      its last change to them;
 *  10. install the seccomp filter (IV4), which from then on lets only
 *      ARA's system-call page make the system calls the policy denies;
 *  11. last, the modules' ready hooks: the process as App code will find
 *      it.
 * On success it returns the address of the gate's way out; ctor.S leaves
 * through it, so ld.so resumes with DOM2's row in POR_EL0 (IV2). Any failure
 * is fatal: a message on stderr and exit status ARA_EXIT_INIT_FAILED, with no
 * App code run.
 */
#include <mbedtls/sha256.h>

#include "ara/boot.h"
#include "ara/domains.h"
#include "ara/gate.h"
#include "boot.h"
#include "dom0.h"
#include "domain.h"
#include "init.h"
#include "interrupted.h"
#include "kernel.h"
#include "live.h"
#include "mem.h"
#include "svc_page.h"
#include "sys.h"
#include "thread.h"

#define ARA_DOM0_HEAP_SIZE (8u << 20)

/*
 * Allocates every key the domain table uses, lowest first: Linux hands out
 * the lowest free key, so in a fresh process the numbers come out as the
 * table says, and anything else means some earlier code took a key.
 */
static void alloc_keys(void)
{
	for (unsigned int key = 1; key < 8; key++) {
		int used = 0;

		for (unsigned int d = 0; d < ARA_DOMAINS; d++)
			used |= ara_domain_table[d].pkey == key;
		if (!used)
			continue;
		long got = ara_sys2(__NR_pkey_alloc, 0, 0);
		if (got != (long)key)
			ara_fatal("pkey_alloc did not return the key the domain table expects; it returned",
				  got);
	}
}

/*
 * DOM0's arena: the per-process state page (live.h), the heap, the
 * stacks, each below a guard page, the threads' signal stacks, their slots
 * and the slots' owners (thread.h); all DOM0 and kept out of core dumps.
 * All but the owners are zeroed in a forked child (the state page's comment
 * says why); the owners hold only App state, which the child keeps (its
 * thread's App sigaltstack), and thread.c tells a child's from its
 * parent's.
 */
static struct ara_gate_cb map_dom0_arena(void)
{
	const uint64_t stride = ARA_DOM0_STACK_STRIDE;
	const uint64_t stacks = stride * (ARA_DOM0_STACKS + ARA_DOM0_HANDLER_STACKS);
	const uint64_t threads = ara_threads_size();
	const uint64_t sigstacks = (uint64_t)ARA_THREAD_SLOTS * ARA_SIGSTACK_SIZE;
	const uint64_t size = ARA_PAGE_SIZE + ARA_DOM0_HEAP_SIZE + stacks + threads + sigstacks;
	long base = ara_sys6(__NR_mmap, 0, (long)size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t heap, stack_base;
	struct ara_gate_cb cb = { 0 };
	long r;

	if (ara_sys_failed(base))
		ara_fatal("mmap of the DOM0 arena failed", base);
#ifndef ARA_TEST_VARIANT_ARENA_SWAPPABLE /* test-only (tests/variants): left swappable */
	/*
	 * Kept out of swap, where uid 0 could read DOM0's pages back from the
	 * swap file it owns. Locked as faulted in, so only the pages DOM0 uses
	 * count; uid 0 keeps CAP_IPC_LOCK for this (privilege.c). Another user
	 * may meet RLIMIT_MEMLOCK here, and cannot read a root-owned swap file.
	 */
	r = ara_sys3(__NR_mlock2, base, size, MLOCK_ONFAULT);
	if (r != 0 && ara_sys0(__NR_geteuid) == 0)
		ara_fatal("mlock2 of the DOM0 arena failed (uid 0 needs CAP_IPC_LOCK)", r);
#endif
#ifndef ARA_TEST_VARIANT_NO_FORK_GUARD
	r = ara_sys3(__NR_madvise, base, size - ara_threads_kept_size(), MADV_WIPEONFORK);
	if (r != 0)
		ara_fatal("madvise(MADV_WIPEONFORK) of the DOM0 arena failed", r);
#else
	(void)r;
#endif
	ara_protect((uint64_t)base, size, PROT_READ | PROT_WRITE, ARA_DOM0);
	heap = (uint64_t)base + ARA_PAGE_SIZE;
	stack_base = heap + ARA_DOM0_HEAP_SIZE;
	for (uint64_t i = 0; i < ARA_DOM0_STACKS + ARA_DOM0_HANDLER_STACKS; i++)
		ara_tag(stack_base + i * stride, ARA_PAGE_SIZE, PROT_NONE, ARA_PKEY_DOM0);
	ara_live_init((struct ara_live *)base, (void *)heap, ARA_DOM0_HEAP_SIZE);
	ara_threads_init(stack_base + stacks + sigstacks, stack_base + stacks);

	cb.headers = stack_base + stride - ARA_CALL_HEADER_SIZE;
	ara_domains_map(cb.headers, stride);
	cb.headers_end = cb.headers + ARA_DOM0_STACKS * stride;
	cb.claimed = (uint64_t)(uintptr_t)&ara_live->claimed_stacks;
	cb.handler_mask = ((UINT64_C(1) << ARA_DOM0_HANDLER_STACKS) - 1) << ARA_DOM0_STACKS;
	cb.stack_base = stack_base;
	cb.stack_stride = stride;
	cb.signal = (uint64_t)(uintptr_t)ara_signal;
	cb.unblock = (uint64_t)(uintptr_t)ara_unblock_deferred;
	cb.live = (uint64_t)(uintptr_t)ara_live;
	return cb;
}

/*
 * The core's read-only-after-initialisation data (dom0.h): read-only on
 * DOM1's key from here on, where the service domains read it. After
 * ara_tag_libara (which tags its segment DOM0 whole), before mseal, which
 * keeps it so.
 */
static void seal_ro_after_init(void)
{
	extern const char __start_ara_ro_after_init[] __attribute__((visibility("hidden")));
	extern const char __stop_ara_ro_after_init[] __attribute__((visibility("hidden")));
	const uint64_t start = (uint64_t)(uintptr_t)__start_ara_ro_after_init;

	ara_tag(start, (uint64_t)(uintptr_t)__stop_ara_ro_after_init - start, PROT_READ, ARA_PKEY_DOM1);
}

/*
 * The protected ranges as they are now, complete, copied where the service
 * domains read them (ara_protected_view) and made read-only on DOM1's key:
 * a service's copies of App memory check against them. Before mseal, which
 * keeps it so.
 */
static void publish_protected(void)
{
	extern const char __start_ara_ro_at_seal[] __attribute__((visibility("hidden")));
	extern const char __stop_ara_ro_at_seal[] __attribute__((visibility("hidden")));
	const uint64_t start = (uint64_t)(uintptr_t)__start_ara_ro_at_seal;

	ara_protected_view = ara_protected;
	ara_tag(start, (uint64_t)(uintptr_t)__stop_ara_ro_at_seal - start, PROT_READ, ARA_PKEY_DOM1);
}

/*
 * No rseq area may be registered for this thread: through one, the App
 * could have the kernel divert a thread preempted inside DOM0 to an
 * App-chosen address. ara-loader sets glibc.pthread.rseq=0; registering a
 * DOM0 area of our own must therefore succeed (EBUSY: something registered
 * first), and it is unregistered at once. The filter then denies rseq.
 */
static void check_no_rseq(void)
{
	static struct rseq area;
	const long sig = 0x41524121; /* any value: nothing runs a critical section */
	long r = ara_sys4(__NR_rseq, &area, sizeof(area), 0, sig);

	if (r == -EBUSY)
		ara_fatal("an rseq area is registered (glibc.pthread.rseq=0 missing?)", r);
	if (r != 0)
		ara_fatal("rseq registration probe failed", r);
	r = ara_sys4(__NR_rseq, &area, sizeof(area), RSEQ_FLAG_UNREGISTER, sig);
	if (r != 0)
		ara_fatal("rseq unregistration failed", r);
}

/*
 * glibc registered a robust futex list for this thread before ARA ran. At
 * the thread's exit the kernel would walk it and mark, with a compare-and-
 * swap at EL1 that POR_EL0 does not govern, any listed word holding the
 * thread's ID, DOM0's included. ARA drops it; the filter refuses new ones,
 * and new threads start without one.
 */
static void drop_robust_list(void)
{
	long r = ara_sys2(__NR_set_robust_list, 0, 3 * sizeof(uint64_t));

	if (r != 0)
		ara_fatal("set_robust_list(NULL) failed", r);
}

/*
 * A core dump reads every mapping whatever its key, so this process makes
 * none, and its /proc/<pid> files belong to root. (ARA's ranges are also
 * MADV_DONTDUMP; the filter keeps App code from making the process dumpable
 * again.) First of all: execve made the process dumpable, and while it is,
 * any process of the same user may open its /proc/<pid>/fd and mem, and so
 * write into a code copy before it is sealed (code_copy.c) or read the
 * instance key as it is made.
 */
static void refuse_core_dumps(void)
{
#ifndef ARA_TEST_VARIANT_NO_FORK_GUARD
	long r = ara_sys5(__NR_prctl, PR_SET_DUMPABLE, 0, 0, 0, 0);

	if (r != 0)
		ara_fatal("prctl(PR_SET_DUMPABLE, 0) failed", r);
#endif
}

/*
 * An image an App's execve started (execve.c) began with every signal
 * blocked (the mask of ARA's handler, which made the call); the App's own
 * mask at execve is in the boot block. SIGSYS stays ARA's.
 */
static void restore_exec_mask(void)
{
	uint64_t mask = ara_boot_block.sigmask & ~(UINT64_C(1) << (SIGSYS - 1));
	long r;

	if (!ara_boot_block.svc_page)
		return;
	r = ara_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &mask, NULL, sizeof(mask));
	if (r != 0)
		ara_fatal("restoring the signal mask across execve failed", r);
}

/*
 * The process's name, as the kernel would have given it had it executed the
 * App (it executed the dynamic linker, or ARA's boot image).
 */
static void name_process(void)
{
	char comm[ARA_BOOT_COMM_BYTES];

	memcpy(comm, ara_boot_block.comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	if (comm[0] && ara_sys5(__NR_prctl, PR_SET_NAME, comm, 0, 0, 0) != 0)
		ara_fatal("prctl(PR_SET_NAME) failed", 0);
}

/* The gate as mapped must be what the loader hashed in the entry object. */
static void check_gate(uint64_t gate)
{
	const struct ara_boot *b = &ara_boot_block;
	uint8_t digest[ARA_SHA256_BYTES];

	if (b->gate_text.size != ARA_GATE_TEXT_SIZE || b->gate_data.size != ARA_GATE_DATA_SIZE)
		ara_fatal("the entry object's gate sections have unexpected sizes",
			  (long)b->gate_text.size);
	if (mbedtls_sha256((const unsigned char *)(uintptr_t)gate, ARA_GATE_TEXT_SIZE, digest, 0))
		ara_fatal("SHA-256 of the gate failed", 0);
	if (!ara_ct_eq(digest, b->gate_text.sha256, sizeof(digest)))
		ara_fatal("the mapped gate differs from the verified entry object", 0);
}

uint64_t ara_init(char **envp, uint64_t ldso_pc)
{
	uint64_t entry_base, gate, gate_data;
	struct ara_gate_cb cb;

	if (!(ara_auxv_get(envp, AT_HWCAP2) & HWCAP2_POE))
		ara_fatal("this CPU or kernel has no POE (HWCAP2_POE)", 0);
#ifdef ARA_TEST_VARIANT_NAME
	{
		struct ara_msg m = { .len = 0 };

		ara_msg_str(&m, "ara: TEST-ONLY VARIANT " ARA_TEST_VARIANT_NAME
				": built for a test (a protection removed, a limit lowered or a "
				"test service added); do not rely on it\n");
		ara_msg_emit(&m);
	}
#endif
	refuse_core_dumps();
	ara_boot_load(envp, &ara_boot_block);
	ara_hwcap_init(envp);
	ara_svc_page_init();
	ara_verbose = ara_env_is(envp, "ARA_VERBOSE", "1");
	alloc_keys();
	ara_svc_page_protect();
	cb = map_dom0_arena();

	entry_base = ara_entry_base();
	gate = entry_base + ara_boot_block.gate_text.vaddr;
	gate_data = entry_base + ara_boot_block.gate_data.vaddr;
	check_gate(gate);
	ara_interrupted_init(gate, cb.stack_base, cb.stack_stride);
	ara_services_init(&cb);
	/*
	 * Before the modules' start hooks, which run in their domains: libara's
	 * code DOM0 (their rows execute it), its data DOM0 and its read-only
	 * data DOM1 (their rows can neither write the one nor the other), and
	 * what the core wrote only until here read-only. The protected set
	 * must be complete before the scan skips it.
	 */
	ara_tag_libara();
	seal_ro_after_init();
	ara_modules_start(envp); /* before the filter and any App code */
	ara_open_init();	 /* from now on App code opens no TPM */
	*(volatile struct ara_gate_cb *)(uintptr_t)gate_data = cb;

	ara_protect(gate, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC, ARA_DOM0);
	ara_protect(gate + ARA_GATE_DOM1_OFFSET, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC, ARA_DOM1);
	/* Written once, above: read-only from here on, so that no DOM0 write can
	 * redirect the gate's calls (the service table) or its stacks. */
#ifdef ARA_TEST_VARIANT_WRITABLE_CB
	ara_protect(gate_data, ARA_GATE_DATA_SIZE, PROT_READ | PROT_WRITE, ARA_DOM0); /* Test-only */
#else
	ara_protect(gate_data, ARA_GATE_DATA_SIZE, PROT_READ, ARA_DOM0);
#endif
	/* DOM2's key, but ARA's code: the scan skips it, the filter keeps it mapped. */
	ara_protect(gate + ARA_GATE_SIG_OFFSET, ARA_PAGE_SIZE, PROT_READ | PROT_EXEC, ARA_DOM2);
	ara_code_map_init(); /* its staging window is protected, so the scan skips it */
	ara_execve_init(ldso_pc); /* keeps libara and the entry object, mapped, for execve */
	/* After ara_execve_init names ld.so's file: the scan replaces file code by copies. */
	ara_scan_dom2();

	ara_sys1(__NR_close, ara_boot_block.app_fd);
	ara_sys1(__NR_close, ara_boot_block.libara_fd);
	ara_sys1(__NR_close, ara_boot_block.entry_fd);
	check_no_rseq();
	drop_robust_list();
	ara_signals_init(gate);
	ara_drop_privilege();
	/* After the last change DOM0 makes to its ranges; the staging window changes at run time. */
	publish_protected();
	ara_seal_ranges(ara_code_stage_start());

	ara_seccomp_install();
	restore_exec_mask();
	name_process();
	/* Last: the modules see the process as App code will find it (domains tagged). */
	ara_modules_ready();
	ara_simd_scrub(); /* as after a service: nothing of initialisation's crypto stays */
	return gate + ARA_GATE_LEAVE_OFFSET;
}
