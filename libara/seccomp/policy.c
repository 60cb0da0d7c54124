/* SPDX-License-Identifier: Apache-2.0 */
#include "policy.h"

/* <sys/personality.h>, <linux/prctl.h> values, spelled out to keep this file libc-free. */
#define READ_IMPLIES_EXEC 0x0400000u
#define PR_SET_SECCOMP 22u
#define PR_SET_MM 35u
#define PR_SET_SYSCALL_USER_DISPATCH 59u
#define PR_SET_PTRACER 0x59616d61u

const struct ara_seccomp_rule ara_seccomp_denied[] = {
	{ "ptrace", 0, 0, "reads and writes a tracee's memory ignoring pkeys (FOLL_REMOTE), "
			  "and sets its POR_EL0 through NT_ARM_POE" },
	{ "process_vm_readv", 0, 0, "remote access ignores pkeys" },
	{ "process_vm_writev", 0, 0, "remote access ignores pkeys" },
	{ "process_madvise", 0, 0, "advice on another process's (or this one's) pages, unchecked" },
	{ "io_uring_setup", 0, 0, "io_uring workers run with the kernel's POR_EL0, "
				  "and their operations never pass seccomp" },
	{ "io_uring_enter", 0, 0, "as io_uring_setup" },
	{ "io_uring_register", 0, 0, "as io_uring_setup" },
	{ "userfaultfd", 0, 0, "stalls page faults inside ARA's copies, widening races" },
	{ "pkey_alloc", 0, 0, "sets the caller's permission for the key it returns" },
	{ "pkey_free", 0, 0, "frees DOM0's or DOM1's key for reuse" },
	{ "pkey_mprotect", 0, 0, "retags pages, e.g. DOM0's, to a key the App may access" },
	{ "rseq", 0, 0, "a registered rseq area lets the App make the kernel divert a thread "
			"preempted inside DOM0 to an App-chosen abort address" },
	{ "perf_event_open", 0, 0, "samples registers and stacks while a thread runs in DOM0" },
	{ "bpf", 0, 0, "kernel programs that can read user memory" },
	{ "seccomp", 0, 0, "a stacked filter applies to DOM0's own system calls too" },
	{ "prctl", 0xffffffffu, PR_SET_SECCOMP, "as seccomp" },
	{ "prctl", 0xffffffffu, PR_SET_MM, "rewrites the memory map's bookkeeping" },
	{ "prctl", 0xffffffffu, PR_SET_SYSCALL_USER_DISPATCH, "diverts system calls to App code" },
	{ "prctl", 0xffffffffu, PR_SET_PTRACER, "lets another process ptrace this one" },
	{ "personality", READ_IMPLIES_EXEC, READ_IMPLIES_EXEC,
	  "READ_IMPLIES_EXEC makes every readable mapping executable, unscanned" },
};

const size_t ara_seccomp_denied_count = sizeof(ara_seccomp_denied) / sizeof(ara_seccomp_denied[0]);
