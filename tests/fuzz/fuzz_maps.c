/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the /proc/self/maps parser. Properties, for any input:
 *   - it never reads outside the input (ASan), and every mapping it returns
 *     is well formed: start < end, page-aligned, ascending, its path inside
 *     the input and on one line;
 *   - its final status is honest: END only with everything consumed,
 *     PARTIAL only if no line end is left, an error repeats unchanged;
 *   - fed the same bytes in pieces, as read() may return them, it returns
 *     the same mappings and the same final status.
 */
#include <string.h>

#include "ara/maps.h"
#include "fuzz_check.h"

#define MAPPINGS_MAX 4096

struct run {
	struct ara_mapping m[MAPPINGS_MAX];
	size_t n;
	enum ara_maps_status last;
};

static void check_mapping(const struct ara_mapping *m, const char *buf,
			  size_t len, uint64_t prev_end)
{
	FUZZ_CHECK(m->start < m->end);
	FUZZ_CHECK((m->start | m->end | m->offset) % ARA_MAPS_PAGE_MIN == 0);
	FUZZ_CHECK(m->start >= prev_end);
	FUZZ_CHECK(m->path >= buf && m->path <= buf + len);
	FUZZ_CHECK(m->path_len <= (size_t)(buf + len - m->path));
	FUZZ_CHECK(!memchr(m->path, '\n', m->path_len));
}

/* Parses buf whole, checking every mapping and the final status. */
static void parse_whole(const char *buf, size_t len, struct run *r)
{
	struct ara_maps_cursor c;
	struct ara_mapping m;
	uint64_t prev_end = 0;
	size_t at;

	ara_maps_init(&c, buf, len);
	while ((r->last = ara_maps_next(&c, &m)) == ARA_MAPS_OK) {
		check_mapping(&m, buf, len, prev_end);
		prev_end = m.end;
		if (r->n < MAPPINGS_MAX)
			r->m[r->n] = m;
		r->n++;
	}
	at = ara_maps_consumed(&c);
	FUZZ_CHECK(at <= len);
	if (r->last == ARA_MAPS_END)
		FUZZ_CHECK(at == len);
	else if (r->last == ARA_MAPS_PARTIAL)
		FUZZ_CHECK(at < len && !memchr(buf + at, '\n', len - at));
	else
		FUZZ_CHECK(ara_maps_next(&c, &m) == r->last &&
			   ara_maps_consumed(&c) == at);
}

static bool same_mapping(const struct ara_mapping *a,
			 const struct ara_mapping *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->offset == b->offset && a->inode == b->inode &&
	       a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
	       a->perms == b->perms && a->path_len == b->path_len &&
	       !memcmp(a->path, b->path, a->path_len);
}

/*
 * The refill loop of maps.h over a private buffer as large as the input,
 * receiving it in pieces of 1..64 bytes whose sizes come from the input's
 * own bytes (so a failure reproduces from the input alone).
 */
static void parse_in_pieces(const char *data, size_t len,
			    const struct run *whole)
{
	char *buf = calloc(len ? len : 1, 1);
	struct ara_maps_cursor c;
	struct ara_mapping m;
	enum ara_maps_status s;
	size_t fed = 0, have = 0, n = 0;

	FUZZ_CHECK(buf);
	ara_maps_init(&c, buf, 0);
	for (;;) {
		while ((s = ara_maps_next(&c, &m)) == ARA_MAPS_OK) {
			FUZZ_CHECK(n < whole->n);
			if (n < MAPPINGS_MAX)
				FUZZ_CHECK(same_mapping(&m, &whole->m[n]));
			n++;
		}
		if (s != ARA_MAPS_END && s != ARA_MAPS_PARTIAL)
			break;
		have -= ara_maps_consumed(&c);
		memmove(buf, buf + ara_maps_consumed(&c), have);
		if (fed == len)
			break;
		size_t piece = 1 + (unsigned char)data[fed] % 64;

		if (piece > len - fed)
			piece = len - fed;
		memcpy(buf + have, data + fed, piece);
		fed += piece;
		have += piece;
		ara_maps_refill(&c, buf, have);
	}
	FUZZ_CHECK(n == whole->n && s == whole->last);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run whole;

	whole.n = 0;
	parse_whole((const char *)data, size, &whole);
	parse_in_pieces((const char *)data, size, &whole);
	return 0;
}
