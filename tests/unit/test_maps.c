/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the /proc/self/maps parser (libara/src/maps.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ara/maps.h"

/* Lines as a 6.x kernel writes them (anonymous ones end in "0 \n"). */
static const char listing[] =
	"aaaab2f40000-aaaab2f5c000 r-xp 00000000 fe:00 247134                     /usr/bin/cat\n"
	"aaaab2f6b000-aaaab2f6d000 rw-p 0001b000 fe:00 247134                     /usr/bin/cat\n"
	"aaaae1d25000-aaaae1d46000 rw-p 00000000 00:00 0                          [heap]\n"
	"ffff8a1f0000-ffff8a379000 r-xp 00000000 fe:00 332835                     /usr/lib/aarch64-linux-gnu/libc.so.6\n"
	"ffff8a3a6000-ffff8a3a8000 rw-p 00000000 00:00 0 \n"
	"ffff8a3b0000-ffff8a3b2000 rw-s 00000000 00:01 2049                       /memfd:ara dom0 (deleted)\n"
	"ffff8a3c0000-ffff8a3c2000 r--p 00000000 00:00 0                          [vvar]\n"
	"ffff8a3c2000-ffff8a3c3000 r-xp 00000000 00:00 0                          [vdso]\n"
	"fffff5e61000-fffff5e82000 rw-p 00000000 00:00 0                          [stack]\n";

struct expected {
	uint64_t start, end, offset, inode;
	uint32_t major, minor;
	unsigned int perms;
	const char *path;
};

static const struct expected listing_expected[] = {
	{ 0xaaaab2f40000, 0xaaaab2f5c000, 0, 247134, 0xfe, 0,
	  ARA_MAP_R | ARA_MAP_X, "/usr/bin/cat" },
	{ 0xaaaab2f6b000, 0xaaaab2f6d000, 0x1b000, 247134, 0xfe, 0,
	  ARA_MAP_R | ARA_MAP_W, "/usr/bin/cat" },
	{ 0xaaaae1d25000, 0xaaaae1d46000, 0, 0, 0, 0, ARA_MAP_R | ARA_MAP_W,
	  "[heap]" },
	{ 0xffff8a1f0000, 0xffff8a379000, 0, 332835, 0xfe, 0,
	  ARA_MAP_R | ARA_MAP_X, "/usr/lib/aarch64-linux-gnu/libc.so.6" },
	{ 0xffff8a3a6000, 0xffff8a3a8000, 0, 0, 0, 0, ARA_MAP_R | ARA_MAP_W, "" },
	{ 0xffff8a3b0000, 0xffff8a3b2000, 0, 2049, 0, 1,
	  ARA_MAP_R | ARA_MAP_W | ARA_MAP_SHARED, "/memfd:ara dom0 (deleted)" },
	{ 0xffff8a3c0000, 0xffff8a3c2000, 0, 0, 0, 0, ARA_MAP_R, "[vvar]" },
	{ 0xffff8a3c2000, 0xffff8a3c3000, 0, 0, 0, 0, ARA_MAP_R | ARA_MAP_X,
	  "[vdso]" },
	{ 0xfffff5e61000, 0xfffff5e82000, 0, 0, 0, 0, ARA_MAP_R | ARA_MAP_W,
	  "[stack]" },
};

#define LISTING_LINES (sizeof(listing_expected) / sizeof(listing_expected[0]))

static void assert_mapping(const struct ara_mapping *m,
			   const struct expected *e)
{
	assert_int_equal(m->start, e->start);
	assert_int_equal(m->end, e->end);
	assert_int_equal(m->offset, e->offset);
	assert_int_equal(m->inode, e->inode);
	assert_int_equal(m->dev_major, e->major);
	assert_int_equal(m->dev_minor, e->minor);
	assert_int_equal(m->perms, e->perms);
	assert_int_equal(m->path_len, strlen(e->path));
	assert_memory_equal(m->path, e->path, m->path_len);
}

/* Parses text, which must hold exactly one line, with a fresh cursor. */
static enum ara_maps_status parse_one(const char *text, struct ara_mapping *m)
{
	struct ara_maps_cursor c;
	enum ara_maps_status s;

	ara_maps_init(&c, text, strlen(text));
	s = ara_maps_next(&c, m);
	if (s == ARA_MAPS_OK)
		assert_int_equal(ara_maps_next(&c, m), ARA_MAPS_END);
	return s;
}

static void malformed_lines_are_syntax_errors(void **state)
{
	static const char *const bad[] = {
		"\n",
		" 1000-2000 r-xp 00000000 00:00 0\n",
		"1000 2000 r-xp 00000000 00:00 0\n",
		"1000-2000  r-xp 00000000 00:00 0\n",
		"1000-2000\tr-xp 00000000 00:00 0\n",
		"1000-2000 r-x 00000000 00:00 0\n",
		"1000-2000 r-xq 00000000 00:00 0\n",
		"1000-2000 x-rp 00000000 00:00 0\n",
		"1000-2000 R-XP 00000000 00:00 0\n",
		"1000-2000 r-xp 00000000 00-00 0\n",
		"1000-2000 r-xp 00000000 00:00\n",
		"1000-2000 r-xp 00000000 00:00 \n",
		"1000-2000 r-xp 00000000 00:00 0/lib/x.so\n",
		"1000-2000 r-xp 00000000 00:00 0\r\n",
		"1000-2000 r-xp 0000000g 00:00 0\n",
		"1000-2000 r-xp 00000000 00:00 -1\n",
		"ABCD000-ABCE000 r-xp 00000000 00:00 0\n",
		"0x1000-0x2000 r-xp 00000000 00:00 0\n",
		"-2000 r-xp 00000000 00:00 0\n",
		"garbage\n",
	};
	struct ara_mapping m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_one(bad[i], &m) != ARA_MAPS_E_SYNTAX)
			fail_msg("accepted: %s", bad[i]);
}

