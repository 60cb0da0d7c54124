/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's constants the core uses, from one place. DOM0 includes no
 * libc header (it links no libc): the names come from the kernel's own
 * UAPI headers, which are freestanding (definitions only, no code, no
 * libc), and this file defines only what they lack, with the kernel's
 * values:
 *   - names newer than the build's headers (Debian 12's cross headers are
 *     Linux 6.1), each under #ifndef so that newer headers win;
 *   - names the UAPI headers leave to libc (access modes, statfs flags,
 *     socket families, types and message flags);
 *   - a handler's value as a number: the UAPI's SIG_DFL and SIG_IGN are
 *     pointers, and ARA compares the 64-bit words of rt_sigaction's struct.
 * The structures of the same headers come with them. Not here:
 * <linux/elf.h>, whose names clash with the <elf.h> that execve.c and the
 * loader's ELF code use (self.c includes it itself). sys.h and the assembly
 * take the system call numbers from <asm/unistd.h> directly: services include
 * sys.h, and the assembler cannot read C declarations.
 */
#ifndef ARA_DOM0_KERNEL_H
#define ARA_DOM0_KERNEL_H

#include <stdint.h>

#include <asm/hwcap.h> /* HWCAP_*, HWCAP2_* */
#include <asm/ptrace.h> /* PSR_* */
#include <asm/socket.h> /* SOL_SOCKET */
#include <asm/stat.h> /* struct stat */
#include <asm/statfs.h> /* struct statfs */
#include <asm/unistd.h> /* __NR_* */
#include <linux/auxvec.h>
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/fcntl.h> /* O_*, AT_*, F_* */
#include <linux/filter.h>
#include <linux/fs.h> /* SEEK_* */
#include <linux/futex.h>
#include <linux/magic.h> /* *_SUPER_MAGIC */
#include <linux/memfd.h>
#include <linux/mman.h> /* PROT_*, MAP_*, MADV_*, MREMAP_*, MLOCK_* */
#include <linux/openat2.h>
#include <linux/prctl.h>
#include <linux/rseq.h>
#include <linux/sched.h> /* CLONE_* */
#include <linux/seccomp.h>
#include <linux/signal.h> /* SIG*, SA_*, SS_*, MINSIGSTKSZ, the siginfo codes */
#include <linux/stat.h> /* S_IF* */
#include <linux/uio.h> /* struct iovec */
#include <linux/wait.h> /* W*, P_* */

/* Newer than Linux 6.1's headers. */
#ifndef HWCAP2_POE
#define HWCAP2_POE (1UL << 63) /* uapi/asm/hwcap.h from Linux 6.12 */
#endif
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U /* Linux 6.3 */
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U /* Linux 6.3 */
#endif
#ifndef __NR_mseal
#define __NR_mseal 462 /* Linux 6.10 */
#endif

/* Left to libc by the UAPI headers. */
#define X_OK 1	       /* access, faccessat */
#define ST_NOEXEC 8    /* statfs's f_flags: a noexec mount */
#define AF_UNIX 1
#define SOCK_DGRAM 2
#define SCM_RIGHTS 1
#define MSG_CTRUNC 0x8
#define MSG_DONTWAIT 0x40
#define MSG_CMSG_CLOEXEC 0x40000000

/* SIG_DFL and SIG_IGN as rt_sigaction's handler word holds them. */
#define ARA_SIG_DFL UINT64_C(0)
#define ARA_SIG_IGN UINT64_C(1)

#endif
