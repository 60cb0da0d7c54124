/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_vs_capstone [--min-writes N] ELF...
 * scan_vs_capstone --synthetic
 *
 * Cross-checks the scanner's decoding rule against Capstone, word by word:
 * every 4-aligned word of every executable PT_LOAD segment of each ELF (or of
 * a seeded synthetic buffer) is decoded alone by Capstone, and the words
 * Capstone reads as a POR_EL0 write must be exactly those the scanner
 * reports. Fails on any disagreement, or if an ELF has fewer than N writes.
 *
 * Capstone's answer: instruction id ARM64_INS_MSR whose first operand is an
 * ARM64_OP_REG_MSR naming POR_EL0. Capstone 4.0.2 has no name for POR_EL0
 * and reports the raw encoding op0:op1:CRn:CRm:op2 (printed s3_3_c10_c2_4).
 * Capstone 4 predates FEAT_SYSREG128 and cannot decode MSRR at all: a word
 * the scanner flags that Capstone cannot decode is accepted only if it lies
 * in the 128-bit System register move class (bits 31:22 = 1101010101), and
 * is counted separately.
 */
#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ara/scan.h"
#include "elf_image.h"

/* Capstone's System register number: op0<<14 | op1<<11 | CRn<<7 | CRm<<3 | op2. */
#define CS_SYSREG(op0, op1, crn, crm, op2) \
	((op0) << 14 | (op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))
#define CS_SYSREG_POR_EL0 CS_SYSREG(3, 3, 10, 2, 4)
#define SYSREG128_MOVE_CLASS 0x355u /* bits 31:22 of MSRR and MRRS */

#define SYNTHETIC_RANDOM_WORDS (1u << 20)
#define SYNTHETIC_CLASS_WORDS (1u << 18)

struct tally {
	size_t words;
	size_t writes;		 /* both agree: a POR_EL0 write */
	size_t msrr_undecodable; /* of which Capstone cannot decode */
	size_t disagreements;
};

static bool capstone_writes_por(csh cs, cs_insn *insn, const uint8_t *word,
				uint64_t addr, bool *decoded)
{
	const uint8_t *p = word;
	size_t size = ARA_INSN_BYTES;
	const cs_arm64 *a64;

	*decoded = cs_disasm_iter(cs, &p, &size, &addr, insn);
	if (!*decoded || insn->id != ARM64_INS_MSR)
		return false;
	a64 = &insn->detail->arm64;
	return a64->op_count >= 1 && a64->operands[0].type == ARM64_OP_REG_MSR &&
	       a64->operands[0].reg == CS_SYSREG_POR_EL0;
}

/* The scanner's verdict per word of code[0..size). NULL on failure. */
static bool *scanner_flags(const uint8_t *code, size_t size)
{
	size_t words = size / ARA_INSN_BYTES, found = 0, filled = 0;
	bool *flag = calloc(words ? words : 1, sizeof(*flag));
	size_t *offsets = NULL;

	if (flag && ara_scan_por_writes(code, size, NULL, 0, &found) == ARA_SCAN_OK)
		offsets = malloc((found ? found : 1) * sizeof(*offsets));
	if (offsets &&
	    ara_scan_por_writes(code, size, offsets, found, &filled) == ARA_SCAN_OK &&
	    filled == found) {
		for (size_t k = 0; k < found; k++)
			flag[offsets[k] / ARA_INSN_BYTES] = true;
		free(offsets);
		return flag;
	}
	free(offsets);
	free(flag);
	return NULL;
}

static bool compare_range(csh cs, cs_insn *insn, const uint8_t *code,
			  size_t size, uint64_t addr, struct tally *t)
{
	bool *flag = scanner_flags(code, size);

	if (!flag) {
		fprintf(stderr, "FAIL scanner refused the range at %#llx\n",
			(unsigned long long)addr);
		return false;
	}
	for (size_t i = 0; i < size / ARA_INSN_BYTES; i++) {
		const uint8_t *p = code + i * ARA_INSN_BYTES;
		uint64_t at = addr + i * ARA_INSN_BYTES;
		uint32_t w;
		bool decoded, cap = capstone_writes_por(cs, insn, p, at, &decoded);

		memcpy(&w, p, sizeof(w));
		t->words++;
		if (cap == flag[i]) {
			t->writes += cap;
		} else if (flag[i] && !decoded && w >> 22 == SYSREG128_MOVE_CLASS) {
			t->writes++;
			t->msrr_undecodable++;
		} else {
			t->disagreements++;
			fprintf(stderr, "DISAGREE at %#llx: word %08x, scanner %d, "
				"capstone %d (%s %s)\n", (unsigned long long)at,
				w, flag[i], cap, decoded ? insn->mnemonic : "invalid",
				decoded ? insn->op_str : "");
		}
	}
	free(flag);
	return true;
}

