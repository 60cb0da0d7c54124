/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The review of every arm64 system call (syscall_table.h). The question for
 * each one: can App code use it to reach DOM0's memory or code, POR_EL0, or
 * a program outside ARA? In particular, does the kernel touch user memory
 * outside the call that named it, at EL1 with privileged accesses (no POE
 * check: futex atomics), with another task's row (DOM0's, when ARA ends a
 * thread), or remotely (FOLL_REMOTE ignores pkeys)? Allowed calls share a
 * reason by group where the reason is the same.
 */
#include "syscall_table.h"

#define ENOSYS 38

#define ROW(n, call, rule, flags, err, why) { n, n, #call, rule, flags, err, why }
#define ALLOW(n, call, why) ROW(n, call, ARA_SYSCALL_ALLOWED, 0, 0, why)
#define RANGES(n, call, why) ROW(n, call, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_RANGES, 0, why)
#define ARGS(n, call, why) ROW(n, call, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_ARGS, 0, why)
#define DENY(n, call, why) ROW(n, call, ARA_SYSCALL_DENIED, 0, 0, why)
#define DENY_ERR(n, call, err, why) ROW(n, call, ARA_SYSCALL_DENIED, 0, err, why)
#define TRAP(n, call, why) ROW(n, call, ARA_SYSCALL_TRAPPED, 0, 0, why)
#define ABSENT(n, call, why) ROW(n, call, ARA_SYSCALL_ABSENT, 0, ENOSYS, why)
#define UNUSED(n, l, why) { n, l, 0, ARA_SYSCALL_ABSENT, 0, ENOSYS, why }

/* The groups of allowed calls. */
#define FD_IO                                                                                      \
	"descriptor I/O: the kernel reads and writes only the buffers the call names, during the " \
	"call, with the caller's POR_EL0, so POE checks every access (pages it pins, it pins for " \
	"the calling task, which checks the key too)"
#define FD_TABLE                                                                                   \
	"the process's descriptor table; the filter cannot tell one descriptor from another (which " \
	"files may be opened is the open check's, openat)"
#define PATHS                                                                                      \
	"files by path or descriptor, with the caller's credentials; the path and the results "    \
	"cross with the caller's POR_EL0; opening is trapped (openat), and the files ARA depends " \
	"on are the platform's to protect (docs/security.md)"
#define EVENTS                                                                                     \
	"descriptors that report events (or wait for them); what they return crosses in the "     \
	"reading call, with the caller's POR_EL0"
#define WAITS                                                                                      \
	"waits with a temporary signal mask: a signal taken there reaches ARA first, with the "    \
	"mask from before the call in its frame; the filter's SIGSYS is forced at its call, "      \
	"never left pending"
#define INFO                                                                                       \
	"reads information about the process or the system into the caller's buffer, with the "   \
	"caller's POR_EL0"
#define TIME                                                                                       \
	"clocks, timers and sleeps; results cross with the caller's POR_EL0 (a restarted sleep's " \
	"too); timer signals reach ARA's handler first"
#define SCHED                                                                                      \
	"scheduling and priorities: can only make a thread wait, whatever code it runs; no "       \
	"memory beyond the call's own arguments"
#define CREDS                                                                                      \
	"the process's identity: changes no POE right and no mapping; the kernel applies it to "   \
	"later checks (ARA's open and exec checks are the kernel's own, made then)"
#define SIGNALS                                                                                    \
	"sends a signal: ARA's handler receives every signal first (libara/src/dom0/trap.c); a "   \
	"SIGSYS queued with any si_code (one may forge SYS_SECCOMP for oneself) makes ARA perform " \
	"only calls it mediates anyway, with the same checks"
#define SOCKETS                                                                                    \
	"sockets: data, addresses and options cross in the call with the caller's POR_EL0; "       \
	"kernel-filled rings (packet mmap, TCP zero-copy) are kernel pages mapped where mmap, "    \
	"which is range-checked, puts them"
#define IPC                                                                                        \
	"System V and POSIX message queues and semaphores: messages and values are copied in "     \
	"the call with the caller's POR_EL0; semaphore undo records are kernel memory"
