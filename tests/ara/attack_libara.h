/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libara's own symbols and the gate's control block, for the attack
 * programs: what an attacker who has a copy of libara.so knows.
 */
#ifndef ARA_TEST_ATTACK_LIBARA_H
#define ARA_TEST_ATTACK_LIBARA_H

#include <stddef.h>
#include <stdint.h>

#include "attack.h"

/* The libara.so this process runs (argv[2] of the attack programs). */
extern const char *attack_libara_file;

/* Load base of a memfd-backed object ("ara-libara", "ara-entry"), or 0. */
uint64_t attack_memfd_base(const char *name);

/*
 * st_value of a symbol in the ELF file's .symtab (libara.so is not
 * stripped), or 0; its st_size in *size if size is not NULL.
 */
uint64_t attack_file_symbol(const char *file, const char *name, uint64_t *size);

/*
 * Address in this process of libara's symbol name, and its size in *size
 * if size is not NULL; 0 (with a FAIL line) if not found.
 */
uint64_t attack_libara_symbol(const char *name, uint64_t *size);

/*
 * Where an attack that writes into DOM0 aims, in order: libara's
 * ara_verbose (a stray write there harms nothing), then the first byte of
 * each writable DOM0 range. Returns how many it put in at (at most max); 0
 * (with a FAIL line) if ara_verbose is not found.
 */
size_t attack_dom0_write_targets(uint64_t *at, size_t max);

/*
 * DOM0's anonymous arena (state page, heap, stacks): its largest
 * read-write range; NULL (with a FAIL line) if none of 8 MiB or more.
 */
const struct range *attack_dom0_arena(void);

/* The staging window of code made executable at run time (ARA_CODE_STAGE_SIZE). */
#define ATTACK_STAGE_SIZE (UINT64_C(256) << 20)

/*
 * The staging window's address, or 0 (with a FAIL line): a DOM0 range of
 * ATTACK_STAGE_SIZE, inaccessible while nothing is staged.
 */
uint64_t attack_staging_window(void);

/* The gate's control block (the entry object's DOM0 data page), or 0. */
uint64_t attack_control_block(void);

/*
 * Once App memory sits where the control block was: writes a control block
 * whose "dispatcher" is libara's memcpy there, makes the gate copy DOM0's
 * canary to the App, and shows it (a LEAK line).
 */
void attack_exploit_control_block(uint64_t control_block);

/*
 * The address of the low 32-bit word of ara_protected's count (the number
 * of ARA's protected ranges), or 0 (with a FAIL line). Not inlined: a vfork
 * child calls it, and nothing of it may live across the vfork.
 */
__attribute__((noinline)) uint64_t attack_protected_count_word(void);

/*
 * Once ara_protected's count is zero: ARA copies arguments in from any
 * address, so rt_sigprocmask (which ARA performs) takes a new mask from
 * DOM0's canary and the old mask gives it back, a byte per call. 0 and an
 * evidence line if ARA still refuses (EFAULT); 1 otherwise (a BREACH and
 * LEAK line if the bytes came).
 */
int attack_copy_canary_in(const char *how);

#endif
