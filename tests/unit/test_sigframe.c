/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ara_sigframe_set_por: the POR_EL0 a frame restores is ARA's, whatever
 * records the frame came with; malformed record lists are refused.
 * ara_sigframe_used: the bytes that hold data end with the terminator's
 * head; ara_sigframe_clear_gaps zeroes exactly the fields the kernel skips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sigframe.h"

#define LEAVE 0x207u

static struct ara_rt_sigframe frame;

static uint8_t *res(void)
{
	return frame.uc.uc_mcontext.reserved;
}

static void put_record(uint32_t off, uint32_t magic, uint32_t size)
{
	memcpy(res() + off, &magic, 4);
	memcpy(res() + off + 4, &size, 4);
}

/* A frame as the kernel writes it with POE: fpsimd, then poe, then the terminator. */
static void kernel_like(uint64_t por)
{
	memset(&frame, 0, sizeof(frame));
	put_record(0, ARA_FPSIMD_MAGIC, 528);
	put_record(528, ARA_POE_MAGIC, 16);
	memcpy(res() + 536, &por, 8);
}

static uint64_t por_at(uint32_t off)
{
	uint64_t v;

	memcpy(&v, res() + off + 8, 8);
	return v;
}

static void a_forged_por_is_replaced(void **state)
{
	(void)state;
	kernel_like(0x275); /* DOM0's row, as a forged frame would ask */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_OK);
	assert_int_equal(por_at(528), LEAVE);
	assert_int_equal(*(uint32_t *)(res() + 544), 0); /* terminator untouched */
}

static void a_missing_poe_record_is_added(void **state)
{
	(void)state;
	memset(&frame, 0, sizeof(frame));
	put_record(0, ARA_FPSIMD_MAGIC, 528);
	memset(res() + 544, 0xa5, 16); /* stale bytes where the new terminator goes */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_OK);
	assert_int_equal(*(uint32_t *)(res() + 528), ARA_POE_MAGIC);
	assert_int_equal(*(uint32_t *)(res() + 532), 16);
	assert_int_equal(por_at(528), LEAVE);
	assert_int_equal(*(uint64_t *)(res() + 544), 0);
}

static void malformed_lists_are_refused(void **state)
{
	(void)state;
	kernel_like(0);
	put_record(528, ARA_POE_MAGIC, 24); /* wrong size */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	kernel_like(0);
	put_record(544, ARA_POE_MAGIC, 16); /* a second POE record */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	kernel_like(0);
	put_record(0, ARA_FPSIMD_MAGIC, 520); /* not a multiple of 16 */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	kernel_like(0);
	put_record(0, ARA_FPSIMD_MAGIC, 4); /* smaller than its head */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	kernel_like(0);
	put_record(0, ARA_FPSIMD_MAGIC, 8192); /* past the reserved area */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	kernel_like(0);
	put_record(544, 0, 16); /* a terminator with a size */
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);

	/* No terminator: records of 16 bytes up to the very end. */
	memset(&frame, 0, sizeof(frame));
	for (uint32_t off = 0; off < ARA_SIGCONTEXT_RESERVED; off += 16)
		put_record(off, 0x12345678, 16);
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_MALFORMED);
}

static void extra_context_and_a_full_list_are_refused(void **state)
{
	(void)state;
	kernel_like(0);
	put_record(544, ARA_EXTRA_MAGIC, 32);
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_EXTRA);

	/* No POE record and 16 bytes left: only the terminator fits. */
	memset(&frame, 0, sizeof(frame));
	put_record(0, 0x12345678, ARA_SIGCONTEXT_RESERVED - 16);
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_FULL);
	/* 32 bytes left: the record and a new terminator fit. */
	memset(&frame, 0, sizeof(frame));
	put_record(0, 0x12345678, ARA_SIGCONTEXT_RESERVED - 32);
	assert_int_equal(ara_sigframe_set_por(&frame, LEAVE), ARA_SIGFRAME_OK);
	assert_int_equal(por_at(ARA_SIGCONTEXT_RESERVED - 32), LEAVE);
}

