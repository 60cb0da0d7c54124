/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/seccomp_ranges.h"

#include <linux/seccomp.h>

#define MREMAP_FIXED_FLAG 2u
#define DENY (SECCOMP_RET_ERRNO | 1u /* EPERM */)

/* seccomp_data: nr at 0, args[i] at 16 + 8 i, little-endian halves. */
#define NR_OFF 0u
#define ARG_LO(i) (16u + 8u * (i))
#define ARG_HI(i) (20u + 8u * (i))

/*
 * Scratch words: the untagged start and the end of the range, in halves;
 * for futex, whether uaddr2 is checked too; the length, counted as at least 1.
 */
enum { M_A_LO, M_A_HI, M_E_LO, M_E_HI, M_UADDR2, M_L_LO, M_L_HI };

#define RANGE_BLOCK 11u	 /* one protected range */
#define LOAD_BLOCK 34u	 /* loading one (addr, len) pair */
#define WORD_BLOCK 14u	 /* loading one futex word's range */
#define FUTEX_OPS 7u	 /* futex operations whose words are checked */
#define FUTEX_FIXED (3u + 2u + FUTEX_OPS + 1u + 4u + WORD_BLOCK + 3u + WORD_BLOCK)

/* futex operations (linux/futex.h), without FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME. */
#define FUTEX_CMD_MASK 0x7fu
static const struct {
	uint32_t op;
	uint32_t writes_uaddr2;
} futex_ops[FUTEX_OPS] = {
	{ 5, 1 },  /* FUTEX_WAKE_OP: read-modify-write of *uaddr2 */
	{ 11, 1 }, /* FUTEX_WAIT_REQUEUE_PI */
	{ 12, 1 }, /* FUTEX_CMP_REQUEUE_PI */
	{ 6, 0 },  /* FUTEX_LOCK_PI: compare-and-swap of *uaddr */
	{ 7, 0 },  /* FUTEX_UNLOCK_PI */
	{ 8, 0 },  /* FUTEX_TRYLOCK_PI */
	{ 13, 0 }, /* FUTEX_LOCK_PI2 */
};

struct emitter {
	struct sock_filter *out;
	size_t len, cap;
};

static void emit(struct emitter *e, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (e->len < e->cap) {
		e->out[e->len].code = code;
		e->out[e->len].jt = jt;
		e->out[e->len].jf = jf;
		e->out[e->len].k = k;
	}
	e->len++;
}

/*
 * X = the carry out of the low-half sum just computed in A, which carried
 * if A < addend (the addend in X with BPF_X, else k). 5 instructions.
 */
static void carry_to_x(struct emitter *e, uint16_t src, uint32_t k)
{
	emit(e, BPF_JMP | BPF_JGE | src, k, 2, 0);
	emit(e, BPF_LD | BPF_IMM, 1, 0, 0);
	emit(e, BPF_JMP | BPF_JA, 1, 0, 0);
	emit(e, BPF_LD | BPF_IMM, 0, 0, 0);
	emit(e, BPF_MISC | BPF_TAX, 0, 0, 0);
}

/*
 * M_A_* = args[a] without its tag, M_E_* = args[a] + args[l] (64-bit), a
 * zero length counting as 1: [addr, addr) is the byte at addr for the
 * overlap test, or a zero length at a range's first byte would pass it
 * (the kernel's own rules refuse most such calls; the filter must not
 * depend on them). A sum that wraps is denied here. LOAD_BLOCK instructions.
 */
static void load_range(struct emitter *e, unsigned int a, unsigned int l)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(a), 0, 0);
	emit(e, BPF_ST, M_A_LO, 0, 0);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_HI(a), 0, 0);
	emit(e, BPF_ALU | BPF_AND | BPF_K, 0x00ffffffu, 0, 0); /* the kernel ignores the tag */
	emit(e, BPF_ST, M_A_HI, 0, 0);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_HI(l), 0, 0);
	emit(e, BPF_ST, M_L_HI, 0, 0);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(l), 0, 0);
	emit(e, BPF_ST, M_L_LO, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4);	/* low half not zero: as it is */
	emit(e, BPF_LD | BPF_MEM, M_L_HI, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);	/* high half not zero: as it is */
	emit(e, BPF_LD | BPF_IMM, 1, 0, 0);		/* a zero length: one byte */
	emit(e, BPF_ST, M_L_LO, 0, 0);
	emit(e, BPF_LDX | BPF_MEM, M_A_LO, 0, 0);
	emit(e, BPF_LD | BPF_MEM, M_L_LO, 0, 0);
	emit(e, BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0);
	emit(e, BPF_ST, M_E_LO, 0, 0);
	carry_to_x(e, BPF_X, 0);
	emit(e, BPF_LD | BPF_MEM, M_L_HI, 0, 0);
	emit(e, BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0);
	emit(e, BPF_JMP | BPF_JGE | BPF_X, 0, 1, 0);	/* len's high half + carry wrapped */
	emit(e, BPF_RET | BPF_K, DENY, 0, 0);
	emit(e, BPF_MISC | BPF_TAX, 0, 0, 0);		/* X = len's high half + carry */
	emit(e, BPF_LD | BPF_MEM, M_A_HI, 0, 0);
	emit(e, BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0);
	emit(e, BPF_ST, M_E_HI, 0, 0);
	emit(e, BPF_LDX | BPF_MEM, M_A_HI, 0, 0);
	emit(e, BPF_JMP | BPF_JGE | BPF_X, 0, 1, 0);	/* end below start: wrapped */
	emit(e, BPF_RET | BPF_K, DENY, 0, 0);
}

