/* SPDX-License-Identifier: Apache-2.0 */
#include "policy.h"

/*
 * <sys/personality.h>, <linux/prctl.h>, <linux/shm.h>, <linux/kd.h>, <linux/sched.h> values,
 * spelled out to keep this file libc-free.
 */
#define READ_IMPLIES_EXEC 0x0400000u
#define PR_SET_PDEATHSIG 1u
#define PR_SET_DUMPABLE 4u
#define PR_SET_SECCOMP 22u
#define PR_SET_MM 35u
#define PR_SET_SYSCALL_USER_DISPATCH 59u
#define PR_SET_MEMORY_MERGE 67u
#define PR_SET_VMA 0x53564d41u
#define PR_SET_PTRACER 0x59616d61u
#define SHM_REMAP 040000u
#define TIOCSTI 0x5412u
#define TIOCLINUX 0x541cu
#define KDSKBENT 0x4b47u
#define KDSKBSENT 0x4b49u
#define KDSKBDIACR 0x4b4bu
#define KDSETKEYCODE 0x4b4du
#define KDSKBDIACRUC 0x4bfbu
#define CLONE_NEWUSER 0x10000000u

/*
 * The virtual-terminal keyboard tables are the kernel's, shared by every VT
 * (drivers/tty/vt/keyboard.c): what the App writes there is what a later
 * key press on any VT types, into a shell outside ARA, long after the App
 * has gone. Linux 6.12 lets a caller whose controlling terminal is the VT
 * (vt_ioctl's "perm") change the accent table, and one that also has
 * CAP_SYS_TTY_CONFIG the rest.
 */
#define VT_KEYS "any VT (the keyboard tables are the kernel's, one set for all VTs)"
#define VT_CAP                                                                                     \
	"; the kernel also wants CAP_SYS_TTY_CONFIG, which ARA drops (privilege.c): the filter is " \
	"the second wall"
#define VT_PERM                                                                                    \
	"; the kernel wants no capability, only that the VT be the caller's controlling terminal, " \
	"which any process that can open a VT with no session (root can) makes it: the filter is " \
	"the only wall"

