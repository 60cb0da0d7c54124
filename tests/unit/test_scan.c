/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the POR_EL0-write scanner (libara/src/scan.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ara/scan.h"

/*
 * The test's own encoder of the A64 System register move class, field by
 * field as the Arm ARM draws it (C6.2 MSR (register), MRS, MSRR, MRRS):
 * 1101010 1 0 pair L 1 o0 op1 CRn CRm op2 Rt, with op0 = 2 + o0.
 */
struct sysreg_move {
	unsigned int pair; /* 1: MSRR/MRRS (FEAT_SYSREG128) */
	unsigned int read; /* L: 1 for MRS/MRRS */
	unsigned int op0, op1, crn, crm, op2, rt;
};

static uint32_t encode(struct sysreg_move m)
{
	return 0xd5000000u | m.pair << 22 | m.read << 21 | 1u << 20 |
	       (m.op0 - 2) << 19 | m.op1 << 16 | m.crn << 12 | m.crm << 8 |
	       m.op2 << 5 | m.rt;
}

/* The rule, restated on fields: a write naming S3_3_C10_C2_4. */
static bool writes_por_el0(struct sysreg_move m)
{
	return !m.read && m.op0 == 3 && m.op1 == 3 && m.crn == 10 &&
	       m.crm == 2 && m.op2 == 4;
}

static const struct sysreg_move msr_por_el0 = {
	.op0 = 3, .op1 = 3, .crn = 10, .crm = 2, .op2 = 4,
};

/* Deterministic xorshift32, so failures reproduce. */
static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* Encodings as binutils 2.40 prints them for msr s3_3_c10_c2_4, x0/x5/xzr. */
static void msr_por_el0_matches_assembler_output(void **state)
{
	(void)state;
	assert_true(ara_insn_writes_por(0xd51ba280u));
	assert_true(ara_insn_writes_por(0xd51ba285u));
	assert_true(ara_insn_writes_por(0xd51ba29fu));
	assert_int_equal(ARA_INSN_MSR_POR_EL0(5), 0xd51ba285u);
	assert_int_equal(ARA_INSN_MSRR_POR_EL0(2), 0xd55ba282u);
}

static void msr_and_msrr_por_el0_flagged_for_every_rt(void **state)
{
	struct sysreg_move m = msr_por_el0;

	(void)state;
	for (m.rt = 0; m.rt < 32; m.rt++) {
		for (m.pair = 0; m.pair < 2; m.pair++)
			assert_true(ara_insn_writes_por(encode(m)));
		m.pair = 0;
		assert_int_equal(ARA_INSN_MSR_POR_EL0(m.rt), encode(m));
		m.pair = 1;
		assert_int_equal(ARA_INSN_MSRR_POR_EL0(m.rt), encode(m));
	}
}

static void mrs_and_mrrs_por_el0_are_not_writes(void **state)
{
	struct sysreg_move m = msr_por_el0;

	(void)state;
	m.read = 1;
	for (m.rt = 0; m.rt < 32; m.rt++)
		for (m.pair = 0; m.pair < 2; m.pair++)
			assert_false(ara_insn_writes_por(encode(m)));
}

/* Each field of the register name one away from POR_EL0's. */
static void neighbouring_system_registers_are_not_flagged(void **state)
{
	const struct sysreg_move near[] = {
		{ .op0 = 2, .op1 = 3, .crn = 10, .crm = 2, .op2 = 4 },
		{ .op0 = 3, .op1 = 2, .crn = 10, .crm = 2, .op2 = 4 },
		{ .op0 = 3, .op1 = 4, .crn = 10, .crm = 2, .op2 = 4 },
		{ .op0 = 3, .op1 = 3, .crn = 9, .crm = 2, .op2 = 4 },
		{ .op0 = 3, .op1 = 3, .crn = 11, .crm = 2, .op2 = 4 },
		{ .op0 = 3, .op1 = 3, .crn = 10, .crm = 1, .op2 = 4 },
		{ .op0 = 3, .op1 = 3, .crn = 10, .crm = 3, .op2 = 4 },
		{ .op0 = 3, .op1 = 3, .crn = 10, .crm = 2, .op2 = 3 },
		{ .op0 = 3, .op1 = 3, .crn = 10, .crm = 2, .op2 = 5 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++) {
		struct sysreg_move m = near[i];

		for (m.pair = 0; m.pair < 2; m.pair++)
			assert_false(ara_insn_writes_por(encode(m)));
	}
}

/*
 * POR_EL1 (S3_0), POR_EL2 (S3_4), POR_EL12 (S3_5) and POR_EL3 (S3_6) are
 * UNDEFINED at EL0: they trap instead of writing POR_EL0, and stay as they
 * are (see the rule in scan.c).
 */
static void higher_el_por_registers_are_not_flagged(void **state)
{
	const unsigned int op1[] = { 0, 4, 5, 6 };
	struct sysreg_move m = msr_por_el0;

	(void)state;
	for (size_t i = 0; i < sizeof(op1) / sizeof(op1[0]); i++) {
		m.op1 = op1[i];
		assert_false(ara_insn_writes_por(encode(m)));
	}
	assert_false(ara_insn_writes_por(0xd518a280u)); /* msr s3_0_c10_c2_4 */
	assert_false(ara_insn_writes_por(0xd51da280u)); /* msr s3_5_c10_c2_4 */
}

/* SYS #3, C10, C2, #4, X0 has the same op1/CRn/CRm/op2 but op0 = 1. */
static void other_system_instructions_are_not_flagged(void **state)
{
	(void)state;
	assert_false(ara_insn_writes_por(0xd50ba280u)); /* sys */
	assert_false(ara_insn_writes_por(0xd52ba280u)); /* sysl */
	assert_false(ara_insn_writes_por(ARA_INSN_NOP));
	assert_false(ara_insn_writes_por(0xd51bd040u)); /* msr tpidr_el0, x0 */
	assert_false(ara_insn_writes_por(0));
	assert_false(ara_insn_writes_por(0xffffffffu));
}

/* All 2^22 words of the System register move class (pair, L, o0, op1,
 * CRn, CRm, op2, Rt), against the rule restated on fields. */
static void every_system_register_move_agrees_with_field_rule(void **state)
{
	size_t flagged = 0;

	(void)state;
	for (uint32_t v = 0; v < (1u << 22); v++) {
		struct sysreg_move m = {
			.rt = v & 31, .op2 = (v >> 5) & 7, .crm = (v >> 8) & 15,
			.crn = (v >> 12) & 15, .op1 = (v >> 16) & 7,
			.op0 = 2 + ((v >> 19) & 1), .read = (v >> 20) & 1,
			.pair = (v >> 21) & 1,
		};
		bool flag = ara_insn_writes_por(encode(m));

		if (flag != writes_por_el0(m))
			fail_msg("word %#x: scanner says %d", encode(m), flag);
		flagged += flag;
	}
	assert_int_equal(flagged, 2 * 32); /* MSR and MSRR, every Rt */
}

/* Leaving the class: flipping any bit but Rt and bit 22 breaks the match. */
static void every_single_bit_flip_breaks_the_match(void **state)
{
	(void)state;
	for (unsigned int rt = 0; rt < 32; rt++)
		for (unsigned int bit = 5; bit < 32; bit++)
			if (bit != 22)
				assert_false(ara_insn_writes_por(
					ARA_INSN_MSR_POR_EL0(rt) ^ (1u << bit)));
}

/* Random words, against a decoder that extracts fields instead of masking.
 * One word in 64 is steered into the System register move class and one in
 * 4096 made a POR_EL0 write, so both answers are exercised. */
static void random_words_agree_with_field_rule(void **state)
{
	uint32_t seed = 0x2545f491u;
	size_t in_class_count = 0, flagged = 0;

	(void)state;
	for (unsigned int i = 0; i < (1u << 22); i++) {
		uint32_t w = next_random(&seed);

		if (i % 4096 == 0)
			w = ARA_INSN_MSR_POR_EL0(w) | (w & (1u << 22));
		else if (i % 64 == 0)
			w = 0xd5100000u | (w & 0x006fffffu);
		bool in_class = (w >> 23) == 0x1aa && ((w >> 20) & 1);
		struct sysreg_move m = {
			.rt = w & 31, .op2 = (w >> 5) & 7, .crm = (w >> 8) & 15,
			.crn = (w >> 12) & 15, .op1 = (w >> 16) & 7,
			.op0 = 2 + ((w >> 19) & 1), .read = (w >> 21) & 1,
		};
		bool expected = in_class && writes_por_el0(m);

		if (ara_insn_writes_por(w) != expected)
			fail_msg("word %#x: expected %d", w, expected);
		in_class_count += in_class;
		flagged += expected;
	}
	assert_true(in_class_count >= (1u << 22) / 64);
	assert_true(flagged >= (1u << 22) / 4096);
}

static void scan_reports_every_site_in_order(void **state)
{
	uint32_t code[] = {
		ARA_INSN_MSR_POR_EL0(0), ARA_INSN_NOP, 0xd53ba280u,
		ARA_INSN_MSRR_POR_EL0(4), ARA_INSN_MSR_POR_EL0(31), 0xd518a280u,
		0xd50ba280u, ARA_INSN_MSR_POR_EL0(9),
	};
	size_t offsets[8] = { 0 };
	size_t found = 0;

	(void)state;
	assert_int_equal(ara_scan_por_writes(code, sizeof(code), offsets, 8,
					     &found), ARA_SCAN_OK);
	assert_int_equal(found, 4);
	assert_int_equal(offsets[0], 0);
	assert_int_equal(offsets[1], 12);
	assert_int_equal(offsets[2], 16);
	assert_int_equal(offsets[3], 28);
}

/* Sites past max_offsets are still counted, and no slot past max written. */
static void scan_counts_sites_beyond_the_offset_array(void **state)
{
	uint32_t code[6];
	size_t offsets[3] = { 0, 0, 0xabcd };
	size_t found = 0;

	(void)state;
	for (size_t i = 0; i < 6; i++)
		code[i] = ARA_INSN_MSR_POR_EL0(i);
	assert_int_equal(ara_scan_por_writes(code, sizeof(code), offsets, 2,
					     &found), ARA_SCAN_OK);
	assert_int_equal(found, 6);
	assert_int_equal(offsets[0], 0);
	assert_int_equal(offsets[1], 4);
	assert_int_equal(offsets[2], 0xabcd);
	assert_int_equal(ara_scan_por_writes(code, sizeof(code), NULL, 0,
					     &found), ARA_SCAN_OK);
	assert_int_equal(found, 6);
}

/* Bytes in memory order: 80 a2 1b d5 is msr s3_3_c10_c2_4, x0. */
static void scan_reads_little_endian_words(void **state)
{
	_Alignas(4) unsigned char le[8] = { 0x1f, 0x20, 0x03, 0xd5,
					    0x80, 0xa2, 0x1b, 0xd5 };
	_Alignas(4) unsigned char be[4] = { 0xd5, 0x1b, 0xa2, 0x80 };
	size_t offset = 99, found = 0;

	(void)state;
	assert_int_equal(ara_scan_por_writes(le, 8, &offset, 1, &found),
			 ARA_SCAN_OK);
	assert_int_equal(found, 1);
	assert_int_equal(offset, 4);
	assert_int_equal(ara_scan_por_writes(be, 4, NULL, 0, &found),
			 ARA_SCAN_OK);
	assert_int_equal(found, 0);
}

static void scan_of_empty_range_finds_nothing(void **state)
{
	uint32_t code[1] = { ARA_INSN_MSR_POR_EL0(0) };
	size_t found = 7;

	(void)state;
	assert_int_equal(ara_scan_por_writes(code, 0, NULL, 0, &found),
			 ARA_SCAN_OK);
	assert_int_equal(found, 0);
}

/* A range the CPU cannot execute from as given is refused, not rounded. */
static void scan_rejects_misaligned_start_or_length(void **state)
{
	_Alignas(4) unsigned char code[16] = { 0 };
	size_t offsets[1] = { 0x55 };
	size_t found = 0x77;

	(void)state;
	for (size_t shift = 1; shift < 4; shift++)
		assert_int_equal(ara_scan_por_writes(code + shift, 8, offsets, 1,
						     &found), ARA_SCAN_E_ALIGN);
	for (size_t len = 1; len < 16; len++)
		if (len % 4)
			assert_int_equal(ara_scan_por_writes(code, len, offsets,
							     1, &found),
					 ARA_SCAN_E_ALIGN);
	assert_int_equal(found, 0x77);
	assert_int_equal(offsets[0], 0x55);
}

static void scan_rejects_missing_arguments(void **state)
{
	uint32_t code[1] = { ARA_INSN_MSR_POR_EL0(0) };
	size_t found = 0x77;

	(void)state;
	assert_int_equal(ara_scan_por_writes(NULL, 0, NULL, 0, &found),
			 ARA_SCAN_E_ARGS);
	assert_int_equal(ara_scan_por_writes(code, 4, NULL, 0, NULL),
			 ARA_SCAN_E_ARGS);
	assert_int_equal(ara_scan_por_writes(code, 4, NULL, 1, &found),
			 ARA_SCAN_E_ARGS);
	assert_int_equal(found, 0x77);
	assert_int_equal(ara_patch_por_writes(NULL, 0, &found), ARA_SCAN_E_ARGS);
	assert_int_equal(ara_patch_por_writes(code, 4, NULL), ARA_SCAN_E_ARGS);
	assert_int_equal(code[0], ARA_INSN_MSR_POR_EL0(0));
}

/* Random words with planted sites: only the sites change, each to NOP. */
static void patch_replaces_sites_and_nothing_else(void **state)
{
	enum { WORDS = 4096 };
	static uint32_t code[WORDS], before[WORDS];
	uint32_t seed = 12345;
	size_t sites = 0, patched = 0;

	(void)state;
	for (size_t i = 0; i < WORDS; i++) {
		code[i] = next_random(&seed);
		if (i % 97 == 3)
			code[i] = (i % 2 ? ARA_INSN_MSRR_POR_EL0(i)
					 : ARA_INSN_MSR_POR_EL0(i));
		sites += ara_insn_writes_por(code[i]);
	}
	memcpy(before, code, sizeof(code));
	assert_true(sites >= WORDS / 97);
	assert_int_equal(ara_patch_por_writes(code, sizeof(code), &patched),
			 ARA_SCAN_OK);
	assert_int_equal(patched, sites);
	for (size_t i = 0; i < WORDS; i++) {
		if (ara_insn_writes_por(before[i]))
			assert_int_equal(code[i], ARA_INSN_NOP);
		else
			assert_int_equal(code[i], before[i]);
	}
	assert_int_equal(ara_patch_por_writes(code, sizeof(code), &patched),
			 ARA_SCAN_OK);
	assert_int_equal(patched, 0);
}

/* The NOP lands in memory as 1f 20 03 d5. */
static void patch_writes_little_endian_nop(void **state)
{
	_Alignas(4) unsigned char code[4] = { 0x9f, 0xa2, 0x1b, 0xd5 };
	const unsigned char nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	size_t patched = 0;

	(void)state;
	assert_int_equal(ara_patch_por_writes(code, 4, &patched), ARA_SCAN_OK);
	assert_int_equal(patched, 1);
	assert_memory_equal(code, nop, 4);
}

static void patch_rejects_misaligned_range_untouched(void **state)
{
	_Alignas(4) uint32_t code[3] = { ARA_INSN_MSR_POR_EL0(1),
					  ARA_INSN_MSR_POR_EL0(2),
					  ARA_INSN_MSR_POR_EL0(3) };
	size_t patched = 0x77;

	(void)state;
	assert_int_equal(ara_patch_por_writes((char *)code + 2, 8, &patched),
			 ARA_SCAN_E_ALIGN);
	assert_int_equal(ara_patch_por_writes(code, 10, &patched),
			 ARA_SCAN_E_ALIGN);
	assert_int_equal(patched, 0x77);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(code[i], ARA_INSN_MSR_POR_EL0(i + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scan_rejects_misaligned_start_or_length),
		cmocka_unit_test(scan_rejects_missing_arguments),
		cmocka_unit_test(patch_rejects_misaligned_range_untouched),
		cmocka_unit_test(msr_por_el0_matches_assembler_output),
		cmocka_unit_test(msr_and_msrr_por_el0_flagged_for_every_rt),
		cmocka_unit_test(mrs_and_mrrs_por_el0_are_not_writes),
		cmocka_unit_test(neighbouring_system_registers_are_not_flagged),
		cmocka_unit_test(higher_el_por_registers_are_not_flagged),
		cmocka_unit_test(other_system_instructions_are_not_flagged),
		cmocka_unit_test(every_system_register_move_agrees_with_field_rule),
		cmocka_unit_test(every_single_bit_flip_breaks_the_match),
		cmocka_unit_test(random_words_agree_with_field_rule),
		cmocka_unit_test(scan_reports_every_site_in_order),
		cmocka_unit_test(scan_counts_sites_beyond_the_offset_array),
		cmocka_unit_test(scan_reads_little_endian_words),
		cmocka_unit_test(scan_of_empty_range_finds_nothing),
		cmocka_unit_test(patch_replaces_sites_and_nothing_else),
		cmocka_unit_test(patch_writes_little_endian_nop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