static void the_por_a_frame_holds_is_read(void **state)
{
	uint64_t por = 0;

	(void)state;
	kernel_like(0x275);
	assert_int_equal(ara_sigframe_get_por(&frame, &por), ARA_SIGFRAME_OK);
	assert_int_equal(por, 0x275);
	memset(&frame, 0, sizeof(frame));
	put_record(0, ARA_FPSIMD_MAGIC, 528); /* no POE record */
	assert_int_equal(ara_sigframe_get_por(&frame, &por), ARA_SIGFRAME_MALFORMED);
	kernel_like(0x207);
	put_record(544, ARA_EXTRA_MAGIC, 32);
	assert_int_equal(ara_sigframe_get_por(&frame, &por), ARA_SIGFRAME_EXTRA);
}

static void the_used_part_ends_at_the_terminator(void **state)
{
	(void)state;
	kernel_like(0x207);
	/* fpsimd (528) and poe (16) records, the terminator's 8-byte head */
	assert_int_equal(ara_sigframe_used(&frame), ARA_SIGFRAME_RECORDS + 544 + 8);
	memset(&frame, 0, sizeof(frame));
	assert_int_equal(ara_sigframe_used(&frame), ARA_SIGFRAME_RECORDS + 8);
	/* The last terminator a list can have (records are 16-byte multiples). */
	put_record(0, 0x12345678, ARA_SIGCONTEXT_RESERVED - 16);
	assert_int_equal(ara_sigframe_used(&frame), sizeof(frame) - 8);
	kernel_like(0x207);
	put_record(544, ARA_EXTRA_MAGIC, 32);
	assert_int_equal(ara_sigframe_used(&frame), 0);
	kernel_like(0x207);
	put_record(544, 0, 16); /* a terminator with a size */
	assert_int_equal(ara_sigframe_used(&frame), 0);
}

static void the_gaps_are_cleared_and_nothing_else(void **state)
{
	struct ara_rt_sigframe before;
	const size_t unused = offsetof(struct ara_rt_sigframe, uc.unused);
	const size_t uc_pad = offsetof(struct ara_rt_sigframe, uc.pad);
	const size_t pad = offsetof(struct ara_rt_sigframe, uc.uc_mcontext.pad);

	(void)state;
	memset(&frame, 0xa5, sizeof(frame));
	memcpy(&before, &frame, sizeof(frame));
	ara_sigframe_clear_gaps(&frame);
	for (size_t i = 0; i < sizeof(frame); i++) {
		const int gap = (i >= unused && i < unused + sizeof(frame.uc.unused)) ||
				(i >= uc_pad && i < uc_pad + sizeof(frame.uc.pad)) ||
				(i >= pad && i < pad + sizeof(frame.uc.uc_mcontext.pad));

		assert_int_equal(((uint8_t *)&frame)[i], gap ? 0 : ((uint8_t *)&before)[i]);
	}
	/* The gaps: the glibc sigset's tail, 8 bytes before uc_mcontext, 8 before the records. */
	assert_int_equal(sizeof(frame.uc.unused), 120);
	assert_int_equal(uc_pad + 8, offsetof(struct ara_rt_sigframe, uc.uc_mcontext));
	assert_int_equal(pad + 8, ARA_SIGFRAME_RECORDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_forged_por_is_replaced),
		cmocka_unit_test(a_missing_poe_record_is_added),
		cmocka_unit_test(malformed_lists_are_refused),
		cmocka_unit_test(extra_context_and_a_full_list_are_refused),
		cmocka_unit_test(the_por_a_frame_holds_is_read),
		cmocka_unit_test(the_used_part_ends_at_the_terminator),
		cmocka_unit_test(the_gaps_are_cleared_and_nothing_else),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
