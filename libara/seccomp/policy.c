/* SPDX-License-Identifier: Apache-2.0 */
#include "policy.h"

/* <sys/personality.h>, <linux/prctl.h> values, spelled out to keep this file libc-free. */
#define READ_IMPLIES_EXEC 0x0400000u
#define PR_SET_DUMPABLE 4u
#define PR_SET_SECCOMP 22u
#define PR_SET_MM 35u
#define PR_SET_SYSCALL_USER_DISPATCH 59u
#define PR_SET_PTRACER 0x59616d61u
#define ENOSYS 38

const struct ara_seccomp_rule ara_seccomp_denied[] = {
	{ "ptrace", 0, 0, "reads and writes a tracee's memory ignoring pkeys (FOLL_REMOTE), "
			  "and sets its POR_EL0 through NT_ARM_POE", 0, 0, 0 },
	{ "process_vm_readv", 0, 0, "remote access ignores pkeys", 0, 0, 0 },
	{ "process_vm_writev", 0, 0, "remote access ignores pkeys", 0, 0, 0 },
	{ "process_madvise", 0, 0, "advice on another process's (or this one's) pages, unchecked", 0, 0, 0 },
	{ "io_uring_setup", 0, 0, "io_uring workers run with the kernel's POR_EL0, "
				  "and their operations never pass seccomp", 0, 0, 0 },
	{ "io_uring_enter", 0, 0, "as io_uring_setup", 0, 0, 0 },
	{ "io_uring_register", 0, 0, "as io_uring_setup", 0, 0, 0 },
	{ "userfaultfd", 0, 0, "stalls page faults inside ARA's copies, widening races", 0, 0, 0 },
	{ "pkey_alloc", 0, 0, "sets the caller's permission for the key it returns", 0, 0, 0 },
	{ "pkey_free", 0, 0, "frees DOM0's or DOM1's key for reuse", 0, 0, 0 },
	{ "pkey_mprotect", 0, 0, "retags pages, e.g. DOM0's, to a key the App may access", 0, 0, 0 },
	{ "rseq", 0, 0, "a registered rseq area lets the App make the kernel divert a thread "
			"preempted inside DOM0 to an App-chosen abort address", 0, 0, 0 },
	{ "perf_event_open", 0, 0, "samples registers and stacks while a thread runs in DOM0", 0, 0, 0 },
	{ "bpf", 0, 0, "kernel programs that can read user memory", 0, 0, 0 },
	{ "seccomp", 0, 0, "a stacked filter applies to DOM0's own system calls too", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_SECCOMP, "as seccomp", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_MM, "rewrites the memory map's bookkeeping", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_SYSCALL_USER_DISPATCH, "diverts system calls to App code", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_PTRACER, "lets another process ptrace this one", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_DUMPABLE,
	  "a core dump reads every mapping whatever its key (making the process "
	  "non-dumpable stays allowed)", 1, 0, 0 },
	{ "set_robust_list", 0, 0, "at a thread's exit the kernel marks each listed futex word whose "
				   "value is the thread's ID with a compare-and-swap at EL1, where "
				   "POR_EL0 does not apply: a list entry could name a DOM0 word (robust "
				   "mutexes lose their owner-died recovery; other mutexes are unaffected)",
	  0, 0, 0 },
	{ "clone3", 0, 0, "its arguments are in memory, which the filter cannot read; ENOSYS makes "
			  "glibc fall back to clone, which ARA mediates", 0, 0, ENOSYS },
	{ "open_by_handle_at", 0, 0, "opens a file without a path ARA could check", 0, 0, 0 },
	{ "remap_file_pages", 0, 0, "rearranges the file pages behind a mapping, executable "
				    "ones included, unscanned", 0, 0, 0 },
	{ "mount", 0, 0, "a bind mount gives a /proc/<pid>/mem file another name", 0, 0, 0 },
	{ "umount2", 0, 0, "as mount", 0, 0, 0 },
	{ "pivot_root", 0, 0, "as mount", 0, 0, 0 },
	{ "open_tree", 0, 0, "as mount", 0, 0, 0 },
	{ "move_mount", 0, 0, "as mount", 0, 0, 0 },
	{ "fsopen", 0, 0, "as mount", 0, 0, 0 },
	{ "fsconfig", 0, 0, "as mount", 0, 0, 0 },
	{ "fsmount", 0, 0, "as mount", 0, 0, 0 },
	{ "fspick", 0, 0, "as mount", 0, 0, 0 },
	{ "mount_setattr", 0, 0, "as mount", 0, 0, 0 },
	{ "personality", READ_IMPLIES_EXEC, READ_IMPLIES_EXEC,
	  "READ_IMPLIES_EXEC makes every readable mapping executable, unscanned", 0, 0, 0 },
};

const size_t ara_seccomp_denied_count = sizeof(ara_seccomp_denied) / sizeof(ara_seccomp_denied[0]);

#define PROT_EXEC 0x4u
#define SHM_EXEC 0100000u
#define CLONE_VM 0x100u

const struct ara_seccomp_trap ara_seccomp_trapped[] = {
	{ "rt_sigreturn", "restores POR_EL0 from a frame App code writes (and, on Linux 6.12, "
			  "kernel stack garbage when the frame has no POE record)", 0, 0 },
	{ "rt_sigaction", "could take SIGSYS, ARA's, or block it in a handler's mask", 0, 0 },
	{ "rt_sigprocmask", "could block SIGSYS, after which a trapped call kills the process", 0, 0 },
	{ "sigaltstack", "the kernel writes signal frames to the signal stack with every key "
			 "enabled: on ARA's pages, that is a write into DOM0", 0, 0 },
	{ "clone", "a task sharing the memory must have its DOM0 signal stack before its first "
		   "App instruction (without CLONE_VM, a fork: the child's memory is a copy)", 0, CLONE_VM },
	{ "openat", "/proc/<pid>/mem reads and writes any mapping ignoring keys; only the path "
		    "(which the filter cannot read) says which file it is", 0, 0 },
	{ "openat2", "as openat", 0, 0 },
	{ "mmap", "executable code must be scanned, and stay as scanned", 2, PROT_EXEC },
	{ "mprotect", "as mmap", 2, PROT_EXEC },
	{ "shmat", "shared memory made executable keeps writable aliases", 2, SHM_EXEC },
	{ "execve", "the new image keeps the filter, so it must run under ARA again, with the "
		    "system-call page where the filter allows it (libara/src/dom0/execve.c)", 0, 0 },
	{ "execveat", "as execve", 0, 0 },
};

const size_t ara_seccomp_trapped_count = sizeof(ara_seccomp_trapped) / sizeof(ara_seccomp_trapped[0]);