static void nul_byte_in_line_is_a_syntax_error(void **state)
{
	static const char line[] = "1000-2000 r-xp 00000000 00:00 0   /lib/a\0b\n";
	struct ara_maps_cursor c;
	struct ara_mapping m;

	(void)state;
	ara_maps_init(&c, line, sizeof(line) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_SYNTAX);
}

/* More digits than the field holds is a range error, never a wrap. */
static void oversized_numbers_are_range_errors(void **state)
{
	static const char *const huge[] = {
		"10000000000000000-10000000000001000 r-xp 00000000 00:00 0\n",
		"1000-00000000000000002000 r-xp 00000000 00:00 0\n",
		"1000-2000 r-xp 100000000000000000 00:00 0\n",
		"1000-2000 r-xp 00000000 100000000:00 0\n",
		"1000-2000 r-xp 00000000 00:100000000 0\n",
		"1000-2000 r-xp 00000000 00:00 18446744073709551616\n",
		"1000-2000 r-xp 00000000 00:00 99999999999999999999999\n",
	};
	struct ara_mapping m;

	(void)state;
	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
		if (parse_one(huge[i], &m) != ARA_MAPS_E_RANGE)
			fail_msg("not a range error: %s", huge[i]);
}

static void largest_numbers_are_accepted(void **state)
{
	struct ara_mapping m;

	(void)state;
	assert_int_equal(parse_one("ffffffffffffe000-fffffffffffff000 r-xp "
				   "fffffffffffff000 ffffffff:ffffffff "
				   "18446744073709551615 x\n", &m),
			 ARA_MAPS_OK);
	assert_int_equal(m.start, 0xffffffffffffe000ull);
	assert_int_equal(m.end, 0xfffffffffffff000ull);
	assert_int_equal(m.offset, 0xfffffffffffff000ull);
	assert_int_equal(m.dev_major, 0xffffffffu);
	assert_int_equal(m.dev_minor, 0xffffffffu);
	assert_int_equal(m.inode, UINT64_MAX);
}

static void empty_or_inverted_range_is_refused(void **state)
{
	struct ara_mapping m;

	(void)state;
	assert_int_equal(parse_one("2000-2000 r-xp 00000000 00:00 0\n", &m),
			 ARA_MAPS_E_BOUNDS);
	assert_int_equal(parse_one("3000-2000 r-xp 00000000 00:00 0\n", &m),
			 ARA_MAPS_E_BOUNDS);
	assert_int_equal(parse_one("0-0 r-xp 00000000 00:00 0\n", &m),
			 ARA_MAPS_E_BOUNDS);
}

