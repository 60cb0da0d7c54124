/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An arm64 ELF image built in memory, laid out like a small linked shared
 * object, for tests (and fuzz seeds) of ara/elf.h and loader/elf_gate.h. File offsets
 * equal virtual addresses:
 *
 *   0x0000  ELF header; program headers at 0x40
 *   0x0200  PT_INTERP string
 *   0x0400  section name string table
 *   0x0500  section headers
 *   0x1000  .ara_gate       2 pages, in PT_LOAD R+X 0x0000..0x3000
 *   0x3000  .ara_gate_data  1 page,  in PT_LOAD R+W 0x3000..0x4000
 *
 * Tests break one field at a time through the pointers.
 */
#ifndef ARA_TEST_ELF_FIXTURE_H
#define ARA_TEST_ELF_FIXTURE_H

#include <elf.h>
#include <stdint.h>

#include "ara/elf.h"

#define FIX_SIZE 0x4000u
#define FIX_INTERP "/lib/ld-linux-aarch64.so.1"

enum { FIX_PH_TEXT, FIX_PH_DATA, FIX_PH_INTERP, FIX_PHNUM };
enum { FIX_SH_NULL, FIX_SH_TEXT, FIX_SH_GATE, FIX_SH_GATE_DATA,
       FIX_SH_SHSTRTAB, FIX_SHNUM };

/* Offsets of the names in the section name string table. */
enum { FIX_NAME_TEXT = 1, FIX_NAME_GATE = 7, FIX_NAME_GATE_DATA = 17,
       FIX_NAME_SHSTRTAB = 32, FIX_STRTAB_SIZE = 42 };

struct elf_fixture {
	_Alignas(8) uint8_t bytes[FIX_SIZE];
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph; /* FIX_PHNUM entries */
	Elf64_Shdr *sh; /* FIX_SHNUM entries */
	struct ara_elf_src src; /* the whole image, in memory */
};

/* A valid entry object that is also a valid App (PT_INTERP FIX_INTERP). */
void elf_fixture_init(struct elf_fixture *f);

#endif