/*
 * M_A_* = args[a] without its tag, M_E_* = that + 4: a futex word, which
 * cannot wrap (the tag is gone). WORD_BLOCK instructions.
 */
static void load_word(struct emitter *e, unsigned int a)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(a), 0, 0);
	emit(e, BPF_ST, M_A_LO, 0, 0);
	emit(e, BPF_ALU | BPF_ADD | BPF_K, 4, 0, 0);
	emit(e, BPF_ST, M_E_LO, 0, 0);
	carry_to_x(e, BPF_K, 4);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_HI(a), 0, 0);
	emit(e, BPF_ALU | BPF_AND | BPF_K, 0x00ffffffu, 0, 0);
	emit(e, BPF_ST, M_A_HI, 0, 0);
	emit(e, BPF_ALU | BPF_ADD | BPF_X, 0, 0, 0);
	emit(e, BPF_ST, M_E_HI, 0, 0);
}

/* Denies if [M_A, M_E) overlaps [s, x): start < x && end > s. RANGE_BLOCK. */
static void check_range(struct emitter *e, uint64_t s, uint64_t x)
{
	emit(e, BPF_LD | BPF_MEM, M_A_HI, 0, 0);
	emit(e, BPF_JMP | BPF_JGT | BPF_K, (uint32_t)(x >> 32), 9, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(x >> 32), 0, 2);
	emit(e, BPF_LD | BPF_MEM, M_A_LO, 0, 0);
	emit(e, BPF_JMP | BPF_JGE | BPF_K, (uint32_t)x, 6, 0);
	emit(e, BPF_LD | BPF_MEM, M_E_HI, 0, 0);
	emit(e, BPF_JMP | BPF_JGT | BPF_K, (uint32_t)(s >> 32), 3, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(s >> 32), 0, 3);
	emit(e, BPF_LD | BPF_MEM, M_E_LO, 0, 0);
	emit(e, BPF_JMP | BPF_JGT | BPF_K, (uint32_t)s, 0, 1);
	emit(e, BPF_RET | BPF_K, DENY, 0, 0);
}

static void check_all(struct emitter *e, const struct ara_region_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		check_range(e, set->r[i].start, set->r[i].end);
}

/* The calls whose args[0], args[1] are a range. */
static const uint32_t range_calls[] = {
	ARA_NR_MUNMAP, ARA_NR_MPROTECT, ARA_NR_MADVISE, ARA_NR_MMAP, ARA_NR_MSEAL, ARA_NR_MLOCK,
	ARA_NR_MUNLOCK, ARA_NR_MLOCK2, ARA_NR_MBIND, ARA_NR_SET_MEMPOLICY_HOME_NODE, ARA_NR_MINCORE,
	ARA_NR_MREMAP,
};
#define N_CALLS (sizeof(range_calls) / sizeof(range_calls[0]))

/* The futex part: FUTEX_FIXED + 2 n RANGE_BLOCK instructions. */
static void check_futex(struct emitter *e, const struct ara_region_set *set)
{
	const size_t checks = set->n * RANGE_BLOCK;
	const size_t end = e->len + FUTEX_FIXED + 2 * checks; /* the first instruction after */

	emit(e, BPF_LD | BPF_W | BPF_ABS, NR_OFF, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, ARA_NR_FUTEX, 1, 0);
	emit(e, BPF_JMP | BPF_JA, (uint32_t)(end - e->len - 1), 0, 0);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(1), 0, 0);
	emit(e, BPF_ALU | BPF_AND | BPF_K, FUTEX_CMD_MASK, 0, 0);
	/* op i: to "uaddr2 too" (1 + FUTEX_OPS - i ahead) or "uaddr only" (3 more). */
	for (uint32_t i = 0; i < FUTEX_OPS; i++)
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, futex_ops[i].op,
		     (uint8_t)(FUTEX_OPS - i + (futex_ops[i].writes_uaddr2 ? 0 : 2)), 0);
	emit(e, BPF_JMP | BPF_JA, (uint32_t)(end - e->len - 1), 0, 0);
	emit(e, BPF_LD | BPF_IMM, 1, 0, 0); /* uaddr2 too */
	emit(e, BPF_JMP | BPF_JA, 1, 0, 0);
	emit(e, BPF_LD | BPF_IMM, 0, 0, 0); /* uaddr only */
	emit(e, BPF_ST, M_UADDR2, 0, 0);
	load_word(e, 0);
	check_all(e, set);
	emit(e, BPF_LD | BPF_MEM, M_UADDR2, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0);
	emit(e, BPF_JMP | BPF_JA, (uint32_t)(end - e->len - 1), 0, 0);
	load_word(e, 4);
	check_all(e, set);
}