static void unaligned_boundaries_are_refused(void **state)
{
	struct ara_mapping m;

	(void)state;
	assert_int_equal(parse_one("1001-2000 r-xp 00000000 00:00 0\n", &m),
			 ARA_MAPS_E_ALIGN);
	assert_int_equal(parse_one("1000-2800 r-xp 00000000 00:00 0\n", &m),
			 ARA_MAPS_E_ALIGN);
	assert_int_equal(parse_one("1000-2000 r-xp 00000004 00:00 0\n", &m),
			 ARA_MAPS_E_ALIGN);
	assert_int_equal(parse_one("0-1000 r-xp 00010000 00:00 0\n", &m),
			 ARA_MAPS_OK);
}

/* Adjacent mappings are fine; overlapping or descending ones are not. */
static void mappings_must_ascend(void **state)
{
	static const char adjacent[] = "1000-2000 r-xp 00000000 00:00 0\n"
				       "2000-3000 r-xp 00000000 00:00 0\n";
	static const char overlap[] = "1000-3000 r-xp 00000000 00:00 0\n"
				      "2000-4000 r-xp 00000000 00:00 0\n";
	struct ara_maps_cursor c;
	struct ara_mapping m;

	(void)state;
	ara_maps_init(&c, adjacent, sizeof(adjacent) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_END);
	ara_maps_init(&c, overlap, sizeof(overlap) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_ORDER);
	/* The order check carries over a refill; init starts afresh. */
	ara_maps_refill(&c, overlap, sizeof(overlap) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_ORDER);
	ara_maps_init(&c, overlap, sizeof(overlap) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
}

/* On an error nothing moves: the output and the cursor stay, and the same
 * error comes back. */
static void errors_leave_cursor_and_output_alone(void **state)
{
	static const char text[] = "1000-2000 r-xp 00000000 00:00 0 /a\n"
				   "3000-4000 r-xz 00000000 00:00 0 /b\n";
	struct ara_maps_cursor c;
	struct ara_mapping m, copy;

	(void)state;
	ara_maps_init(&c, text, sizeof(text) - 1);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
	copy = m;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_SYNTAX);
		assert_int_equal(ara_maps_consumed(&c), 35);
		assert_memory_equal(&m, &copy, sizeof(m));
	}
}

static void missing_arguments_are_refused(void **state)
{
	struct ara_maps_cursor c;
	struct ara_mapping m;

	(void)state;
	ara_maps_init(&c, NULL, 0);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_END);
	assert_int_equal(ara_maps_next(&c, NULL), ARA_MAPS_E_ARGS);
	assert_int_equal(ara_maps_next(NULL, &m), ARA_MAPS_E_ARGS);
	ara_maps_init(&c, NULL, 5);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_ARGS);
	/* A cursor past its buffer's end would make the parser read beyond. */
	ara_maps_init(&c, listing, 10);
	c.pos = 11;
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_E_ARGS);
}

static void parses_a_real_listing(void **state)
{
	struct ara_maps_cursor c;
	struct ara_mapping m;

	(void)state;
	ara_maps_init(&c, listing, sizeof(listing) - 1);
	for (size_t i = 0; i < LISTING_LINES; i++) {
		assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
		assert_mapping(&m, &listing_expected[i]);
		/* The path points into the caller's buffer, not a copy. */
		assert_true(m.path >= listing &&
			    m.path + m.path_len < listing + sizeof(listing));
	}
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_END);
	assert_int_equal(ara_maps_consumed(&c), sizeof(listing) - 1);
}

/* Older kernels end an anonymous line at the inode, without a space. */
static void anonymous_line_without_trailing_space(void **state)
{
	struct ara_mapping m;

	(void)state;
	assert_int_equal(parse_one("1000-2000 ---p 00000000 00:00 0\n", &m),
			 ARA_MAPS_OK);
	assert_int_equal(m.path_len, 0);
	assert_int_equal(m.perms, 0);
}