const struct ara_seccomp_rule ara_seccomp_denied[] = {
	{ "prctl", 0xffffffffu, PR_SET_SECCOMP, "option PR_SET_SECCOMP",
	  "a stacked filter (or strict mode) applies to DOM0's own system calls too", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_MM, "option PR_SET_MM", "rewrites the memory map's bookkeeping",
	  0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_SYSCALL_USER_DISPATCH, "option PR_SET_SYSCALL_USER_DISPATCH",
	  "diverts system calls to App code", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_PTRACER, "option PR_SET_PTRACER",
	  "lets another process ptrace this one", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_DUMPABLE, "option PR_SET_DUMPABLE with a non-zero value",
	  "a core dump reads every mapping whatever its key (making the process non-dumpable "
	  "stays allowed)", 1, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_VMA, "option PR_SET_VMA",
	  "names any anonymous mapping, ARA's included, splitting it at the range's ends (it "
	  "takes a range the range block does not check)", 0, 0, 0 },
	{ "prctl", 0xffffffffu, PR_SET_MEMORY_MERGE, "option PR_SET_MEMORY_MERGE",
	  "makes every anonymous page mergeable, DOM0's included: a page the App writes that "
	  "merges with a DOM0 page shows, by its copy-on-write, that DOM0 holds the same bytes",
	  0, 0, 0 },
	{ "personality", READ_IMPLIES_EXEC, READ_IMPLIES_EXEC, "READ_IMPLIES_EXEC set",
	  "makes every readable mapping executable, unscanned (this also refuses the query "
	  "personality(0xffffffff))", 0, 0, 0 },
	{ "ioctl", 0xffffffffu, TIOCSTI, "request TIOCSTI",
	  "pushes input into a terminal, which the shell that started the App reads as "
	  "commands: a program outside ARA, run with the App's choice of arguments", 0, 1, 0 },
	{ "ioctl", 0xffffffffu, TIOCLINUX, "request TIOCLINUX",
	  "as TIOCSTI, through the console's selection (paste)", 0, 1, 0 },
	{ "ioctl", 0xffffffffu, KDSKBSENT, "request KDSKBSENT",
	  "sets the string a function key types on " VT_KEYS ": one press, and a command with its "
	  "newline goes to whatever shell reads that VT" VT_CAP, 0, 1, 0 },
	{ "ioctl", 0xffffffffu, KDSKBENT, "request KDSKBENT",
	  "sets what a key does on " VT_KEYS ": type a character or a function key's string, "
	  "switch consoles, or Boot, which reboots" VT_CAP, 0, 1, 0 },
	{ "ioctl", 0xffffffffu, KDSETKEYCODE, "request KDSETKEYCODE",
	  "maps a keyboard's scan code to another key, on every keyboard" VT_CAP, 0, 1, 0 },
	{ "ioctl", 0xffffffffu, KDSKBDIACR, "request KDSKBDIACR",
	  "sets what a dead key followed by another key types on " VT_KEYS VT_PERM, 0, 1, 0 },
	{ "ioctl", 0xffffffffu, KDSKBDIACRUC, "request KDSKBDIACRUC",
	  "as KDSKBDIACR, in Unicode" VT_PERM, 0, 1, 0 },
	{ "unshare", CLONE_NEWUSER, CLONE_NEWUSER, "CLONE_NEWUSER set",
	  "a new user namespace gives its creator every capability in it, so every namespaced "
	  "capability ARA dropped (privilege.c) comes back there, with only the filter in front "
	  "of them. The other namespaces (CLONE_NEWNS, _NEWUTS, _NEWIPC, _NEWPID, _NEWNET, "
	  "_NEWCGROUP, _NEWTIME) need CAP_SYS_ADMIN in the caller's user namespace: with "
	  "CLONE_NEWUSER denied here and in clone, and setns denied, the App stays in the one where "
	  "ARA dropped it, so the kernel refuses them (EPERM) and the filter need not", 0, 0, 0 },
	{ "clone", CLONE_NEWUSER, CLONE_NEWUSER, "CLONE_NEWUSER set",
	  "as unshare: the child would have every capability in a user namespace of its own "
	  "(denied before the CLONE_VM trap, so no child of ARA's clone gets one either)", 0, 0, 0 },
	{ "shmat", SHM_REMAP, SHM_REMAP, "SHM_REMAP set",
	  "replaces whatever is mapped at the address, ARA's pages included, with a shared "
	  "segment (shmat takes no length the range block could check)", 0, 2, 0 },
};

const size_t ara_seccomp_denied_count = sizeof(ara_seccomp_denied) / sizeof(ara_seccomp_denied[0]);

#define PROT_EXEC 0x4u
#define SHM_EXEC 0100000u
#define CLONE_VM 0x100u

const struct ara_seccomp_trap ara_seccomp_trapped[] = {
	{ "clone", "CLONE_VM set",
	  "a task sharing the memory must have its DOM0 signal stack before its first App "
	  "instruction, and the thread ID words the kernel is to write must be App memory", 0,
	  CLONE_VM, 0, 0 },
	{ "mmap", "PROT_EXEC set", "executable code must be scanned, and stay as scanned", 2,
	  PROT_EXEC, 0, 0 },
	{ "mprotect", "PROT_EXEC set", "as mmap", 2, PROT_EXEC, 0, 0 },
	{ "shmat", "SHM_EXEC set", "shared memory made executable keeps writable aliases (ARA "
				   "answers EACCES)", 2, SHM_EXEC, 0, 0 },
	{ "prctl", "option PR_SET_PDEATHSIG",
	  "a vfork child, which shares DOM0's state, must die with its parent thread: ARA keeps "
	  "its SIGKILL until the child's execve, and gives it the App's signal then",
	  0, PR_SET_PDEATHSIG, 0xffffffffu, 0 },
	{ "rt_sigprocmask", "a set (not NULL)",
	  "could block SIGSYS, after which a trapped call kills the process; ARA applies the set "
	  "to the mask the App returns with, SIGSYS removed",
	  1, 0, 0, 1 },
};

const size_t ara_seccomp_trapped_count = sizeof(ara_seccomp_trapped) / sizeof(ara_seccomp_trapped[0]);
