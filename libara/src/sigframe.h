/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The arm64 Linux signal frame (uapi asm/sigcontext.h, asm/ucontext.h,
 * arch/arm64/kernel/signal.c), spelled out with fixed-width types so that
 * DOM0 and the host tests share one definition, and the one edit ARA makes
 * to every frame it hands to rt_sigreturn: the POR_EL0 it restores.
 *
 * rt_sigreturn loads POR_EL0 from the frame's poe_context record without
 * checking it, and Linux 6.12 loads uninitialised kernel stack when the
 * record is missing; so ARA sets the record, adding it if absent.
 * Pure code: DOM0 runs it, the host unit tests it.
 */
#ifndef ARA_SIGFRAME_H
#define ARA_SIGFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ara/bytes.h"

#define ARA_SIGINFO_SIZE 128u
#define ARA_SIGCONTEXT_RESERVED 4096u

/* Record magics (uapi asm/sigcontext.h; POE's is from Linux 6.12). */
#define ARA_FPSIMD_MAGIC 0x46508001u
#define ARA_EXTRA_MAGIC 0x45585401u
#define ARA_POE_MAGIC 0x504f4530u
#define ARA_POE_RECORD_SIZE 16u

/* siginfo fields ARA reads (uapi asm-generic/siginfo.h). */
#define ARA_SI_SIGNO 0u
#define ARA_SI_CODE 8u
#define ARA_SI_SYSCALL 24u /* _sigsys._syscall */
#define ARA_SI_ADDR 16u	   /* _sigfault._addr */
#define ARA_SIGSYS 31
#define ARA_SYS_SECCOMP 1

struct ara_sigstack {
	uint64_t ss_sp;
	int32_t ss_flags;
	uint32_t pad;
	uint64_t ss_size;
};

struct ara_sigcontext {
	uint64_t fault_address;
	uint64_t regs[31];
	uint64_t sp, pc, pstate;
	uint64_t pad; /* the kernel's alignment gap: it never writes it */
	uint8_t reserved[ARA_SIGCONTEXT_RESERVED] __attribute__((aligned(16)));
};

struct ara_ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	struct ara_sigstack uc_stack;
	uint64_t uc_sigmask;
	/* glibc's 1024-bit sigset_t, and the alignment gap: the kernel never writes them */
	uint8_t unused[1024 / 8 - sizeof(uint64_t)];
	uint64_t pad;
	struct ara_sigcontext uc_mcontext;
};

struct ara_rt_sigframe {
	uint8_t info[ARA_SIGINFO_SIZE];
	struct ara_ucontext uc;
};

_Static_assert(offsetof(struct ara_ucontext, uc_mcontext) == 176, "asm/ucontext.h");
_Static_assert(offsetof(struct ara_sigcontext, reserved) == 288, "asm/sigcontext.h");
_Static_assert(sizeof(struct ara_rt_sigframe) == 4688, "struct rt_sigframe");

/* Where a frame's records start: what precedes them is all fixed fields. */
#define ARA_SIGFRAME_RECORDS offsetof(struct ara_rt_sigframe, uc.uc_mcontext.reserved)

/* The 32-bit siginfo field at off (ARA_SI_*), little-endian as arm64 writes it. */
static inline int32_t ara_sigframe_info_i32(const struct ara_rt_sigframe *f, unsigned int off)
{
	return (int32_t)ara_get_le32(f->info + off);
}

enum ara_sigframe_result {
	ARA_SIGFRAME_OK = 0,
	ARA_SIGFRAME_MALFORMED = -1, /* a record the kernel would refuse too */
	ARA_SIGFRAME_EXTRA = -2,     /* extra_context (large SVE/SME state): not supported */
	ARA_SIGFRAME_FULL = -3,	     /* no room left to add a poe_context record */
};

/*
 * Makes f restore POR_EL0 = por: sets the frame's one poe_context record, or
 * adds one before the terminator. Checks the records the way the kernel's
 * parse_user_sigframe does (sizes, alignment, bounds, one POE record).
 */
enum ara_sigframe_result ara_sigframe_set_por(struct ara_rt_sigframe *f, uint64_t por);

/*
 * The bytes of f that hold data, from its start: the fixed fields and the
 * records up to and including the terminator, checked as
 * ara_sigframe_set_por checks them; 0 if the list is refused. The kernel
 * writes nothing of a frame beyond them (setup_sigframe) and reads nothing
 * beyond them (parse_user_sigframe stops at the terminator), so they are
 * all of a frame that needs copying, wiping or handing on.
 */
size_t ara_sigframe_used(const struct ara_rt_sigframe *f);

/*
 * How much of f to copy: ara_sigframe_used, or the whole frame if its list
 * is refused (then refused again on the copy, where App code cannot change
 * it).
 */
size_t ara_sigframe_copy_size(const struct ara_rt_sigframe *f);

/*
 * Zeroes the bytes among the fixed fields that the kernel never writes
 * (ucontext's glibc sigset tail and alignment gap, sigcontext's alignment
 * gap): in a frame the kernel wrote they hold whatever the stack held
 * before (zero: trap.c keeps that area zero between frames).
 */
void ara_sigframe_clear_gaps(struct ara_rt_sigframe *f);

/*
 * The POR_EL0 the frame holds (the row of the code it interrupted), with
 * the same checks. A frame without a POE record is ARA_SIGFRAME_MALFORMED.
 */
enum ara_sigframe_result ara_sigframe_get_por(const struct ara_rt_sigframe *f, uint64_t *por);

#endif