/*
 * The 4-byte word the kernel zeroes at a thread's exit or exec, with the
 * row the thread has then, must not overlap a range: DOM0's row when the
 * thread dies inside ARA (a group exit or a fatal signal while it runs
 * there). NULL overlaps none. Each check: its FIXED + n RANGE_BLOCK.
 */
#ifndef ARA_TEST_VARIANT_NO_TID_GUARD
/* set_tid_address's word. */
#define SET_TID_FIXED (3u + WORD_BLOCK)

static void check_set_tid(struct emitter *e, const struct ara_region_set *set)
{
	emit(e, BPF_LD | BPF_W | BPF_ABS, NR_OFF, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, ARA_NR_SET_TID_ADDRESS, 1, 0);
	emit(e, BPF_JMP | BPF_JA, (uint32_t)(WORD_BLOCK + set->n * RANGE_BLOCK), 0, 0);
	load_word(e, 0);
	check_all(e, set);
}
#else
#define SET_TID_FIXED 0u
#define check_set_tid(e, set) ((void)0) /* Test-only: set_tid_address unchecked */
#endif

#ifndef ARA_TEST_VARIANT_NO_CLONE_TID_CHECK
/* A clone's child word with CLONE_CHILD_CLEARTID (args[4] on arm64): a fork's child thread's. */
#define CLONE_CHILD_CLEARTID 0x00200000u
#define CLONE_TID_FIXED (6u + WORD_BLOCK)

static void check_clone_tid(struct emitter *e, const struct ara_region_set *set)
{
	const uint32_t word_and_checks = (uint32_t)(WORD_BLOCK + set->n * RANGE_BLOCK);

	emit(e, BPF_LD | BPF_W | BPF_ABS, NR_OFF, 0, 0);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, ARA_NR_CLONE, 1, 0);
	emit(e, BPF_JMP | BPF_JA, 3 + word_and_checks, 0, 0);
	emit(e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(0), 0, 0);
	emit(e, BPF_JMP | BPF_JSET | BPF_K, CLONE_CHILD_CLEARTID, 1, 0);
	emit(e, BPF_JMP | BPF_JA, word_and_checks, 0, 0);
	load_word(e, 4);
	check_all(e, set);
}
#else
#define CLONE_TID_FIXED 0u
#define check_clone_tid(e, set) ((void)0) /* Test-only: clone's CLONE_CHILD_CLEARTID word unchecked */
#endif

size_t ara_seccomp_ranges_len(size_t n)
{
	/*
	 * futex, set_tid_address and clone, then the mapping calls: dispatch, one load,
	 * the checks, then mremap's new range: test, load, checks
	 */
	return FUTEX_FIXED + 2 * n * RANGE_BLOCK + (SET_TID_FIXED ? SET_TID_FIXED + n * RANGE_BLOCK : 0) +
	       (CLONE_TID_FIXED ? CLONE_TID_FIXED + n * RANGE_BLOCK : 0) +
	       (2 + N_CALLS) + LOAD_BLOCK + n * RANGE_BLOCK + 6 + LOAD_BLOCK + n * RANGE_BLOCK;
}

size_t ara_seccomp_ranges(const struct ara_region_set *set, struct sock_filter *out, size_t cap)
{
	struct emitter e = { out, 0, cap };
	const size_t checks = set->n * RANGE_BLOCK;
	const size_t total = ara_seccomp_ranges_len(set->n);

	if (set->n == 0 || total > cap)
		return 0;
	check_futex(&e, set);
	check_set_tid(&e, set);
	check_clone_tid(&e, set);
	/* Dispatch: a range call goes to the load; anything else past both checks. */
	emit(&e, BPF_LD | BPF_W | BPF_ABS, NR_OFF, 0, 0);
	for (size_t i = 0; i < N_CALLS; i++)
		emit(&e, BPF_JMP | BPF_JEQ | BPF_K, range_calls[i], (uint8_t)(N_CALLS - i), 0);
	emit(&e, BPF_JMP | BPF_JA, (uint32_t)(total - e.len - 1), 0, 0);
	/* args[0], args[1] of every range call. */
	load_range(&e, 0, 1);
	check_all(&e, set);
	/* mremap with MREMAP_FIXED: its new range, args[4], args[2], too. */
	emit(&e, BPF_LD | BPF_W | BPF_ABS, NR_OFF, 0, 0);
	emit(&e, BPF_JMP | BPF_JEQ | BPF_K, ARA_NR_MREMAP, 1, 0);
	emit(&e, BPF_JMP | BPF_JA, (uint32_t)(LOAD_BLOCK + checks + 3), 0, 0);
	emit(&e, BPF_LD | BPF_W | BPF_ABS, ARG_LO(3), 0, 0);
	emit(&e, BPF_JMP | BPF_JSET | BPF_K, MREMAP_FIXED_FLAG, 1, 0);
	emit(&e, BPF_JMP | BPF_JA, (uint32_t)(LOAD_BLOCK + checks), 0, 0);
	load_range(&e, 4, 2);
	check_all(&e, set);
	return e.len == total ? e.len : 0;
}