#define AIO                                                                                        \
	"Linux AIO: the ring is kernel memory mapped where the kernel chooses; io_submit reads "   \
	"the control blocks and takes the buffers (O_DIRECT pins them) in the call, with the "     \
	"caller's POR_EL0; completions are written to the ring, never to App-named memory (a "  \
	"driver that copies from a kernel worker has POR_EL0_INIT there: key 0, the App's, only)"
#define MOUNT                                                                                      \
	"a bind mount (or a new mount tree) would give /proc/<pid>/mem a name the open check "     \
	"does not know, or change what DOM0's absolute paths name"
#define MEMPOLICY                                                                                  \
	"NUMA placement: pages move between nodes with their contents"
#define KERNEL_SCOPE                                                                               \
	"(beyond the process; ARA also drops the capability it needs, privilege.c, so the filter " \
	"is the second wall)"
#define SET_CLOCK                                                                                  \
	"sets the wall clock, which DOM0 signs into its evidence (the instance's issued_at, "      \
	"services/provision/instance.c; an image started by execve takes it anew)"
#define STEER_CLOCK                                                                                \
	"reads the clock discipline, or steers the clock with CAP_SYS_TIME: the mode is in "       \
	"memory, which the filter cannot read, and reading is what libc's ntp_gettime and "        \
	"adjtime(NULL, ...) make; setting needs CAP_SYS_TIME, which ARA drops (privilege.c)"
#define QUOTA                                                                                      \
	"filesystem quotas (root): limits on disk use, no memory, no code, no program; a write "   \
	"a quota refuses fails as any write may"