/* Everything after the padding is the name, inner and trailing spaces too. */
static void path_keeps_its_spaces(void **state)
{
	struct ara_mapping m;

	(void)state;
	assert_int_equal(parse_one("1000-2000 r-xs 00000000 08:01 12 "
				   "/tmp/my lib/a b.so (deleted) \n", &m),
			 ARA_MAPS_OK);
	assert_int_equal(m.path_len, strlen("/tmp/my lib/a b.so (deleted) "));
	assert_memory_equal(m.path, "/tmp/my lib/a b.so (deleted) ", m.path_len);
	assert_int_equal(m.perms, ARA_MAP_R | ARA_MAP_X | ARA_MAP_SHARED);
	assert_int_equal(m.dev_major, 8);
	assert_int_equal(m.dev_minor, 1);
}

/* A buffer that stops inside a line: the complete lines are returned, then
 * PARTIAL with the consumed count at the start of the unfinished line. */
static void truncated_line_asks_for_more(void **state)
{
	struct ara_maps_cursor c;
	struct ara_mapping m;
	size_t first = strchr(listing, '\n') - listing + 1;

	(void)state;
	for (size_t cut = 0; cut < first; cut++) {
		ara_maps_init(&c, listing, cut);
		assert_int_equal(ara_maps_next(&c, &m),
				 cut ? ARA_MAPS_PARTIAL : ARA_MAPS_END);
		assert_int_equal(ara_maps_consumed(&c), 0);
	}
	ara_maps_init(&c, listing, first + 10);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_OK);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_PARTIAL);
	assert_int_equal(ara_maps_next(&c, &m), ARA_MAPS_PARTIAL);
	assert_int_equal(ara_maps_consumed(&c), first);
}

/*
 * The refill loop of maps.h, with a buffer of every size from the longest
 * line up: the same mappings come out as from one whole-listing parse.
 */
static void refilling_a_small_buffer_gives_the_same_mappings(void **state)
{
	char buf[sizeof(listing)];
	size_t total = sizeof(listing) - 1;

	(void)state;
	for (size_t size = 120; size <= total; size++) {
		struct ara_maps_cursor c;
		struct ara_mapping m;
		size_t fed = 0, have = 0, line = 0;
		enum ara_maps_status s;

		ara_maps_init(&c, buf, 0);
		for (;;) {
			while ((s = ara_maps_next(&c, &m)) == ARA_MAPS_OK) {
				assert_true(line < LISTING_LINES);
				assert_mapping(&m, &listing_expected[line++]);
			}
			assert_true(s == ARA_MAPS_END || s == ARA_MAPS_PARTIAL);
			have -= ara_maps_consumed(&c);
			memmove(buf, buf + ara_maps_consumed(&c), have);
			if (fed == total)
				break;
			size_t more = size - have < total - fed ? size - have
								: total - fed;
			assert_true(more > 0); /* else a line outgrew the buffer */
			memcpy(buf + have, listing + fed, more);
			fed += more;
			have += more;
			ara_maps_refill(&c, buf, have);
		}
		assert_int_equal(line, LISTING_LINES);
		assert_int_equal(have, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(malformed_lines_are_syntax_errors),
		cmocka_unit_test(nul_byte_in_line_is_a_syntax_error),
		cmocka_unit_test(oversized_numbers_are_range_errors),
		cmocka_unit_test(empty_or_inverted_range_is_refused),
		cmocka_unit_test(unaligned_boundaries_are_refused),
		cmocka_unit_test(mappings_must_ascend),
		cmocka_unit_test(errors_leave_cursor_and_output_alone),
		cmocka_unit_test(missing_arguments_are_refused),
		cmocka_unit_test(truncated_line_asks_for_more),
		cmocka_unit_test(largest_numbers_are_accepted),
		cmocka_unit_test(parses_a_real_listing),
		cmocka_unit_test(anonymous_line_without_trailing_space),
		cmocka_unit_test(path_keeps_its_spaces),
		cmocka_unit_test(refilling_a_small_buffer_gives_the_same_mappings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
