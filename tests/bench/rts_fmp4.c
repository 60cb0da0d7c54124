/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The samples of a fragmented MP4 (ISO/IEC 14496-12), for rts_study's cenc
 * workload (rts_cenc.c): each movie fragment's track runs ('moof', 'traf',
 * 'tfhd', 'trun'), sample after sample in file order, with its track's
 * handler ('vide' or 'soun', from 'moov'). Only what FFmpeg's
 * fragmenting muxer writes is read: the data offsets relative to the
 * 'moof' (default-base-is-moof) or to an explicit base. Every box and
 * sample is checked to lie within the file.
 */
#include <stdlib.h>
#include <string.h>

#include "ara/bytes.h"
#include "rts_study.h"

#define MAX_TRACKS 8

struct box {
	const uint8_t *p; /* the box's content, after its header */
	size_t len;
	char type[5];
};

/* The box at *at in [0, len), if whole; moves *at past it. 1 a box, 0 the end, -1 malformed. */
static int next_box(const uint8_t *buf, size_t len, size_t *at, struct box *b)
{
	size_t left = len - *at, head = 8;
	uint64_t size;

	if (left == 0)
		return 0;
	if (left < 8)
		return -1;
	size = ara_get_be32(buf + *at);
	if (size == 1) {
		if (left < 16)
			return -1;
		size = ara_get_be64(buf + *at + 8);
		head = 16;
	} else if (size == 0) {
		size = left;
	}
	if (size < head || size > left)
		return -1;
	memcpy(b->type, buf + *at + 4, 4);
	b->type[4] = 0;
	b->p = buf + *at + head;
	b->len = (size_t)size - head;
	*at += (size_t)size;
	return 1;
}

/* The first child box of parent with this type; 0 if none, -1 if parent is malformed. */
static int child(const struct box *parent, const char *type, struct box *out)
{
	size_t at = 0;
	int r;

	while ((r = next_box(parent->p, parent->len, &at, out)) == 1)
		if (!strcmp(out->type, type))
			return 1;
	return r;
}

struct tracks {
	uint32_t id[MAX_TRACKS];
	uint8_t video[MAX_TRACKS];
	unsigned int n;
};

/* A 'trak': its ID ('tkhd') and whether its handler is 'vide'. */
static int read_trak(const struct box *trak, struct tracks *t)
{
	struct box tkhd, mdia, hdlr;
	size_t id_at;

	if (child(trak, "tkhd", &tkhd) != 1 || child(trak, "mdia", &mdia) != 1 ||
	    child(&mdia, "hdlr", &hdlr) != 1 || hdlr.len < 12 || tkhd.len < 4 || t->n == MAX_TRACKS)
		return -1;
	id_at = tkhd.p[0] == 1 ? 20 : 12; /* version 1: 64-bit times */
	if (tkhd.len < id_at + 4)
		return -1;
	t->id[t->n] = ara_get_be32(tkhd.p + id_at);
	t->video[t->n++] = !memcmp(hdlr.p + 8, "vide", 4);
	return 0;
}

struct fmp4 {
	size_t len; /* the file's */
	struct rts_fmp4_sample *s;
	uint32_t n, cap;
};

/* One 'traf' of the 'moof' at moof_at: its run of samples. */
static int read_traf(struct fmp4 *f, const struct tracks *t, const struct box *traf, size_t moof_at)
{
	struct box tfhd, trun;
	uint32_t flags, id, count, default_size = 0, tf;
	uint64_t base = moof_at, at;
	const uint8_t *p, *end;
	unsigned int k;
	int video = -1;

	if (child(traf, "tfhd", &tfhd) != 1 || tfhd.len < 8)
		return -1;
	tf = ara_get_be32(tfhd.p) & 0xffffff;
	id = ara_get_be32(tfhd.p + 4);
	p = tfhd.p + 8;
	end = tfhd.p + tfhd.len;
	for (k = 0; k < t->n; k++)
		if (t->id[k] == id)
			video = t->video[k];
	if (video < 0)
		return -1;
	/* Base data offset, sample description index, default duration, size. */
	if (tf & 0x1) {
		if (end - p < 8)
			return -1;
		base = ara_get_be64(p);
		p += 8;
	} else if (!(tf & 0x20000)) {
		return -1; /* neither an explicit base nor default-base-is-moof */
	}
	p += (tf & 0x2 ? 4 : 0) + (tf & 0x8 ? 4 : 0);
	if (tf & 0x10) {
		if (end - p < 4)
			return -1;
		default_size = ara_get_be32(p);
	}
	if (child(traf, "trun", &trun) != 1 || trun.len < 8)
		return -1;
	flags = ara_get_be32(trun.p) & 0xffffff;
	count = ara_get_be32(trun.p + 4);
	p = trun.p + 8;
	end = trun.p + trun.len;
	if (!(flags & 0x1) || end - p < 4)
		return -1; /* FFmpeg always writes the data offset */
	at = base + (uint64_t)(int64_t)(int32_t)ara_get_be32(p);
	p += 4 + (flags & 0x4 ? 4 : 0);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t size = default_size;

		p += flags & 0x100 ? 4 : 0;
		if (flags & 0x200) {
			if (end - p < 4)
				return -1;
			size = ara_get_be32(p);
			p += 4;
		}
		p += (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
		if (p > end || size == 0 || at > f->len || size > f->len - at)
			return -1;
		if (f->n == f->cap) {
			uint32_t cap = f->cap ? 2 * f->cap : 256;
			void *grown = realloc(f->s, cap * sizeof(*f->s));

			if (!grown)
				return -1;
			f->s = grown;
			f->cap = cap;
		}
		f->s[f->n++] = (struct rts_fmp4_sample){ .at = (size_t)at, .len = size,
							 .video = (uint8_t)video };
		at += size;
	}
	return 0;
}

int rts_fmp4_samples(const char *path, const uint8_t *buf, size_t len,
		     struct rts_fmp4_sample **samples, uint32_t *n, uint32_t *fragments)
{
	struct fmp4 f = { .len = len };
	struct tracks t = { .n = 0 };
	struct box b, c;
	size_t at = 0, box_at;
	int r;

	*fragments = 0;
	while (box_at = at, (r = next_box(buf, len, &at, &b)) == 1) {
		size_t c_at = 0;

		if (!strcmp(b.type, "moov")) {
			while ((r = next_box(b.p, b.len, &c_at, &c)) == 1)
				if (!strcmp(c.type, "trak") && read_trak(&c, &t))
					goto bad;
		} else if (!strcmp(b.type, "moof")) {
			(*fragments)++;
			while ((r = next_box(b.p, b.len, &c_at, &c)) == 1)
				if (!strcmp(c.type, "traf") &&
				    read_traf(&f, &t, &c, box_at))
					goto bad;
		}
		if (r < 0)
			goto bad;
	}
	if (r < 0 || f.n == 0)
		goto bad;
	*samples = f.s;
	*n = f.n;
	return 0;
bad:
	free(f.s);
	fprintf(stderr, "rts_study: %s: not a fragmented MP4 this study reads (near byte %zu)\n",
		path, at);
	return -1;
}