static void report(const char *name, const struct tally *t)
{
	printf("scan-vs-capstone: %s: %zu words, %zu POR_EL0 writes "
	       "(%zu MSRR, which capstone 4 cannot decode), %s\n", name,
	       t->words, t->writes, t->msrr_undecodable,
	       t->disagreements ? "DISAGREE" : "agree");
}

static bool check_elf(csh cs, cs_insn *insn, const char *path,
		      size_t min_writes)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct elf_segment seg[ELF_SEGMENTS_MAX];
	struct tally t = { 0 };
	struct elf_image img;
	size_t nseg = 0;
	bool ok;

	if (elf_image_load(path, &img))
		return false;
	ok = !elf_exec_segments(&img, path, seg, &nseg);
	for (size_t i = 0; ok && i < nseg; i++)
		ok = compare_range(cs, insn, img.bytes + seg[i].offset,
				   seg[i].size, seg[i].vaddr, &t);
	elf_image_free(&img);
	if (!ok)
		return false;
	report(name, &t);
	if (t.writes < min_writes)
		fprintf(stderr, "FAIL %s: %zu POR_EL0 writes, expected at least %zu\n",
			name, t.writes, min_writes);
	return !t.disagreements && t.writes >= min_writes;
}

/* Deterministic xorshift32, so a disagreement reproduces. */
static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* Fills words[] with the crafted encodings; returns how many, and the
 * number of those that are MSR POR_EL0 in *msr. */
static size_t crafted_words(uint32_t *words, size_t *msr)
{
	size_t n = 0;

	*msr = 0;
	for (uint32_t rt = 0; rt < 32; rt++) {
		words[n++] = ARA_INSN_MSR_POR_EL0(rt);
		(*msr)++;
		words[n++] = ARA_INSN_MSRR_POR_EL0(rt);
		words[n++] = ARA_INSN_MSR_POR_EL0(rt) | 1u << 21;  /* MRS */
		words[n++] = ARA_INSN_MSRR_POR_EL0(rt) | 1u << 21; /* MRRS */
		/* Each bit of o0, op1, CRn, CRm and op2 flipped. */
		for (unsigned int bit = 5; bit < 20; bit++)
			words[n++] = ARA_INSN_MSR_POR_EL0(rt) ^ (1u << bit);
		/* Every op1: POR_EL1, _EL2, _EL12, _EL3 among them. */
		for (uint32_t op1 = 0; op1 < 8; op1++)
			words[n++] = (ARA_INSN_MSR_POR_EL0(rt) & ~(7u << 16)) |
				     op1 << 16;
		words[n++] = ARA_INSN_MSR_POR_EL0(rt) & ~(1u << 20); /* SYS */
	}
	return n;
}

/* Crafted encodings, random words, and random words of the System
 * instruction class (0xd5000000 | 24 random bits). */
static bool check_synthetic(csh cs, cs_insn *insn)
{
	size_t max = 32 * 64 + SYNTHETIC_RANDOM_WORDS + SYNTHETIC_CLASS_WORDS;
	uint32_t *words = malloc(max * sizeof(*words));
	uint32_t seed = 0x9e3779b9u;
	struct tally t = { 0 };
	size_t n, msr;
	bool ok;

	if (!words)
		return false;
	n = crafted_words(words, &msr);
	for (uint32_t i = 0; i < SYNTHETIC_RANDOM_WORDS; i++)
		words[n++] = next_random(&seed);
	for (uint32_t i = 0; i < SYNTHETIC_CLASS_WORDS; i++)
		words[n++] = 0xd5000000u | (next_random(&seed) & 0xffffffu);
	ok = compare_range(cs, insn, (const uint8_t *)words, n * sizeof(*words),
			   0, &t);
	free(words);
	if (!ok)
		return false;
	report("synthetic", &t);
	/* The 32 crafted MSRs at least, each also found by Capstone. */
	return !t.disagreements && t.writes - t.msrr_undecodable >= msr;
}

int main(int argc, char **argv)
{
	size_t min_writes = 0;
	cs_insn *insn;
	bool ok = true;
	char *end = NULL;
	csh cs;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "--min-writes")) {
		min_writes = strtoul(argv[2], &end, 10);
		i = 3;
	}
	if (i >= argc || (end && (end == argv[2] || *end))) {
		fprintf(stderr, "usage: %s [--min-writes N] ELF... | --synthetic\n",
			argv[0]);
		return 2;
	}
	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) != CS_ERR_OK ||
	    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK ||
	    !(insn = cs_malloc(cs))) {
		fprintf(stderr, "capstone: cannot open an AArch64 handle\n");
		return 1;
	}
	for (; i < argc; i++)
		ok &= !strcmp(argv[i], "--synthetic")
			      ? check_synthetic(cs, insn)
			      : check_elf(cs, insn, argv[i], min_writes);
	cs_free(insn, 1);
	cs_close(&cs);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
