/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The valid control-flow targets of one AArch64 ELF file, derived from the
 * binary alone (docs/rtm.md, "Verification"), as sorted arrays of ELF
 * virtual addresses, so that each lookup is a binary search:
 *   - function entries: STT_FUNC symbols of .symtab and .dynsym, defined
 *     (or an ET_EXEC's canonical PLT address), inside an executable segment;
 *     the targets of indirect calls;
 *   - return sites: the address after every BL, BLR, BLRAA, BLRAAZ, BLRAB,
 *     BLRABZ in the executable segments, decoding every aligned word
 *     (capstone; the PAC calls by their encodings, which capstone 4 does
 *     not know); the targets of returns;
 *   - indirect-jump targets: function entries plus every code address a
 *     R_AARCH64_RELATIVE relocation stores (labels whose address is taken:
 *     computed-goto tables).
 */
#ifndef ARA_RTM_TARGETS_H
#define ARA_RTM_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#include "elf_image.h"

struct ara_rtm_addrs {
	uint64_t *v; /* sorted, no duplicates */
	size_t n, cap;
};

struct ara_rtm_sym {
	uint64_t addr;
	const char *name; /* inside the file's bytes */
};

struct ara_rtm_targets {
	struct ara_rtm_elf elf; /* the file's bytes stay the caller's, alive while this is */
	struct ara_rtm_addrs func, ret, ijmp;
	struct ara_rtm_sym *syms; /* function symbols by address, for messages */
	size_t nsyms;
};

/* 0, or -1 with *why saying what is wrong with the file (or out of memory). */
int ara_rtm_targets_build(struct ara_rtm_targets *t, const uint8_t *mem, size_t size,
			  const char **why);

void ara_rtm_targets_free(struct ara_rtm_targets *t);

/* True if the sorted set holds vaddr. */
int ara_rtm_addrs_has(const struct ara_rtm_addrs *a, uint64_t vaddr);

/*
 * The ELF virtual address of runtime address addr inside a mapping of the
 * file at [start, ...) from file offset offset: 0 and *vaddr, or -1 if no
 * PT_LOAD holds that file offset.
 */
int ara_rtm_targets_vaddr(const struct ara_rtm_targets *t, uint64_t start, uint64_t offset,
			  uint64_t addr, uint64_t *vaddr);

/* The nearest function symbol at or before vaddr, or NULL. */
const struct ara_rtm_sym *ara_rtm_targets_symbol(const struct ara_rtm_targets *t, uint64_t vaddr);

#endif