const struct ara_syscall ara_syscalls[] = {
	ALLOW(0, io_setup, AIO),
	ALLOW(1, io_destroy, AIO),
	ALLOW(2, io_submit, AIO),
	ALLOW(3, io_cancel, AIO),
	ALLOW(4, io_getevents, AIO),
	ALLOW(5, setxattr, PATHS),
	ALLOW(6, lsetxattr, PATHS),
	ALLOW(7, fsetxattr, PATHS),
	ALLOW(8, getxattr, PATHS),
	ALLOW(9, lgetxattr, PATHS),
	ALLOW(10, fgetxattr, PATHS),
	ALLOW(11, listxattr, PATHS),
	ALLOW(12, llistxattr, PATHS),
	ALLOW(13, flistxattr, PATHS),
	ALLOW(14, removexattr, PATHS),
	ALLOW(15, lremovexattr, PATHS),
	ALLOW(16, fremovexattr, PATHS),
	ALLOW(17, getcwd, INFO),
	ABSENT(18, lookup_dcookie, "oprofile's call; Linux 6.12 no longer implements it"),
	ALLOW(19, eventfd2, EVENTS),
	ALLOW(20, epoll_create1, EVENTS),
	ALLOW(21, epoll_ctl, EVENTS),
	ALLOW(22, epoll_pwait, WAITS),
	ALLOW(23, dup, FD_TABLE),
	ALLOW(24, dup3, FD_TABLE),
	ALLOW(25, fcntl, FD_TABLE "; a lease or lock can only make another opener or locker wait"),
	ALLOW(26, inotify_init1, EVENTS),
	ALLOW(27, inotify_add_watch, EVENTS),
	ALLOW(28, inotify_rm_watch, EVENTS),
	ARGS(29, ioctl, "device and file controls: the driver reads and writes the argument's "
			"memory in the call, with the caller's POR_EL0 (a driver that completes from a "
			"kernel worker has POR_EL0_INIT there, which opens key 0, the App's, only); "
			"devices whose controls reach beyond the process (physical memory, DMA, KVM) "
			"are the open check's to refuse (docs/files.md). Of a VT's keyboard controls, "
			"those left allowed read the tables, or change only how the caller's own VT "
			"delivers the keys pressed (KDSKBMODE's raw codes, KDSKBMETA, KDSKBLED), never "
			"a text the App chose; font and screen-map controls change what a VT shows, "
			"not what it reads"),
	ALLOW(30, ioprio_set, SCHED),
	ALLOW(31, ioprio_get, SCHED),
	ALLOW(32, flock, FD_TABLE "; a lock can only make another locker wait"),
	ALLOW(33, mknodat, PATHS "; a device node it makes (root) is judged by its device number "
				 "when opened (docs/files.md)"),
	ALLOW(34, mkdirat, PATHS),
	ALLOW(35, unlinkat, PATHS),
	ALLOW(36, symlinkat, PATHS),
	ALLOW(37, linkat, PATHS),
	ALLOW(38, renameat, PATHS),
	DENY(39, umount2, MOUNT),
	DENY(40, mount, MOUNT),
	DENY(41, pivot_root, MOUNT),
	ABSENT(42, nfsservctl, "Linux has not implemented it since 3.1"),
	ALLOW(43, statfs, PATHS),
	ALLOW(44, fstatfs, PATHS),
	ALLOW(45, truncate, PATHS),
	ALLOW(46, ftruncate, PATHS),
	ALLOW(47, fallocate, PATHS),
	ALLOW(48, faccessat, PATHS),
	ALLOW(49, chdir, PATHS "; DOM0 names files by absolute path"),
	ALLOW(50, fchdir, PATHS "; DOM0 names files by absolute path"),
	DENY(51, chroot, "DOM0 names files by absolute path in the process's root (/proc/self/fd/N "
			 "when it opens for the App, /proc/self/maps, the program and dynamic linker "
			 "at execve): a new root would let the App choose what those names open"),
	ALLOW(52, fchmod, PATHS),
	ALLOW(53, fchmodat, PATHS),
	ALLOW(54, fchownat, PATHS),
	ALLOW(55, fchown, PATHS),
	TRAP(56, openat, "/proc/<pid>/mem reads and writes any mapping ignoring keys, and other "
			 "files give what denied calls would; only the file (which the filter cannot "
			 "see) says which it is: ARA opens it with O_PATH, checks its class "
			 "(docs/files.md) and opens it for the App (open.c)"),
	ALLOW(57, close, FD_TABLE),
	ALLOW(58, vhangup, "hangs up the controlling terminal (root): a terminal, no memory"),
	ALLOW(59, pipe2, FD_TABLE),
	ALLOW(60, quotactl, QUOTA),
	ALLOW(61, getdents64, FD_IO),
	ALLOW(62, lseek, FD_IO),
	ALLOW(63, read, FD_IO),
	ALLOW(64, write, FD_IO),
	ALLOW(65, readv, FD_IO),
	ALLOW(66, writev, FD_IO),
	ALLOW(67, pread64, FD_IO),
	ALLOW(68, pwrite64, FD_IO),
	ALLOW(69, preadv, FD_IO),
	ALLOW(70, pwritev, FD_IO),
	ALLOW(71, sendfile, FD_IO),
	ALLOW(72, pselect6, WAITS),
	ALLOW(73, ppoll, WAITS),
	ALLOW(74, signalfd4, EVENTS "; the filter's SIGSYS is forced at its call, never pending "
				 "for a signalfd to take"),
	ALLOW(75, vmsplice, FD_IO),
	ALLOW(76, splice, FD_IO),
	ALLOW(77, tee, FD_IO),
	ALLOW(78, readlinkat, PATHS),
	ALLOW(79, newfstatat, PATHS),
	ALLOW(80, fstat, PATHS),
	ALLOW(81, sync, FD_IO),
	ALLOW(82, fsync, FD_IO),
	ALLOW(83, fdatasync, FD_IO),
	ALLOW(84, sync_file_range, FD_IO),
	ALLOW(85, timerfd_create, EVENTS),
	ALLOW(86, timerfd_settime, EVENTS),
	ALLOW(87, timerfd_gettime, EVENTS),
	ALLOW(88, utimensat, PATHS),
	DENY(89, acct, "makes the kernel append a record to a file of the App's choice at every "
		       "process's exit, system-wide " KERNEL_SCOPE),
	ALLOW(90, capget, INFO),
	ALLOW(91, capset, CREDS "; it can only lower the sets, or raise within the permitted set, "
				"which ARA has cut (privilege.c)"),
	ARGS(92, personality, "other persona flags change how later mappings and images are laid "
			      "out, not what POE allows"),
	ALLOW(93, exit, "ends the calling thread, which runs App code: the kernel's stores at exit "
			"(clear_child_tid) use the App's row; robust lists and rseq areas cannot be "
			"registered"),
	ALLOW(94, exit_group, "as exit, for every thread: one it ends inside DOM0 stores with "
			      "DOM0's row, but only to an address checked when it was registered "
			      "(set_tid_address, clone)"),
	ALLOW(95, waitid, INFO),
	ROW(96, set_tid_address, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_RANGES, 0,
	    "registers the word the kernel zeroes and wakes when the thread exits or execs, a store "
	    "made with the row of that moment (DOM0's when ARA ends the thread): refused when the "
	    "4-byte word overlaps ARA's ranges; NULL and App words pass (glibc registers its "
	    "thread ID word)"),
	ARGS(97, unshare, "an unshared descriptor table, working directory or semaphore undo list is "
			  "the thread's own; a new namespace (but see CLONE_NEWUSER) needs "
			  "CAP_SYS_ADMIN, which ARA drops, and would start as a copy of the current one "
			  "(the mount calls that could change a copy are denied)"),
	RANGES(98, futex, "the operations whose word the kernel changes at EL1 with exclusive loads "
			  "and stores, which POR_EL0 does not govern (FUTEX_WAKE_OP, the PI "
			  "operations), are refused when the word at uaddr (or uaddr2 for WAKE_OP "
			  "and the requeues) overlaps ARA's ranges; the others read the word with "
			  "the caller's POR_EL0"),
	DENY(99, set_robust_list, "at a thread's exit the kernel marks each listed futex word that "
				  "holds the thread's ID with a compare-and-swap at EL1, where POR_EL0 "
				  "does not apply: an entry could name a DOM0 word (robust mutexes lose "
				  "their owner-died recovery; others are unaffected)"),
	ALLOW(100, get_robust_list, "reads a thread's list head pointer (another process's with "
				    "ptrace read access); it cannot register one"),
	ALLOW(101, nanosleep, TIME),
	ALLOW(102, getitimer, TIME),
	ALLOW(103, setitimer, TIME),
	DENY(104, kexec_load, "replaces the running kernel " KERNEL_SCOPE),
	DENY(105, init_module, "runs code of the App's choice in the kernel " KERNEL_SCOPE),
	DENY(106, delete_module, "unloads kernel code the platform relies on " KERNEL_SCOPE),
	ALLOW(107, timer_create, TIME),
	ALLOW(108, timer_gettime, TIME),
	ALLOW(109, timer_getoverrun, TIME),
	ALLOW(110, timer_settime, TIME),
	ALLOW(111, timer_delete, TIME),
	DENY(112, clock_settime, SET_CLOCK),
	ALLOW(113, clock_gettime, TIME),
	ALLOW(114, clock_getres, TIME),
	ALLOW(115, clock_nanosleep, TIME),
	ALLOW(116, syslog, "the kernel log (root): it holds no DOM0 memory (addresses it may show "
			   "are in /proc/self/maps anyway)"),
	DENY(117, ptrace, "reads and writes a tracee's memory ignoring pkeys (FOLL_REMOTE), and sets "
			  "its POR_EL0 through NT_ARM_POE"),
	ALLOW(118, sched_setparam, SCHED),
	ALLOW(119, sched_setscheduler, SCHED),
	ALLOW(120, sched_getscheduler, SCHED),
	ALLOW(121, sched_getparam, SCHED),
	ALLOW(122, sched_setaffinity, SCHED),
	ALLOW(123, sched_getaffinity, SCHED),
	ALLOW(124, sched_yield, SCHED),
	ALLOW(125, sched_get_priority_max, SCHED),
	ALLOW(126, sched_get_priority_min, SCHED),
	ALLOW(127, sched_rr_get_interval, SCHED),
	ALLOW(128, restart_syscall, "replays the interrupted call's restart block, with the "
				    "caller's POR_EL0 (a DOM0 call's pointers fault for App code); "
				    "ARA's rt_sigreturn clears the block"),
	ALLOW(129, kill, SIGNALS),
	ALLOW(130, tkill, SIGNALS),
	ALLOW(131, tgkill, SIGNALS),
	TRAP(132, sigaltstack, "the kernel writes signal frames to the signal stack with every key "
			       "enabled: on ARA's pages, that is a write into DOM0; ARA keeps the "
			       "App's stack and builds the App's frames there"),
	ALLOW(133, rt_sigsuspend, WAITS),
	TRAP(134, rt_sigaction, "could take SIGSYS, ARA's, or block it in a handler's mask; ARA "
				"calls the App's handlers with DOM2's row"),
	ARGS(135, rt_sigprocmask, "without a set, a query: the kernel only writes the thread's mask "
				  "to oldset, with the caller's POR_EL0 (EFAULT on ARA's pages); that mask "
				  "is the App's own, as ARA keeps it (SIGSYS never blocked)"),
	ALLOW(136, rt_sigpending, INFO),
	ALLOW(137, rt_sigtimedwait, WAITS),
	ALLOW(138, rt_sigqueueinfo, SIGNALS),
	TRAP(139, rt_sigreturn, "restores POR_EL0 from a frame App code writes (and, on Linux 6.12, "
				"kernel stack garbage when the frame has no POE record)"),
	ALLOW(140, setpriority, SCHED),
	ALLOW(141, getpriority, SCHED),
	DENY(142, reboot, "restarts or halts the machine, or arms kexec " KERNEL_SCOPE),
	ALLOW(143, setregid, CREDS),
	ALLOW(144, setgid, CREDS),
	ALLOW(145, setreuid, CREDS),
	ALLOW(146, setuid, CREDS),
	ALLOW(147, setresuid, CREDS),
	ALLOW(148, getresuid, INFO),
	ALLOW(149, setresgid, CREDS),
	ALLOW(150, getresgid, INFO),
	ALLOW(151, setfsuid, CREDS),
	ALLOW(152, setfsgid, CREDS),
	ALLOW(153, times, INFO),
	ALLOW(154, setpgid, CREDS),
	ALLOW(155, getpgid, INFO),
	ALLOW(156, getsid, INFO),
	ALLOW(157, setsid, CREDS),
	ALLOW(158, getgroups, INFO),
	ALLOW(159, setgroups, CREDS),
	ALLOW(160, uname, INFO),
	ALLOW(161, sethostname, "the system's name (root): no memory, no code, no program"),
	ALLOW(162, setdomainname, "the system's NIS domain name (root): no memory, no code, no "
				  "program"),
	ALLOW(163, getrlimit, INFO),
	ALLOW(164, setrlimit, "limits apply to DOM0's calls too; what DOM0 does when one of its "
			      "steps fails is docs/security.md's (availability)"),
	ALLOW(165, getrusage, INFO),
	ALLOW(166, umask, CREDS),
	ARGS(167, prctl, "the other options act on the calling thread or process within what POE "
			 "and the filter allow (names, signals on parent death, no_new_privs, "
			 "capabilities within the bounding set, speculation controls, pointer "
			 "authentication keys of the calling thread)"),
	ALLOW(168, getcpu, INFO),
	ALLOW(169, gettimeofday, TIME),
	DENY(170, settimeofday, SET_CLOCK),
	ALLOW(171, adjtimex, STEER_CLOCK),
	ALLOW(172, getpid, INFO),
	ALLOW(173, getppid, INFO),
	ALLOW(174, getuid, INFO),
	ALLOW(175, geteuid, INFO),
	ALLOW(176, getgid, INFO),
	ALLOW(177, getegid, INFO),
	ALLOW(178, gettid, INFO),
	ALLOW(179, sysinfo, INFO),
	ALLOW(180, mq_open, IPC),
	ALLOW(181, mq_unlink, IPC),
	ALLOW(182, mq_timedsend, IPC),
	ALLOW(183, mq_timedreceive, IPC),
	ALLOW(184, mq_notify, IPC),
	ALLOW(185, mq_getsetattr, IPC),
	ALLOW(186, msgget, IPC),
	ALLOW(187, msgctl, IPC),
	ALLOW(188, msgrcv, IPC),
	ALLOW(189, msgsnd, IPC),
	ALLOW(190, semget, IPC),
	ALLOW(191, semctl, IPC),
	ALLOW(192, semtimedop, IPC),
	ALLOW(193, semop, IPC),
	ALLOW(194, shmget, "creates or finds a segment; mapping it is shmat's"),
	ALLOW(195, shmctl, "acts on a segment, not on a mapping"),
	ARGS(196, shmat, "without SHM_REMAP the kernel refuses an address already mapped (EINVAL), "
			 "so a segment cannot cover ARA's pages"),
	ALLOW(197, shmdt, "unmaps only the System V segments attached at the address (the kernel "
			  "checks each mapping's file), and ARA attaches none"),
	ALLOW(198, socket, SOCKETS),
	ALLOW(199, socketpair, SOCKETS),
	ALLOW(200, bind, SOCKETS),
	ALLOW(201, listen, SOCKETS),
	ALLOW(202, accept, SOCKETS),
	ALLOW(203, connect, SOCKETS),
	ALLOW(204, getsockname, SOCKETS),
	ALLOW(205, getpeername, SOCKETS),
	ALLOW(206, sendto, SOCKETS),
	ALLOW(207, recvfrom, SOCKETS),
	ALLOW(208, setsockopt, SOCKETS),
	ALLOW(209, getsockopt, SOCKETS),
	ALLOW(210, shutdown, SOCKETS),
	ALLOW(211, sendmsg, SOCKETS),
	ALLOW(212, recvmsg, SOCKETS),
	ALLOW(213, readahead, FD_IO),
	ALLOW(214, brk, "moves the heap's end: growing refuses to cross any mapping, shrinking "
			"unmaps only [new end, old end) of the heap, where no ARA range can be (they "
			"exist before the App's heap grows, and mseal refuses the unmap too)"),
	RANGES(215, munmap, "unmapping ARA's pages would let App memory replace them"),
	RANGES(216, mremap, "moving ARA's pages, or moving App pages over them (MREMAP_FIXED's new "
			    "range is checked too), replaces them"),
	ALLOW(217, add_key, "kernel keyrings: keys live in kernel memory and their payloads cross in "
			    "the call, with the caller's POR_EL0"),
	DENY(218, request_key, "a key the kernel does not have makes it start /sbin/request-key, a "
			       "program outside ARA, with arguments the App chose"),
	ALLOW(219, keyctl, "as add_key; no keyctl operation starts a program (request_key does)"),
	ROW(220, clone, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_RANGES | ARA_SYSCALL_ARGS, 0,
	    "without CLONE_VM, a fork: the child's memory is a copy; the thread ID words it names "
	    "are written in the call, or at the child's start, with the App's row, but "
	    "CLONE_CHILD_CLEARTID's is zeroed at the child thread's exit with the row it has "
	    "then (DOM0's if it dies while inside ARA, by a group exit or a fatal signal): refused "
	    "when that 4-byte word overlaps ARA's ranges, as set_tid_address's"),
	TRAP(221, execve, "the new image keeps the filter, so it must run under ARA again, with the "
			  "system-call page where the filter allows it (libara/src/dom0/execve.c)"),
	ROW(222, mmap, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_RANGES | ARA_SYSCALL_ARGS, 0,
	    "an address on ARA's ranges is refused (a fixed mapping would replace ARA's pages)"),
	ALLOW(223, fadvise64, FD_IO),
	DENY(224, swapon, "sends any process's pages, DOM0's included, to a device of the App's "
			  "choice " KERNEL_SCOPE),
	DENY(225, swapoff, "as swapon " KERNEL_SCOPE),
	ROW(226, mprotect, ARA_SYSCALL_ALLOWED, ARA_SYSCALL_RANGES | ARA_SYSCALL_ARGS, 0,
	    "re-protecting ARA's pages is refused"),
	ALLOW(227, msync, "writes back or invalidates file pages; ARA's mappings are private, so "
			  "MS_INVALIDATE leaves their copies alone"),
	RANGES(228, mlock, "locking splits the mappings at the range's ends: ARA's keep their shape"),
	RANGES(229, munlock, "as mlock"),
	ALLOW(230, mlockall, "locks every mapping, splitting none"),
	ALLOW(231, munlockall, "as mlockall"),
	RANGES(232, mincore, "tells which pages of the range are in memory, as /proc/self/pagemap "
			     "(refused) would: on ARA's ranges, which pages DOM0 has touched (its "
			     "stacks, heap and buffers as a call uses them)"),
	RANGES(233, madvise, "discarding advice (MADV_DONTNEED, MADV_FREE, MADV_REMOVE) zeroes "
			     "pages, others change how they fork or merge: refused on ARA's "
			     "ranges; mseal would refuse only the discarding kinds, and only on "
			     "read-only memory"),
	DENY(234, remap_file_pages, "rearranges the file pages behind a mapping, executable ones "
				    "included, unscanned"),
	RANGES(235, mbind, MEMPOLICY "; setting a policy splits the mappings at the range's ends: "
				     "ARA's keep their shape"),
	ALLOW(236, get_mempolicy, MEMPOLICY "; it reads a policy, never a page: with MPOL_F_ADDR the "
					    "policy of the mapping at addr (on ARA's ranges the default, "
					    "since mbind is range-checked), and with MPOL_F_NODE too the "
					    "node of the page there, which the kernel looks up with "
					    "get_user_pages, whose POE check refuses DOM2's row a DOM0 page "
					    "(EFAULT, present or not, before anything is faulted in)"),
	ALLOW(237, set_mempolicy, MEMPOLICY "; the thread's policy for later allocations"),
	ALLOW(238, migrate_pages, MEMPOLICY "; it takes no address: it moves every page of a "
					    "process between nodes (another process's need ptrace read "
					    "access, other nodes CAP_SYS_NICE) and returns how many could "
					    "not be moved, never which"),
	DENY(239, move_pages, "reports, for each address of a list in memory (which the filter cannot "
			      "read), whether the page there is present and on which node, as "
			      "/proc/self/pagemap (refused) would: for ARA's pages, which ones DOM0 has "
			      "touched; moving them (nodes given) reports the same. An App has no need "
			      "to place single pages on nodes"),
	ALLOW(240, rt_tgsigqueueinfo, SIGNALS),
	DENY(241, perf_event_open, "samples registers and stacks while a thread runs in DOM0"),
	ALLOW(242, accept4, SOCKETS),
	ALLOW(243, recvmmsg, SOCKETS),
	UNUSED(244, 259, "reserved for architecture-specific calls; arm64 defines none"),
	ALLOW(260, wait4, INFO),
	ALLOW(261, prlimit64, "as setrlimit; another process's limits need its credentials"),
	DENY(262, fanotify_init, "permission events (FAN_OPEN_PERM, FAN_ACCESS_PERM) hold another "
				 "task's opens and reads, DOM0's among them, until the listener "
				 "answers, widening races as userfaultfd would (root only)"),
	ALLOW(263, fanotify_mark, "needs a descriptor that only fanotify_init, denied, creates"),
	ALLOW(264, name_to_handle_at, PATHS),
	DENY(265, open_by_handle_at, "opens a file without a path ARA could check"),
	ALLOW(266, clock_adjtime, STEER_CLOCK),
	ALLOW(267, syncfs, FD_IO),
	DENY(268, setns, "joins another namespace, a mount namespace where DOM0's absolute paths "
			 "(/proc/self/..., the dynamic linker) name other files among them"),
	ALLOW(269, sendmmsg, SOCKETS),
	DENY(270, process_vm_readv, "remote access ignores pkeys"),
	DENY(271, process_vm_writev, "remote access ignores pkeys"),
	ALLOW(272, kcmp, "compares two processes' kernel objects (ptrace read access to both): no "
			 "memory contents"),
	DENY(273, finit_module, "as init_module " KERNEL_SCOPE),
	ALLOW(274, sched_setattr, SCHED),
	ALLOW(275, sched_getattr, SCHED),
	ALLOW(276, renameat2, PATHS),
	DENY(277, seccomp, "a stacked filter applies to DOM0's own system calls too"),
	ALLOW(278, getrandom, INFO),
	ALLOW(279, memfd_create, "an anonymous file; mapping it executable is mmap's trap"),
	DENY(280, bpf, "kernel programs that can read user memory"),
	TRAP(281, execveat, "as execve"),
	DENY(282, userfaultfd, "stalls page faults inside ARA's copies, widening races"),
	ALLOW(283, membarrier, "barriers across the process's threads; its rseq commands need an "
			       "rseq area, which cannot be registered"),
	RANGES(284, mlock2, "as mlock"),
	ALLOW(285, copy_file_range, FD_IO),
	ALLOW(286, preadv2, FD_IO),
	ALLOW(287, pwritev2, FD_IO),
	DENY(288, pkey_mprotect, "retags pages, e.g. DOM0's, to a key the App may access"),
	DENY(289, pkey_alloc, "sets the caller's permission for the key it returns"),
	DENY(290, pkey_free, "frees DOM0's or DOM1's key for reuse"),
	ALLOW(291, statx, PATHS),
	ALLOW(292, io_pgetevents, AIO),
	DENY(293, rseq, "a registered rseq area lets the App make the kernel divert a thread "
			"preempted inside DOM0 to an App-chosen abort address"),
	DENY(294, kexec_file_load, "as kexec_load " KERNEL_SCOPE),
	UNUSED(295, 423, "unused on arm64: 403 to 423 are the time64 calls of 32-bit architectures "
			 "only, and 295 to 402 were skipped so that newer calls have one number "
			 "on every architecture"),
	ALLOW(424, pidfd_send_signal, SIGNALS),
	DENY(425, io_uring_setup, "io_uring workers run with the kernel's POR_EL0, and their "
				  "operations never pass seccomp"),
	DENY(426, io_uring_enter, "as io_uring_setup"),
	DENY(427, io_uring_register, "as io_uring_setup"),
	DENY(428, open_tree, MOUNT),
	DENY(429, move_mount, MOUNT),
	DENY(430, fsopen, MOUNT),
	DENY(431, fsconfig, MOUNT),
	DENY(432, fsmount, MOUNT),
	DENY(433, fspick, MOUNT),
	ALLOW(434, pidfd_open, "a descriptor for a process; what it can do goes through other calls "
			       "(signals; pidfd_getfd is denied)"),
	DENY_ERR(435, clone3, ENOSYS, "its arguments are in memory, which the filter cannot read; "
				      "ENOSYS makes glibc fall back to clone, which ARA mediates"),
	ALLOW(436, close_range, FD_TABLE),
	TRAP(437, openat2, "as openat"),
	DENY(438, pidfd_getfd, "copies a descriptor out of another process (ptrace access), e.g. "
			       "another ARA process's TPM descriptor"),
	ALLOW(439, faccessat2, PATHS),
	DENY(440, process_madvise, "advice on another process's (or this one's) pages, without "
				   "the range check"),
	ALLOW(441, epoll_pwait2, WAITS),
	DENY(442, mount_setattr, MOUNT),
	ALLOW(443, quotactl_fd, QUOTA),
	ALLOW(444, landlock_create_ruleset, "builds a ruleset descriptor, which applies only "
					    "through landlock_restrict_self, denied"),
	ALLOW(445, landlock_add_rule, "as landlock_create_ruleset"),
	DENY(446, landlock_restrict_self, "a Landlock domain confines every later call of the "
					  "thread, DOM0's opens and executions included, as a "
					  "stacked seccomp filter would"),
	ALLOW(447, memfd_secret, "memory taken out of the kernel's direct map, mapped in this "
				 "process only"),
	ALLOW(448, process_mrelease, "frees the memory of a process that is already being killed"),
	ALLOW(449, futex_waitv, "waits on several words, read with the caller's POR_EL0; no "
				"read-modify-write at EL1"),
	RANGES(450, set_mempolicy_home_node, MEMPOLICY "; setting it splits the mappings at the "
						       "range's ends: ARA's keep their shape"),
	ALLOW(451, cachestat, "page-cache statistics of a file, no process memory"),
	ALLOW(452, fchmodat2, PATHS),
	ABSENT(453, map_shadow_stack, "no shadow stacks on arm64 under Linux 6.12 (arm64's GCS "
				      "came later, and the kernel writes a token into each stack it "
				      "maps): refused until reviewed"),
	ALLOW(454, futex_wake, "futex2 on plain futexes: words read with the caller's POR_EL0, no "
			       "read-modify-write at EL1 (futex's PI and WAKE_OP have no futex2 form)"),
	ALLOW(455, futex_wait, "as futex_wake"),
	ALLOW(456, futex_requeue, "as futex_wake"),
	ALLOW(457, statmount, "describes a mount, no process memory"),
	ALLOW(458, listmount, "lists mounts, no process memory"),
	ALLOW(459, lsm_get_self_attr, INFO),
	ALLOW(460, lsm_set_self_attr, "sets the calling task's security-module attributes as the "
				      "module's policy allows (as writing /proc/self/attr/*)"),
	ALLOW(461, lsm_list_modules, INFO),
	RANGES(462, mseal, "sealing ARA's pages is ARA's to do; App code seals its own"),
};

const size_t ara_syscalls_count = sizeof(ara_syscalls) / sizeof(ara_syscalls[0]);
