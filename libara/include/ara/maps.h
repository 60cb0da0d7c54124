/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A strict parser for the text of /proc/self/maps, one mapping per line as
 * fs/proc/task_mmu.c writes it:
 *
 *   start-end perms offset major:minor inode[ padding path]\n
 *   7f0008a20000-7f0008a73000 r-xp 0017c000 fe:00 332835   /usr/lib/libc.so.6
 *
 * (hex in lower case, inode in decimal; an anonymous mapping ends in
 * "inode \n"). DOM0 uses it to enumerate the executable mappings it must scan.
 *
 * Libc-free and allocation-free: it parses a caller's buffer in place, never
 * reads outside it, and accepts a buffer that ends in the middle of a line,
 * because DOM0 read()s the file piece by piece into a fixed buffer:
 *
 *   ara_maps_init(&c, buf, n);                   n = read(fd, buf, size)
 *   while ((s = ara_maps_next(&c, &m)) == ARA_MAPS_OK)
 *           use(&m);
 *   ARA_MAPS_END or ARA_MAPS_PARTIAL: move the unconsumed tail
 *   buf[ara_maps_consumed(&c)..n) to the front, read more after it and call
 *   ara_maps_refill(&c, buf, tail + more), then carry on. At end of file an
 *   empty tail means the listing is complete; a non-empty one is a truncated
 *   line, as is a tail that fills the whole buffer (a line too long for it).
 *   Any ARA_MAPS_E_* status: stop; the listing cannot be trusted.
 */
#ifndef ARA_MAPS_H
#define ARA_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The smallest arm64 page; every mapping boundary is a multiple of it. */
#define ARA_MAPS_PAGE_MIN 4096u

enum ara_map_perm {
	ARA_MAP_R = 0x1,
	ARA_MAP_W = 0x2,
	ARA_MAP_X = 0x4,
	ARA_MAP_SHARED = 0x8, /* 's'; 'p' (private) leaves it clear */
};

struct ara_mapping {
	uint64_t start;	 /* first byte */
	uint64_t end;	 /* one past the last byte; start < end */
	uint64_t offset; /* file offset of start */
	uint64_t inode;
	uint32_t dev_major;
	uint32_t dev_minor;
	unsigned int perms; /* enum ara_map_perm bits */
	const char *path;   /* into the buffer, not NUL-terminated; valid */
	size_t path_len;    /* until the buffer is refilled. 0: no name */
};

/* Values are stable: append only. */
enum ara_maps_status {
	ARA_MAPS_OK = 0,	 /* *out holds the next mapping */
	ARA_MAPS_END = 1,	 /* the buffer ended exactly at a line end */
	ARA_MAPS_PARTIAL = 2,	 /* the buffer ends inside a line: refill */
	ARA_MAPS_E_SYNTAX = 3,	 /* a line is not in the kernel's format */
	ARA_MAPS_E_RANGE = 4,	 /* a number does not fit its field */
	ARA_MAPS_E_BOUNDS = 5,	 /* start >= end */
	ARA_MAPS_E_ALIGN = 6,	 /* start, end or offset not page-aligned */
	ARA_MAPS_E_ORDER = 7,	 /* starts below the previous mapping's end */
	ARA_MAPS_E_ARGS = 8,	 /* NULL cursor, output or buffer; bad cursor */
};

/* The parser's state; read it only through the functions below. */
struct ara_maps_cursor {
	const char *buf;
	size_t len;
	size_t pos;	   /* bytes of buf consumed: whole lines only */
	uint64_t prev_end; /* end of the last mapping returned */
};

/* Starts a listing: buf[0..len) holds its first bytes. */
void ara_maps_init(struct ara_maps_cursor *c, const char *buf, size_t len);

/* Continues the same listing from a new buffer, whose byte 0 follows the
 * last consumed byte; the mapping order check carries over. */
void ara_maps_refill(struct ara_maps_cursor *c, const char *buf, size_t len);

/*
 * Parses the next complete line into *out. On any status but ARA_MAPS_OK,
 * *out and the cursor are left as they were, so errors repeat.
 */
__attribute__((warn_unused_result)) enum ara_maps_status
ara_maps_next(struct ara_maps_cursor *c, struct ara_mapping *out);

/* Bytes of the current buffer consumed so far (complete lines only). */
size_t ara_maps_consumed(const struct ara_maps_cursor *c);

#endif /* ARA_MAPS_H */
