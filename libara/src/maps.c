/* SPDX-License-Identifier: Apache-2.0 */
#include "ara/maps.h"

#include "ara/hex.h"

/*
 * Field widths: addresses and offsets are at most 64 bits (16 hex digits),
 * device numbers 32 (the kernel's are 12 and 20 bits), and the inode a
 * decimal unsigned long. Longer fields are refused, not wrapped.
 */
#define HEX64_DIGITS_MAX 16u
#define HEX32_DIGITS_MAX 8u

/* The unparsed part of one line, its '\n' excluded. */
struct line {
	const char *p;
	const char *end;
};

static enum ara_maps_status parse_hex(struct line *l, unsigned int max_digits,
				      uint64_t *value)
{
	uint64_t v = 0;
	unsigned int digits = 0;

	/* The kernel prints lower case only. */
	for (; l->p < l->end && ara_hex_digit(*l->p, ARA_HEX_LOWER) >= 0; l->p++, digits++) {
		if (digits == max_digits)
			return ARA_MAPS_E_RANGE;
		v = (v << 4) | (uint64_t)ara_hex_digit(*l->p, ARA_HEX_LOWER);
	}
	if (digits == 0)
		return ARA_MAPS_E_SYNTAX;
	*value = v;
	return ARA_MAPS_OK;
}

static enum ara_maps_status parse_dec(struct line *l, uint64_t *value)
{
	uint64_t v = 0;
	unsigned int digits = 0;

	for (; l->p < l->end && *l->p >= '0' && *l->p <= '9'; l->p++, digits++) {
		unsigned int d = (unsigned int)(*l->p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return ARA_MAPS_E_RANGE;
		v = v * 10 + d;
	}
	if (digits == 0)
		return ARA_MAPS_E_SYNTAX;
	*value = v;
	return ARA_MAPS_OK;
}

static enum ara_maps_status expect(struct line *l, char ch)
{
	if (l->p == l->end || *l->p != ch)
		return ARA_MAPS_E_SYNTAX;
	l->p++;
	return ARA_MAPS_OK;
}

/* One of two characters: the first sets bit, the second leaves it clear. */
static enum ara_maps_status perm_char(struct line *l, char set, char clear,
				      unsigned int bit, unsigned int *perms)
{
	if (l->p == l->end || (*l->p != set && *l->p != clear))
		return ARA_MAPS_E_SYNTAX;
	if (*l->p == set)
		*perms |= bit;
	l->p++;
	return ARA_MAPS_OK;
}

static enum ara_maps_status parse_perms(struct line *l, unsigned int *perms)
{
	enum ara_maps_status s;

	*perms = 0;
	if ((s = perm_char(l, 'r', '-', ARA_MAP_R, perms)) ||
	    (s = perm_char(l, 'w', '-', ARA_MAP_W, perms)) ||
	    (s = perm_char(l, 'x', '-', ARA_MAP_X, perms)) ||
	    (s = perm_char(l, 's', 'p', ARA_MAP_SHARED, perms)))
		return s;
	return ARA_MAPS_OK;
}

/* The rest of the line: nothing, or padding spaces and then the name (which
 * may itself contain spaces). The kernel escapes '\n' in names; a NUL byte
 * cannot be part of one. */
static enum ara_maps_status parse_path(struct line *l, struct ara_mapping *m)
{
	m->path = l->p;
	m->path_len = 0;
	if (l->p == l->end)
		return ARA_MAPS_OK;
	if (*l->p != ' ')
		return ARA_MAPS_E_SYNTAX;
	while (l->p < l->end && *l->p == ' ')
		l->p++;
	for (const char *q = l->p; q < l->end; q++)
		if (*q == '\0')
			return ARA_MAPS_E_SYNTAX;
	m->path = l->p;
	m->path_len = (size_t)(l->end - l->p);
	return ARA_MAPS_OK;
}

static enum ara_maps_status parse_fields(struct line *l, struct ara_mapping *m)
{
	uint64_t major = 0, minor = 0;
	enum ara_maps_status s;

	if ((s = parse_hex(l, HEX64_DIGITS_MAX, &m->start)) ||
	    (s = expect(l, '-')) ||
	    (s = parse_hex(l, HEX64_DIGITS_MAX, &m->end)) ||
	    (s = expect(l, ' ')) || (s = parse_perms(l, &m->perms)) ||
	    (s = expect(l, ' ')) ||
	    (s = parse_hex(l, HEX64_DIGITS_MAX, &m->offset)) ||
	    (s = expect(l, ' ')) ||
	    (s = parse_hex(l, HEX32_DIGITS_MAX, &major)) ||
	    (s = expect(l, ':')) ||
	    (s = parse_hex(l, HEX32_DIGITS_MAX, &minor)) ||
	    (s = expect(l, ' ')) || (s = parse_dec(l, &m->inode)) ||
	    (s = parse_path(l, m)))
		return s;
	m->dev_major = (uint32_t)major;
	m->dev_minor = (uint32_t)minor;
	return ARA_MAPS_OK;
}

static enum ara_maps_status check_mapping(const struct ara_mapping *m,
					  uint64_t prev_end)
{
	if (m->start >= m->end)
		return ARA_MAPS_E_BOUNDS;
	if ((m->start | m->end | m->offset) % ARA_MAPS_PAGE_MIN)
		return ARA_MAPS_E_ALIGN;
	if (m->start < prev_end)
		return ARA_MAPS_E_ORDER;
	return ARA_MAPS_OK;
}

void ara_maps_init(struct ara_maps_cursor *c, const char *buf, size_t len)
{
	c->prev_end = 0;
	ara_maps_refill(c, buf, len);
}

void ara_maps_refill(struct ara_maps_cursor *c, const char *buf, size_t len)
{
	c->buf = buf;
	c->len = len;
	c->pos = 0;
}

enum ara_maps_status ara_maps_next(struct ara_maps_cursor *c,
				   struct ara_mapping *out)
{
	struct ara_mapping m = { 0 };
	struct line l = { 0 };
	enum ara_maps_status s;
	size_t nl;

	if (!c || !out || (!c->buf && c->len) || c->pos > c->len)
		return ARA_MAPS_E_ARGS;
	if (c->pos == c->len)
		return ARA_MAPS_END;
	for (nl = c->pos; nl < c->len && c->buf[nl] != '\n'; nl++)
		;
	if (nl == c->len)
		return ARA_MAPS_PARTIAL;

	l.p = c->buf + c->pos;
	l.end = c->buf + nl;
	if ((s = parse_fields(&l, &m)) || (s = check_mapping(&m, c->prev_end)))
		return s;
	*out = m;
	c->prev_end = m.end;
	c->pos = nl + 1;
	return ARA_MAPS_OK;
}

size_t ara_maps_consumed(const struct ara_maps_cursor *c)
{
	return c->pos;
}
